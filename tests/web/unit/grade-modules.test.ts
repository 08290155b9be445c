// Where the grading code lives (issue 10): the mistake catalogue, the
// built-in suite and the diagnosis are C++ in the lab module, which loads on
// demand; the engine module that every page loads carries none of them and
// stays within 40 KB gzipped (its JavaScript glue and its WebAssembly).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { ROOT } from '../support/grade-cli.js';

const WASM = join(ROOT, 'web/wasm');
const read = (name: string) => readFileSync(join(WASM, name));
const gzipped = (name: string) => gzipSync(read(name), { level: 9 }).length;

describe('the grading code in the WebAssembly modules', () => {
  it('keeps the engine module every page loads within 40 KB gzipped', () => {
    const total = gzipped('engine.wasm') + gzipped('engine.mjs');
    expect(total).toBeLessThanOrEqual(40 * 1024);
  });

  it('puts the catalogue and the suite in the lab module only', () => {
    const engine = read('engine.wasm');
    const labWasm = read('lab.wasm');
    // Titles are compiled-in text: each is in the lab module's data, none in the engine's.
    for (const text of [...lab.mistakes().map((m) => m.title), ...lab.builtInTests().map((t) => t.title)]) {
      expect(labWasm.includes(Buffer.from(text)), text).toBe(true);
      expect(engine.includes(Buffer.from(text)), text).toBe(false);
    }
  });
});
