// The package's browser entry under a strict Content-Security-Policy, in
// Chromium: the built dist/ (api/ and wasm/) served as static files with the
// policy header, and a page whose script (tests/web/e2e/fixtures/csp-page.js,
// a file because inline scripts are blocked) imports /api/index.js, runs the
// SPEC's worked example and a Balancer pickMany, and writes the result into
// the DOM. No violation may be reported, in the page or on the console.
//
// The negative control proves the test can fail: without 'wasm-unsafe-eval'
// the engine must not load, the violation must be seen, and the page gets the
// package's error (not console noise) saying which file and why.
import { mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, recordViolations, watchProblems } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIST = join(ROOT, 'dist');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>slowstart under CSP</title>
<link rel="icon" href="/favicon.svg">
<script type="module" src="/csp-page.js"></script>
</head>
<body data-status="loading"><pre id="result"></pre></body>
</html>
`;

// Worked by hand from the SPEC.
const EXPECTED = {
  output: ['a', 'a', 'a=5 b=1 c=1 d=0', 'a=5 b=1 c=1 d=2', 'b', 'c'],
  diagnostics: ["line 11: unknown command 'pick' (use PICK)"],
  // Smooth WRR over a=5 b=1 c=1: the nginx sequence, period 7.
  picks: 'aabacaa'.repeat(2),
};

let site: string; // dist/api and dist/wasm (symlinked) + the page script
let browser: Browser;

beforeAll(async () => {
  for (const f of ['api/index.js', 'wasm/engine.mjs', 'wasm/engine.wasm'])
    if (!existsSync(join(DIST, f))) throw new Error(`dist/${f} is missing: run scripts/build-wasm.sh and scripts/build-package.sh`);
  site = await mkdtemp(join(tmpdir(), 'slowstart-csp-'));
  await symlink(join(DIST, 'api'), join(site, 'api'));
  await symlink(join(DIST, 'wasm'), join(site, 'wasm'));
  await symlink(join(import.meta.dirname, 'fixtures/csp-page.js'), join(site, 'csp-page.js'));
  await writeFile(
    join(site, 'favicon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>',
  );
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

/** Serves the site with `policy`, opens the page, and returns what it shows. */
async function visit(policy: string) {
  const server = await serveStatic(site, { headers: { 'content-security-policy': policy }, pages: { '/': PAGE } });
  const page = await browser.newPage();
  try {
    const problems = watchProblems(page);
    const readViolations = await recordViolations(page);
    const response = await page.goto(`${server.url}/`);
    expect(response?.headers()['content-security-policy']).toBe(policy);
    await page.waitForSelector('body:not([data-status="loading"])', { timeout: 30_000 });
    const status = await page.getAttribute('body', 'data-status');
    const text = (await page.textContent('#result')) ?? '';
    const violations = await readViolations();
    return { status, text, violations, problems };
  } finally {
    await page.close();
    await server.close();
  }
}

describe('the browser entry under CSP', () => {
  const policies = [
    "script-src 'self' 'wasm-unsafe-eval'",
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'",
  ];

  it.each(policies)('%s: loads, runs the worked example and pickMany, no violations', async (policy) => {
    const { status, text, violations, problems } = await visit(policy);
    expect(violations).toEqual([]);
    expect(problems).toEqual([]);
    expect(status, text).toBe('ok');
    expect(JSON.parse(text)).toEqual(EXPECTED);
  });

  it("negative control: script-src 'self' without 'wasm-unsafe-eval' stops the engine, and the test sees it", async () => {
    const { status, text, violations, problems } = await visit("script-src 'self'");
    expect(status).toBe('error');
    expect(text).toMatch(/CompileError|WebAssembly|Content Security Policy/);
    expect(violations).toContainEqual({ directive: 'script-src', blocked: 'wasm-eval' });
    // The failure reaches the page as the package's error, naming the file it
    // could not compile and carrying Emscripten's own words (kept out of the
    // console: a page that handles the rejection shows no console noise).
    expect(text).toMatch(/^SlowStartError: .*engine\.wasm/);
    expect(text).toMatch(/CompileError|Content Security Policy|wasm-eval/);
    expect(problems).toEqual([]);
  });
});
