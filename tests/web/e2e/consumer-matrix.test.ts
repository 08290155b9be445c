// The package where course pages are built: real apps (tests/consumers/,
// support/consumer-apps.ts) install the tarball of this run (packed from a
// clean clone: support/packed.ts), are built for production under a
// sub-path with their tools' defaults, and are driven in one Chromium the
// way a learner uses the page: the exercise passes (its expected output was
// read, whatever the framework did with it), the predict element asks and
// its event reaches the page, a 30,000-line script runs in the background
// worker, implement mode's tests run in their worker, the API answers, each
// .wasm was emitted once, and the console stays clean (no hydration error,
// no Emscripten chatter). The Vite apps' dev servers (no optimizeDeps
// set-up), the package on another origin, and a retried failed load are
// driven too. The matrix is written to test-results/consumer-matrix.md
// (docs/TESTING.md has the last one).
//
// Budget (2 cores, beside the other test files): the installs ran at the
// start of `npm test` (tests/consumers/install.sh); here two builds at a
// time, each driven as soon as it is built.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { APPS, CONSUMERS, freePort, givePackage, startServer, SUB_PATH, wasmCounts, type ConsumerApp } from '../support/consumer-apps.js';
import { mustExec, packed } from '../support/packed.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
// Worked by hand: POOL a=5 b=1 c=1 (total 7): a (scores a 5 -> -2), a (a 3 -> -4), then b (a 1, b 3, c 3: b first in pool order).
const PICKS = 'a a b';
// POOL a=2 b=1 then 30,000 PICKs: a, b, a repeating (a -1 b 1 -> a 1 b -1 -> a 0 b 0).
const BIG = 'POOL a=2 b=1\n' + 'PICK\n'.repeat(30_000);

interface Row {
  build: string;
  assets: string;
  api: string;
  element: string;
  worker: string;
  implement: string;
  console: string;
}
const matrix = new Map<string, { setup: string; row: Partial<Row> }>();
const note = (name: string, setup: string, part: Partial<Row>) => {
  const entry = matrix.get(name) ?? { setup, row: {} };
  Object.assign(entry.row, part);
  matrix.set(name, entry);
};

let work: string;
let tarball: string;
let tarballDist: string;
let browser: Browser;

// Two builds at a time (each is mostly one core's work).
let running = 0;
const waiting: (() => void)[] = [];
async function limited<T>(job: () => Promise<T>): Promise<T> {
  if (running >= 2) await new Promise<void>((ok) => waiting.push(ok));
  running++;
  try {
    return await job();
  } finally {
    running--;
    waiting.shift()?.();
  }
}
// The two Next builds share a folder: one after the other.
let nextChain: Promise<unknown> = Promise.resolve();

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), 'slowstart-matrix-'));
  // Installed at the start of `npm test` (a no-op then; alone, this installs them).
  const [info] = await Promise.all([packed(), mustExec('bash', [join(CONSUMERS, 'install.sh')], CONSUMERS)]);
  tarball = info.tarball;
  tarballDist = join(work, 'package');
  await mkdir(tarballDist, { recursive: true });
  await mustExec('tar', ['xzf', tarball, '-C', tarballDist, '--strip-components=2', 'package/dist'], work);
  browser = await launchChromium();
}, 900_000);

afterAll(async () => {
  await browser?.close();
  const lines = [
    '| setup | build | assets | API | element | worker | implement | console |',
    '|---|---|---|---|---|---|---|---|',
    ...[...matrix].map(([name, { setup, row }]) => `| **${name}**: ${setup} | ${['build', 'assets', 'api', 'element', 'worker', 'implement', 'console'].map((k) => row[k as keyof Row] ?? '—').join(' | ')} |`),
  ];
  await mkdir(join(ROOT, 'test-results'), { recursive: true });
  await writeFile(join(ROOT, 'test-results/consumer-matrix.md'), lines.join('\n') + '\n');
  if (work) await rm(work, { recursive: true, force: true });
});

/** Records every event the elements send to the page (they bubble and are composed). */
async function listen(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const got: Record<string, unknown[]> = {};
    (window as unknown as { slowstartEvents: typeof got }).slowstartEvents = got;
    for (const type of ['slowstart-pass', 'slowstart-fail', 'slowstart-predict', 'slowstart-run']) {
      document.addEventListener(type, (e) => {
        const detail = (e as CustomEvent).detail as { script?: string; output?: unknown[] } & Record<string, unknown>;
        const id = (e.target as HTMLElement).id;
        // A run's output is summed up (30,000 lines need not cross to the test).
        (got[type] ??= []).push(type === 'slowstart-run' ? { id, length: detail.script?.length, lines: detail.output?.length } : { id, ...detail, output: undefined });
      });
    }
  });
}

const events = (page: Page, type: string) =>
  page.evaluate((t) => (window as unknown as { slowstartEvents: Record<string, Record<string, unknown>[]> }).slowstartEvents[t] ?? [], type);

/** Drives the course page at `url`; fills the row's columns as each part passes (a failure leaves the rest unmarked). */
async function drive(app: { name: string; setup: string; api: boolean }, url: string): Promise<void> {
  const page = await browser.newPage();
  const problems = watchProblems(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  await listen(page);
  try {
    await page.goto(url);
    if (app.api) {
      await expect.poll(() => page.textContent('#api-output'), { timeout: 60_000 }).toBe(PICKS);
      note(app.name, app.setup, { api: 'yes' });
    }
    // The exercise: its expected output was read, and its starter passes.
    const exercise = page.locator('#exercise');
    await expect
      .poll(async () => (await events(page, 'slowstart-pass')).some((e) => e.id === 'exercise'), { timeout: 60_000 })
      .toBe(true);
    expect(await exercise.locator('.sse-exercise').getAttribute('data-verdict')).toBe('pass');
    // Predict: asks about line 2, and the answer's event reaches the page.
    const predict = page.locator('#predict');
    await expect.poll(() => predict.locator('.ss-predict-q').textContent(), { timeout: 30_000 }).toBe('Line 2: PICK. What does it print?');
    await predict.getByLabel('What line 2 prints').fill('a');
    await predict.getByLabel('What line 2 prints').press('Enter');
    await expect.poll(() => events(page, 'slowstart-predict')).toEqual([
      { id: 'predict', line: 2, prediction: 'a', truth: 'a', correct: true, index: 0, total: 2 },
    ]);
    note(app.name, app.setup, { element: 'yes' });
    // A big script runs in the background worker.
    await exercise.evaluate((el, big) => ((el as HTMLElement & { script: string }).script = big), BIG);
    await expect
      .poll(async () => (await events(page, 'slowstart-run')).some((e) => e.length === BIG.length && e.lines === 30_000), { timeout: 90_000 })
      .toBe(true);
    expect(workers.some((w) => /run-worker/.test(w) || /^blob:/.test(w)), workers.join(' ')).toBe(true);
    note(app.name, app.setup, { worker: 'yes' });
    // Implement mode: its tests run in their worker (the lab and QuickJS).
    const impl = page.locator('#impl');
    await impl.locator('.ss-impl-test').first().waitFor({ timeout: 60_000 });
    await impl.locator('.ss-impl-run').click();
    await expect.poll(() => impl.locator('.ss-impl-results').getAttribute('aria-busy'), { timeout: 90_000 }).toBe('false');
    const states = await impl.locator('.ss-impl-test').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    expect(states.length).toBeGreaterThan(5);
    expect(states.filter((s) => s !== 'pass' && s !== 'fail')).toEqual([]);
    expect(states).toContain('pass');
    note(app.name, app.setup, { implement: 'yes' });
    expect(problems.filter((p) => !/favicon/.test(p))).toEqual([]);
    note(app.name, app.setup, { console: 'clean' });
  } finally {
    await page.close();
  }
}

async function buildAndDrive(app: ConsumerApp): Promise<void> {
  const dir = app.folder ? join(CONSUMERS, app.folder) : work;
  const started = performance.now();
  const output = await limited(async () => {
    if (app.folder) await givePackage(dir, tarball);
    if (app.name === 'vite7-react') await mustExec(join(dir, 'node_modules/.bin/tsc'), ['-p', '.'], dir); // the JSX typings, strict
    const build = () => app.build(dir, tarballDist);
    if (app.folder !== 'next') return build();
    const chained = nextChain.then(build);
    nextChain = chained.catch(() => undefined);
    return chained;
  });
  note(app.name, app.setup, { build: `yes (${Math.round((performance.now() - started) / 1000)} s)` });
  const wasm = await wasmCounts(output, tarballDist);
  expect(wasm).toEqual({ engine: 1, lab: 1, quickjs: 1 });
  note(app.name, app.setup, { assets: 'each .wasm once' });
  const served = await app.serve(dir, output);
  try {
    await drive(app, served.url);
  } finally {
    await served.close();
  }
}

describe.concurrent('course pages built with each tool, for production, under a sub-path', () => {
  it.for(APPS)('$name', { timeout: 1_200_000 }, async (app) => {
    await buildAndDrive(app);
  });
});

describe.concurrent('the Vite apps in their dev servers, with no optimizeDeps set-up', () => {
  const DEV = [
    { folder: 'vite5-svelte', base: '/' },
    { folder: 'vite6-vue', base: SUB_PATH },
    { folder: 'vite7-react', base: '/' },
  ];
  it.for(DEV)('$folder at $base', { timeout: 600_000 }, async ({ folder, base }) => {
    const dir = join(CONSUMERS, folder);
    // After the production build gave it the package (or now, alone).
    if (!(await readFile(join(dir, 'node_modules/slowstart/package.json'), 'utf8').catch(() => ''))) await givePackage(dir, tarball);
    await rm(join(dir, 'node_modules/.vite'), { recursive: true, force: true });
    const port = await freePort();
    const name = `${folder} dev ${base}`;
    const setup = `\`vite\` (dev server) at ${base}, dependencies pre-bundled`;
    const server = await startServer(join(dir, 'node_modules/.bin/vite'), ['--host', '127.0.0.1', '--port', String(port), '--strictPort', '--base', base], dir, `http://127.0.0.1:${port}${base}`);
    try {
      note(name, setup, { build: 'dev', assets: '—' });
      await drive({ name, setup, api: true }, `http://127.0.0.1:${port}${base}`);
    } finally {
      await server.close();
    }
  });
});

describe('the package on another origin (a CDN, a course’s asset host)', () => {
  it('starts its workers through same-origin bootstraps: the page on one port, the package on another with CORS', { timeout: 300_000 }, async () => {
    const cdn = await serveStatic(join(tarballDist, '..'), { headers: { 'access-control-allow-origin': '*' } });
    const html = (await readFile(join(CONSUMERS, 'static/index.html'), 'utf8')).replaceAll('__PKG__', `${cdn.url}/package/`);
    const site = await serveStatic(work, { pages: { '/course/': html } });
    const name = 'two origins';
    const setup = 'the static page on one origin, the package (dist/ as published) on another, with CORS';
    try {
      note(name, setup, { build: '—', assets: '—' });
      await drive({ name, setup, api: true }, `${site.url}/course/`);
    } finally {
      await site.close();
      await cdn.close();
    }
  });

  it('tries a failed load again: the next call, and the next element, load the engine', { timeout: 120_000 }, async () => {
    const site = await serveStatic(join(tarballDist, '..'), {
      pages: { '/retry.html': '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body></body>' },
    });
    const page = await browser.newPage();
    let failures = 0;
    await page.route('**/engine.wasm', (route) => (failures++ === 0 ? route.fulfill({ status: 503, body: 'busy' }) : route.continue()));
    try {
      await page.goto(`${site.url}/retry.html`);
      // (A string: Vitest would rewrite an import() written in this file.)
      const [first, second] = (await page.evaluate(`(async () => {
        const { loadSlowStart } = await import(${JSON.stringify(`${site.url}/package/api/index.js`)});
        const first = await loadSlowStart().then(() => 'loaded', (e) => e.code + ' ' + String(e.url).replace(/^.*\\//, ''));
        const second = await loadSlowStart().then((s) => s.run('POOL a=1\\nPICK\\n').output.map((o) => o.text).join(' '));
        return [first, second];
      })()`)) as [string, string];
      expect(first).toBe('WASM_LOAD_FAILED engine.wasm');
      expect(second).toBe('a');
      expect(failures).toBe(2);
    } finally {
      await page.close();
      await site.close();
    }
  });
});
