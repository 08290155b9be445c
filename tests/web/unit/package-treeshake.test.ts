// What a bundler keeps of the package: importing a constant keeps the
// constant, not the engine's glue (sideEffects and pure loaders); importing
// the API keeps no element code.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const app = mkdtempSync(join(tmpdir(), 'slowstart-treeshake-'));
mkdirSync(join(app, 'node_modules'));
symlinkSync(ROOT, join(app, 'node_modules/slowstart'));
afterAll(() => rmSync(app, { recursive: true, force: true }));

/** esbuild's production bundle of `code` (an ES module importing the package). */
function bundle(code: string): string {
  writeFileSync(join(app, 'main.js'), code);
  const r = spawnSync(join(ROOT, 'node_modules/.bin/esbuild'), ['main.js', '--bundle', '--format=esm', '--minify', '--outfile=out.js'], {
    cwd: app,
    encoding: 'utf8',
  });
  expect(r.status, r.stderr).toBe(0);
  return readFileSync(join(app, 'out.js'), 'utf8');
}

it('an imported constant is all esbuild keeps (it kept 46.9 KB before)', () => {
  const out = bundle("import { NO_WINNER } from 'slowstart';\nconsole.log(NO_WINNER);\n");
  expect(out.trim()).toBe('console.log(-1);');
});

it('the API keeps the engine and no element code', () => {
  const out = bundle("import { loadSlowStart } from 'slowstart';\nloadSlowStart().then((s) => console.log(s.version));\n");
  expect(out).toContain('_ss_balancer_new');
  expect(out).not.toContain('slow-start-runner');
  expect(out.length).toBeLessThan(40_000);
});
