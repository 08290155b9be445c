// The WebAssembly build copies text of 17 to 256 bytes with its own 8-byte
// loop (cpp/fast/short_bytes.hpp, copy_short: Emscripten's memcpy goes byte
// by byte on misaligned text). Every length, at shifting offsets, through
// both text paths: the Node CLI's sink and run()'s columns.
import { describe, expect, it } from 'vitest';
import { slowstart } from '../support/engine.js';
import type { SlowStart } from '../../../dist/api/node.js';

// The module's streaming runner, as the Node CLI drives it (`module` is
// @internal: stripped from the published typings, there at runtime).
interface RawEngine {
  inputBuffer(length: number): Uint8Array;
  TextRunner: new () => {
    feed(length: number): number;
    finish(): void;
    takeOutput(): Uint8Array;
    takeDiagnostics(): Uint8Array;
    delete(): void;
  };
}
const rawEngine = (s: SlowStart) => (s as unknown as { module: RawEngine }).module;

// Names of every length 1..300 (a..z repeated, so any misplaced byte shows),
// each after a name of another length, so that the copies start at every
// alignment in the output buffer.
const name = (n: number, shift: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i + shift) % 26))).join('');

describe('text copies of every length', () => {
  const lines: string[] = [];
  const outputs: string[] = [];
  const diagnostics: string[] = [];
  for (let n = 1; n <= 300; n++) {
    const a = name(n, n), b = name((n * 7) % 13 + 1, 3);
    lines.push(`POOL ${a}=${n} ${b}=1000000`, 'WEIGHTS', `DOWN ${a}x`);
    const sorted = [a, b].sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    outputs.push(sorted.map((s) => `${s}=${s === a ? n : 1000000}`).join(' '));
    // "no backend named '...'": quoted up to 60 bytes, then "..."
    const asked = `${a}x`;
    diagnostics.push(`no backend named '${asked.length > 60 ? asked.slice(0, 60) + '...' : asked}'`);
  }
  const script = lines.join('\n') + '\n';

  it('run(): every WEIGHTS line and diagnostic byte for byte', () => {
    const r = slowstart.run(script, { timeline: false });
    expect(r.output.map((o) => o.text)).toEqual(outputs);
    expect(r.diagnostics.map((d) => d.message)).toEqual(diagnostics);
  });

  it('the CLIs\' text path: the same bytes, lines ending in \\n', () => {
    const raw = rawEngine(slowstart);
    const runner = new raw.TextRunner();
    const bytes = new TextEncoder().encode(script);
    let out = '', err = '';
    const dec = new TextDecoder();
    for (let at = 0; at < bytes.length; ) {
      const chunk = bytes.subarray(at, at + 4096);
      raw.inputBuffer(chunk.length).set(chunk);
      at += runner.feed(chunk.length);
      out += dec.decode(runner.takeOutput());
      err += dec.decode(runner.takeDiagnostics());
    }
    runner.finish();
    out += dec.decode(runner.takeOutput());
    err += dec.decode(runner.takeDiagnostics());
    runner.delete();
    expect(out).toBe(outputs.map((l) => l + '\n').join(''));
    expect(err).toBe(diagnostics.map((m, i) => `line ${3 * i + 3}: ${m}\n`).join(''));
  });
});
