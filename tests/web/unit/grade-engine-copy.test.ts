// A submission that brings the engine along (docs/SECURITY.md: a public
// reference cannot be hidden from a program that brings its own): `slowstart
// grade --submission DIR` finds a copy by content, whatever its name, as it
// is, in base64 or in hex, flags it in every report format, and refuses the
// submission with --engine-copies refuse; both CLIs alike. Every file of
// the package that can run the engine is found, so a renamed export or a
// reworded sentence fails here instead of hiding copies
// (cpp/grading/engine_copy.cpp's marks).
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { both, checkJunit, type Gradescope, json, LEARNERS, NATIVE, parseXml, ROOT, SLOW } from '../support/grade-cli.js';

let base: string;
let tests: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'slowstart-engine-copy-'));
  tests = join(base, 'tests');
  mkdirSync(tests);
  writeFileSync(join(tests, 'a.txt'), 'POOL a=1\nPICK\n');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

/** A submission folder holding `files` (name -> bytes) beside an honest program. */
function submission(name: string, files: Record<string, Uint8Array | string>): string {
  const dir = join(base, name);
  mkdirSync(dir, { recursive: true });
  copyFileSync(join(LEARNERS, 'learner.py'), join(dir, 'balancer.py'));
  for (const [file, bytes] of Object.entries(files)) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    writeFileSync(join(dir, file), bytes);
  }
  return dir;
}

const grade = (dir: string, ...extra: string[]) => both(['grade', '--tests', tests, '--submission', dir, ...extra, '--', 'true']);

describe('slowstart grade --submission: a copy of the engine', { timeout: SLOW }, () => {
  it('is found in every file of the package that can run the engine, whatever its name', async () => {
    const files: [string, string][] = [
      ['dist/wasm/engine.wasm', 'the engine itself'],
      ['dist/wasm/lab.wasm', 'the engine itself'],
      ['build/slowstart', 'the engine itself'],
      ['dist/wasm/engine.mjs', "the engine module's JavaScript"],
      ['dist/api/engine-abi.js', "the engine module's JavaScript"],
      ['dist/api/grading.js', "the lab module's JavaScript"],
      ['dist/api/lab.js', "the lab module's JavaScript"],
    ];
    for (const [file, what] of files) {
      const dir = submission(`one-${file.replace(/\W/g, '-')}`, { 'vendor/data.txt': readFileSync(join(ROOT, file)) });
      const run = await grade(dir, '--engine-copies', 'refuse');
      expect(run.code, file).toBe(2);
      expect(run.stderr, file).toMatch(new RegExp(`^slowstart grade: the submission holds a copy of the slowstart engine \\(vendor/data\\.txt holds ${what}`));
    }
  });

  it('is found in base64 (wrapped, in a string literal) and in hex, and an honest submission is not flagged', async () => {
    const wasm = readFileSync(join(ROOT, 'dist/wasm/engine.wasm'));
    const python = `import base64\nENGINE = (\n${wasm.toString('base64').replace(/.{76}/g, '    "$&"\n')}\n)\n`;
    const js = `const engine = "${readFileSync(NATIVE).subarray(0, 4_000_000).toString('hex')}";\n`;
    for (const [name, file, encoding] of [['b64', python, 'in base64'], ['hex', js, 'in hex']] as const) {
      const run = await grade(submission(name, { 'engine.py': file }), '--engine-copies', 'refuse');
      expect(run.code, name).toBe(2);
      expect(run.stderr, name).toContain(`engine.py holds the engine itself (its command table: a WebAssembly module, the native CLI or the element), ${encoding}`);
    }
    const honest = await grade(submission('honest', { 'README.md': 'My balancer: POOL, NOW, ADD, DOWN, UP, WEIGHTS, PICK.\n' }), '--engine-copies', 'refuse', '--format', 'json');
    expect(json(honest).engine_copies).toEqual([]);
  });

  it('is flagged first in every report format', async () => {
    const dir = submission('flagged', { 'lib/x.bin': readFileSync(join(ROOT, 'dist/wasm/lab.wasm')) });
    const file = 'lib/x.bin';
    const text = (await grade(dir)).stdout.toString();
    expect(text).toMatch(/^Grading true\n\nWarning: the submission holds a copy of the slowstart engine, so what it\n {2}prints may be the engine's answers rather than its own:\n {2}lib\/x\.bin holds the engine itself/);
    const report = json(await grade(dir, '--format', 'json'));
    expect(report.engine_copies).toEqual([{ file, what: 'the engine itself (its command table: a WebAssembly module, the native CLI or the element)', encoding: 'as it is' }]);
    const gradescope = JSON.parse((await grade(dir, '--format', 'gradescope')).stdout.toString()) as Gradescope;
    expect(gradescope.output).toMatch(/^Warning: the submission holds a copy of the slowstart engine/);
    const junit = (await grade(dir, '--format', 'junit')).stdout;
    checkJunit(junit, { tests: 1, failures: 1, errors: 0 });
    const properties = parseXml(junit).children[0].children[0].children.map((p) => p.attrib);
    expect(properties).toContainEqual({ name: 'engine-copy', value: `${file} holds the engine itself (its command table: a WebAssembly module, the native CLI or the element), as it is` });
  });

  it('a copy of the whole package is refused, with a report that says so', async () => {
    const dir = join(base, 'whole');
    mkdirSync(dir);
    cpSync(join(ROOT, 'dist'), join(dir, 'node_modules/slowstart/dist'), { recursive: true });
    const report = join(base, 'whole.json');
    const run = await grade(dir, '--engine-copies', 'refuse', '--format', 'json', '--output', report);
    expect(run.code).toBe(2);
    const r = JSON.parse(readFileSync(report, 'utf8')) as ReturnType<typeof json>;
    expect(r.could_not_grade).toMatch(/^the submission holds a copy of the slowstart engine \(node_modules\/slowstart\/dist\//);
    expect(r.engine_copies.length).toBeGreaterThan(3);
  });
});
