// The npm package in a fresh Vite app, in Chromium: `npm pack`, install the
// tarball into an empty folder, add an index.html + main.js that import
// 'slowstart' (the browser entry) and write the SPEC's worked example into the
// DOM, `vite build` it (the project's own Vite), serve the built dist/ under a
// strict CSP and check the page. The Node half is tests/web/unit/package.test.ts.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const VITE = join(ROOT, 'node_modules/.bin/vite');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";

// Worked by hand from the SPEC.
const OUTPUT = ['a', 'a', 'a=5 b=1 c=1 d=0', 'a=5 b=1 c=1 d=2', 'b', 'c'].join('\n');
const DIAGNOSTICS = "line 11: unknown command 'pick' (use PICK)";

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>slowstart in a Vite app</title>
<link rel="icon" href="/favicon.svg">
<script type="module" src="/main.js"></script>
</head>
<body data-status="loading">
<pre id="output"></pre>
<pre id="diagnostics"></pre>
</body>
</html>
`;

const MAIN_JS = `import { loadSlowStart } from 'slowstart';

const SCRIPT = 'POOL a=5 b=1 c=1\\nPICK\\nPICK\\nADD d=10 20\\nWEIGHTS\\nNOW 5\\nWEIGHTS\\nPICK\\nDOWN a\\nPICK\\npick\\n';

async function main() {
  try {
    const slowstart = await loadSlowStart();
    const { output, diagnostics } = slowstart.run(SCRIPT);
    document.getElementById('output').textContent = output.map((o) => o.text).join('\\n');
    document.getElementById('diagnostics').textContent = diagnostics.map((d) => 'line ' + d.line + ': ' + d.message).join('\\n');
    document.body.dataset.status = 'ok';
  } catch (e) {
    document.getElementById('output').textContent = String(e);
    document.body.dataset.status = 'error';
  }
}
main();
`;

function exec(cmd: string, args: string[], cwd: string): Promise<{ code: number | null; out: string }> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' },
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b));
    child.stderr.on('data', (b: Buffer) => (out += b));
    child.on('error', fail);
    child.on('close', (code) => ok({ code, out }));
  });
}

async function mustExec(cmd: string, args: string[], cwd: string): Promise<string> {
  const r = await exec(cmd, args, cwd);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.code}:\n${r.out}`);
  return r.out;
}

let work: string;
let app: string;
let browser: Browser;

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'dist/api/index.js'))) throw new Error('dist/ is missing: run scripts/build-package.sh');
  work = await mkdtemp(join(tmpdir(), 'slowstart-vite-app-'));
  const pack = await mustExec('npm', ['pack', '--json', '--pack-destination', work], ROOT);
  const tarball = join(work, (JSON.parse(pack) as { filename: string }[])[0].filename);

  app = join(work, 'app');
  await mkdir(join(app, 'public'), { recursive: true });
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'vite-consumer', private: true, type: 'module' }));
  await mustExec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  await writeFile(join(app, 'index.html'), INDEX_HTML);
  await writeFile(join(app, 'main.js'), MAIN_JS);
  await writeFile(
    join(app, 'public/favicon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  );
  browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

it('vite build of an app importing the installed package; the built page runs the worked example under CSP', async () => {
  // The user's command, run in the app folder (no config file: Vite's defaults).
  const log = await mustExec(VITE, ['build', '--logLevel', 'warn'], app);
  expect(log).not.toMatch(/error/i);

  // Vite picked up the engine's `new URL('engine.wasm', import.meta.url)` and emitted the binary.
  const assets = await readdir(join(app, 'dist/assets'));
  expect(assets.filter((f) => /^engine-[\w-]+\.wasm$/.test(f))).toHaveLength(1);
  expect(assets.filter((f) => f.endsWith('.js')).length).toBeGreaterThan(0);

  const server = await serveStatic(join(app, 'dist'), { headers: { 'content-security-policy': CSP } });
  const page = await browser.newPage();
  try {
    const problems = watchProblems(page);
    await page.addInitScript(() => {
      const w = window as unknown as { __violations: string[] };
      w.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => w.__violations.push(`${e.effectiveDirective} ${e.blockedURI}`));
    });
    const wasmRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('.wasm')) wasmRequests.push(new URL(r.url()).pathname);
    });
    await page.goto(`${server.url}/`);
    await page.waitForSelector('body:not([data-status="loading"])', { timeout: 30_000 });
    const output = await page.textContent('#output');
    expect(await page.getAttribute('body', 'data-status'), output ?? '').toBe('ok');
    expect(output).toBe(OUTPUT);
    expect(await page.textContent('#diagnostics')).toBe(DIAGNOSTICS);
    expect(await page.evaluate(() => (window as unknown as { __violations: string[] }).__violations)).toEqual([]);
    expect(problems).toEqual([]);
    expect(wasmRequests).toEqual([expect.stringMatching(/^\/assets\/engine-[\w-]+\.wasm$/)]);
  } finally {
    await page.close();
    await server.close();
  }
});
