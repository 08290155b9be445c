// The npm package as a consumer's bundler sees it, in Chromium. A clean
// clone of this repository (git clone: no dist/, no web/wasm/) is packed,
// so packing must build (scripts/prepack.sh); the tarball is installed into
// a fresh app per bundler (Vite, webpack 5, esbuild with the documented
// set-up, docs/EMBEDDING.md), each app is built for production, served
// statically under a sub-path (/course/app/) with a strict CSP, and driven:
// the API's worked example, a script of over 100,000 characters through the
// element's background worker, and implement mode's tests in their worker.
//
// Budget (2 cores): one pack per run (support/packed.ts, shared with
// package.test.ts), one install copied to the other apps, the builds in
// parallel, one Chromium.
import { cp, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { mustExec, packed as packedOnce } from '../support/packed.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const FIXTURE = join(ROOT, 'tests/web/e2e/fixtures/consumer');
const BIN = join(ROOT, 'node_modules/.bin');
const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'";
const SUB_PATH = '/course/app/';

// Worked by hand from the SPEC (its example), then how the app saw a bad weight rejected.
const API_OUTPUT = [
  'a',
  'a',
  'a=5 b=1 c=1 d=0',
  'a=5 b=1 c=1 d=2',
  'b',
  'c',
  "line 11: unknown command 'pick' (use PICK)",
  'true SlowStartError INVALID_ARGUMENT',
];
// POOL a=2 b=1 then 30,000 PICKs: smooth WRR repeats a, b, a (scores a 2 b 1 -> a -1 b 1 -> a 1 b -1 -> a 0 b 0).
const BIG = { lines: 30_000, first: ['a', 'b', 'a', 'a'], a: 20_000, diagnostics: 0 };

type Bundler = 'vite' | 'webpack' | 'esbuild';
const BUNDLERS: Bundler[] = ['vite', 'webpack', 'esbuild'];

/** The page that loads the app: each bundler's own way. */
function indexHtml(bundler: Bundler): Promise<string> {
  const scripts: Record<Bundler, string> = {
    vite: '<script type="module" src="./main.js"></script>',
    webpack: '<script defer src="main.js"></script>',
    esbuild: '<script type="module" src="main.js"></script>\n<script type="module" src="slowstart/element/slow-start-runner.js"></script>',
  };
  return readFile(join(FIXTURE, 'index.html'), 'utf8').then((html) => html.replace('<!--SCRIPTS-->', scripts[bundler]));
}

/** A production build of the app in `app`; its output is `app/dist`. */
async function build(bundler: Bundler, app: string): Promise<void> {
  if (bundler === 'vite') {
    // The user's command, no config file: Vite's defaults but the sub-path.
    await mustExec(join(BIN, 'vite'), ['build', '--base', SUB_PATH, '--logLevel', 'warn'], app);
  } else if (bundler === 'webpack') {
    await mustExec(join(BIN, 'webpack'), ['--config', 'webpack.config.js'], app);
    await writeFile(join(app, 'dist/index.html'), await indexHtml('webpack'));
  } else {
    await mustExec(join(BIN, 'esbuild'), ['main.js', '--bundle', '--format=esm', '--minify', '--outfile=dist/main.js'], app);
    await cp(join(app, 'node_modules/slowstart/dist'), join(app, 'dist/slowstart'), { recursive: true });
    await writeFile(join(app, 'dist/index.html'), await indexHtml('esbuild'));
  }
  await writeFile(join(app, 'dist/favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"><rect width="1" height="1"/></svg>');
}

let work: string;
let packed: string[];
let browser: Browser;
const servers = new Map<Bundler, StaticServer>();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'slowstart-consumers-'));
  // Packed from a clean clone, once per run (shared with package.test.ts).
  const info = await packedOnce();
  packed = info.files;

  // One install, copied to the other apps (the tarball has no dependencies).
  const apps = join(work, 'apps');
  const first = join(apps, BUNDLERS[0]);
  await mkdir(first, { recursive: true });
  await writeFile(join(first, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await mustExec('npm', ['install', '--no-audit', '--no-fund', '--offline', info.tarball], first);
  for (const bundler of BUNDLERS.slice(1)) await cp(first, join(apps, bundler), { recursive: true });
  for (const bundler of BUNDLERS) {
    const app = join(apps, bundler);
    await cp(join(FIXTURE, 'app.js'), join(app, 'app.js'));
    await cp(join(FIXTURE, bundler === 'esbuild' ? 'main-esbuild.js' : 'main-bundled.js'), join(app, 'main.js'));
    if (bundler === 'vite') await writeFile(join(app, 'index.html'), await indexHtml('vite'));
    if (bundler === 'webpack') await cp(join(FIXTURE, 'webpack.config.js'), join(app, 'webpack.config.js'));
  }
  const [launched] = await Promise.all([launchChromium(), ...BUNDLERS.map((b) => build(b, join(apps, b)))]);
  browser = launched;
  for (const bundler of BUNDLERS) {
    // Served under a sub-path: /course/app/ is the app's dist/.
    const site = join(work, `site-${bundler}`);
    await mkdir(join(site, 'course'), { recursive: true });
    await symlink(join(apps, bundler, 'dist'), join(site, 'course/app'));
    servers.set(bundler, await serveStatic(site, { headers: { 'content-security-policy': CSP } }));
  }
}, 300_000);

afterAll(async () => {
  await browser?.close();
  for (const server of servers.values()) await server.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('npm pack from a clean clone', () => {
  it('built the package first: the API, the WebAssembly once, the element', () => {
    for (const f of ['dist/api/index.js', 'dist/api/node.js', 'dist/wasm/engine.wasm', 'dist/wasm/lab.wasm', 'dist/element/slow-start-runner.js'])
      expect(packed).toContain(f);
    // Each module's .wasm is shipped once: the element uses ../wasm/.
    expect(packed.filter((p) => p.endsWith('engine.wasm'))).toEqual(['dist/wasm/engine.wasm']);
    expect(packed.filter((p) => p.endsWith('lab.wasm'))).toEqual(['dist/wasm/lab.wasm']);
  });
});

async function open(bundler: Bundler): Promise<{ page: Page; problems: string[]; workers: string[] }> {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(new URL(w.url()).pathname));
  await page.goto(`${servers.get(bundler)!.url}${SUB_PATH}`);
  return { page, problems, workers };
}

// The three apps at once, in three pages of the one Chromium (each test waits for states).
describe.concurrent('an app built with each bundler, served under /course/app/', () => {
  it.for(BUNDLERS)('%s: runs the API, a 150,000-character script in the element’s worker, and implement mode’s tests', async (bundler, { expect }) => {
    const { page, problems, workers } = await open(bundler);
    try {
      await page.waitForSelector('body:not([data-api="loading"])', { timeout: 30_000 });
      expect((await page.textContent('#api-output'))?.split('\n')).toEqual(API_OUTPUT);

      // The big script ran in the element's background worker.
      await page.waitForSelector('body[data-big]', { timeout: 30_000 });
      expect(JSON.parse((await page.getAttribute('body', 'data-big'))!)).toEqual(BIG);

      // Implement mode: its tests run in their worker (the lab and QuickJS).
      const impl = page.locator('#impl');
      await impl.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
      await impl.locator('.ss-impl-run').click();
      await expect.poll(() => impl.locator('.ss-impl-results').getAttribute('aria-busy'), { timeout: 30_000 }).toBe('false');
      const states = await impl.locator('.ss-impl-test').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
      expect(states.length).toBeGreaterThan(5);
      // The template's rules pass some tests and fail others: every test ran.
      expect(states.filter((s) => s !== 'pass' && s !== 'fail')).toEqual([]);
      expect(states).toContain('pass');

      expect(workers.length, 'workers started').toBeGreaterThanOrEqual(2);
      for (const w of workers) expect(w.startsWith(SUB_PATH), w).toBe(true);
      expect(problems).toEqual([]);
    } finally {
      await page.close();
    }
  });
});

describe('what each bundler emitted', () => {
  it('Vite and webpack emitted the workers and each .wasm once; the main chunk carries no editor', async () => {
    for (const bundler of ['vite', 'webpack'] as const) {
      const dist = join(work, 'apps', bundler, 'dist', bundler === 'vite' ? 'assets' : '');
      const files = await readdir(dist);
      const wasm = files.filter((f) => f.endsWith('.wasm'));
      expect(wasm, bundler).toHaveLength(3); // engine, lab, QuickJS
      const main = bundler === 'vite' ? files.find((f) => /^index-.*\.js$/.test(f))! : 'main.js';
      const code = await readFile(join(dist, main), 'utf8');
      // CodeMirror's view (it makes the editor contenteditable) loads with the first element, not with the page.
      expect(code, `${bundler} ${main}`).not.toContain('contenteditable');
    }
  });
});
