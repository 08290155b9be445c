// The package where course pages are built: real apps (tests/consumers/,
// support/consumer-apps.ts) install the tarball of this run (packed from a
// clean clone: support/packed.ts), are built for production under a
// sub-path with their tools' defaults, and are driven in one Chromium the
// way a learner uses the page: the exercise passes (its expected output was
// read, whatever the framework did with it), the predict element asks and
// its event reaches the page, a 30,000-line script runs in the background
// worker, implement mode's tests run in their worker, the API answers, each
// .wasm was emitted once, every worker came from the page's origin and path
// (or a same-origin blob:), and the console stays clean (no hydration
// error, no Emscripten chatter). The Vite apps' dev servers (no
// optimizeDeps set-up, at / and under a sub-path), the package on another
// origin, and a retried failed load are driven too. The matrix is written
// to test-results/consumer-matrix.md (docs/TESTING.md has the last one).
//
// Budget (2 cores, beside the other test files): the workspace's one install
// ran at the start of `npm test` (tests/consumers/install.sh); here two
// builds at a time, each driven as soon as it is built, all pages in one
// Chromium.
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it, type ExpectStatic } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import {
  APPS,
  bin,
  buildPlace,
  CONSUMERS,
  copyApp,
  freePort,
  givePackage,
  startServer,
  staticScripts,
  SUB_PATH,
  wasmCounts,
  type ConsumerApp,
} from '../support/consumer-apps.js';
import { mustExec, packed } from '../support/packed.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
// POOL a=2 b=1 then 30,000 PICKs: a, b, a repeating (a -1 b 1 -> a 1 b -1 -> a 0 b 0).
const BIG = 'POOL a=2 b=1\n' + 'PICK\n'.repeat(30_000);

const COLUMNS = ['build', 'assets', 'api', 'element', 'worker', 'implement', 'console'] as const;
type Row = Partial<Record<(typeof COLUMNS)[number], string>>;
const matrix = new Map<string, { setup: string; row: Row }>();
const note = (name: string, setup: string, part: Row) => {
  const entry = matrix.get(name) ?? { setup, row: {} };
  Object.assign(entry.row, part);
  matrix.set(name, entry);
};

let work: string;
let tarball: string;
let tarballDist: string;
let browser: Browser;

// Two builds (or dev servers) at a time, each mostly one core's work; the
// heaviest first, so that none is left running alone at the end (measured
// on the loaded machine: docs/TESTING.md).
const HEAVIEST_FIRST = ['docusaurus', 'next-turbopack', 'astro', 'next-webpack', 'vitepress', 'vite7-react', 'vite6-vue', 'vite5-svelte'];
const rank = (name: string) => (HEAVIEST_FIRST.includes(name) ? HEAVIEST_FIRST.indexOf(name) : HEAVIEST_FIRST.length);
let running = 0;
const waiting: { rank: number; go: () => void }[] = [];
async function limited<T>(order: number, job: () => Promise<T>): Promise<T> {
  if (running >= 2) {
    await new Promise<void>((go) => {
      waiting.push({ rank: order, go });
      waiting.sort((a, b) => a.rank - b.rank);
    });
  }
  running++;
  try {
    return await job();
  } finally {
    running--;
    waiting.shift()?.go();
  }
}
// The two Next builds share a folder: one after the other (the second waits
// outside the limit, holding no slot).
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
    `| setup | ${COLUMNS.map((c) => (c === 'api' ? 'API' : c)).join(' | ')} |`,
    `|---|${COLUMNS.map(() => '---').join('|')}|`,
    ...[...matrix].map(([name, { setup, row }]) => `| **${name}**: ${setup} | ${COLUMNS.map((k) => row[k] ?? '✗').join(' | ')} |`),
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

interface Drive {
  name: string;
  setup: string;
  /** What `#api-output` must show (null: the page does not call the API). */
  api: string | null;
  /** Where the page's own files are: every worker must come from there (or be a blob: of the page's origin). */
  base: string;
}

/**
 * Drives the course page at `url`; fills the row's columns as each part
 * passes (a failure leaves the rest unmarked). `expect` is the test's own
 * (the tests run concurrently: the global one cannot tell whose poll it is).
 */
async function drive(expect: ExpectStatic, app: Drive, url: string): Promise<void> {
  const page = await browser.newPage();
  // Generous: the matrix runs beside other test files on two cores, two builds at a time.
  page.setDefaultTimeout(120_000);
  page.setDefaultNavigationTimeout(120_000);
  const problems = watchProblems(page);
  const workers: string[] = [];
  page.on('worker', (w) => workers.push(w.url()));
  // Every failed fetch in the page's context, workers' too (a .wasm a worker could not fetch).
  const fetches: string[] = [];
  page.context().on('response', (r) => {
    if (r.status() >= 400) fetches.push(`HTTP ${r.status()} ${r.url()}`);
  });
  const allProblems = () => [...new Set([...problems, ...fetches])];
  // The site's own icon (VitePress has none, so Chromium asks for /favicon.ico; Starlight links
  // /favicon.svg at the origin's root, outside the sub-path): not the package's to answer.
  await page.route('**/favicon.{ico,svg}', (route) => route.fulfill({ status: 204 }));
  await listen(page);
  try {
    await page.goto(url);
    const origin = new URL(url).origin;
    if (app.api !== null) {
      await expect.poll(() => page.textContent('#api-output'), { timeout: 60_000 }).toBe(app.api);
      note(app.name, app.setup, { api: 'yes' });
    } else note(app.name, app.setup, { api: '— (the page does not call it)' });
    // The exercise: its expected output was read (three lines), and its starter passes.
    const exercise = page.locator('#exercise');
    await expect
      .poll(async () => (await events(page, 'slowstart-pass')).find((e) => e.id === 'exercise')?.expected, { timeout: 60_000 })
      .toEqual(['a', 'a', 'b']);
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
    // A big script runs in the background worker (a worker starts: bundlers name its file as they like).
    const before = workers.length;
    await exercise.evaluate((el, big) => ((el as HTMLElement & { script: string }).script = big), BIG);
    await expect
      .poll(async () => (await events(page, 'slowstart-run')).some((e) => e.length === BIG.length && e.lines === 30_000), { timeout: 90_000 })
      .toBe(true);
    expect(workers.length, workers.join(' ')).toBeGreaterThan(before);
    note(app.name, app.setup, { worker: 'yes' });
    // Implement mode: its tests run in their worker (the lab and QuickJS).
    const impl = page.locator('#impl');
    await impl.locator('.ss-impl-test').first().waitFor({ timeout: 60_000 });
    await impl.locator('.ss-impl-run').click();
    await expect.poll(() => impl.locator('.ss-impl-results').getAttribute('aria-busy'), { timeout: 90_000 }).toBe('false');
    const states = await impl.locator('.ss-impl-test').evaluateAll((els) => els.map((e) => e.getAttribute('data-state')));
    // (What the learner is told when the tests could not run, or not all: the banner, the counts.)
    const told = [...(await impl.locator('.ss-impl-banner-text').allTextContents()), (await impl.locator('.ss-impl-counts').textContent()) ?? ''];
    expect(states.length).toBeGreaterThan(5);
    // The template's rules pass some tests and fail others: every test ran.
    expect(states.filter((s) => s !== 'pass' && s !== 'fail'), [...told, ...allProblems()].join('\n')).toEqual([]);
    expect(states).toContain('pass');
    expect(workers.length, workers.join(' ')).toBeGreaterThanOrEqual(2);
    for (const w of workers) expect(w.startsWith(`blob:${origin}/`) || w.startsWith(`${origin}${app.base}`), w).toBe(true);
    note(app.name, app.setup, { implement: 'yes' });
    expect(allProblems()).toEqual([]);
    note(app.name, app.setup, { console: 'clean' });
  } finally {
    await page.close();
  }
}

/** The app's folder, given the package (and whatever else it needs before a build or its dev server). */
async function prepare(app: ConsumerApp): Promise<string> {
  if (!app.folder) return work;
  const dir = app.inPlace ? join(CONSUMERS, app.folder) : await copyApp(app.folder, work);
  await givePackage(dir, tarball);
  await app.prepare?.(dir);
  return dir;
}

const prepared = new Map<string, Promise<string>>();
const prepareOnce = (app: ConsumerApp) => prepared.get(app.name) ?? prepared.set(app.name, prepare(app)).get(app.name)!;

// Each app's production build, once done (its dev server starts after it: they share the folder).
const builds = new Map<string, Promise<unknown>>();

async function buildAndDrive(expect: ExpectStatic, app: ConsumerApp): Promise<void> {
  let started = 0;
  const build = () =>
    limited(rank(app.name), async () => {
      started = performance.now();
      const dir = await prepareOnce(app);
      const place = buildPlace(dir, work, tarballDist);
      if (app.name === 'vite7-react') await place.exec(await bin(dir, 'tsc'), ['-p', '.']); // the JSX typings, strict
      return { dir, place, output: await app.build(place) };
    });
  let built: ReturnType<typeof build>;
  if (app.folder === 'next') {
    built = nextChain.then(build);
    nextChain = built.catch(() => undefined);
  } else built = build();
  builds.set(app.name, built);
  const { dir, place, output } = await built;
  note(app.name, app.setup, { build: `yes (${Math.round((performance.now() - started) / 1000)} s, ${Math.round(place.cpuSeconds())} s CPU)` });
  expect(await wasmCounts(output, tarballDist)).toEqual({ engine: 1, lab: 1, quickjs: 1 });
  if (app.entry) {
    // CodeMirror's view (it makes the editor contenteditable) loads with the first element, not with the page.
    const entry = await app.entry(output);
    expect(await readFile(entry, 'utf8'), entry).not.toContain('contenteditable');
  }
  note(app.name, app.setup, { assets: app.entry ? 'each .wasm once; no editor in the entry' : 'each .wasm once' });
  const served = await app.serve(dir, output);
  try {
    await drive(expect, { name: app.name, setup: app.setup, api: app.api, base: SUB_PATH }, served.url);
  } finally {
    await served.close();
  }
}

// Everything at once (the limit above keeps it to two builds or dev servers).
describe.concurrent('the consumer matrix', () => {
  describe.concurrent('course pages built with each tool, for production, under a sub-path', () => {
    it.for(APPS)('$name', { timeout: 1_800_000 }, async (app, { expect }) => {
      await buildAndDrive(expect, app);
    });
  });

  describe.concurrent('the Vite apps in their dev servers, with no optimizeDeps set-up', () => {
    const DEV = [
      { name: 'vite5-svelte', base: SUB_PATH },
      { name: 'vite6-vue', base: '/' },
      { name: 'vite7-react', base: SUB_PATH },
      { name: 'vite8', base: '/' },
    ];
    // The same time-out as the builds: a dev server waits its turn behind
    // every production build above (two at a time), and on a loaded machine
    // that wait alone was past 600 s, with the server itself never started.
    it.for(DEV)('$name at $base', { timeout: 1_800_000 }, async ({ name, base }, { expect }) => {
      const app = APPS.find((a) => a.name === name)!;
      // After its production build (they share the folder), or alone.
      await builds.get(name)?.catch(() => undefined);
      const row = `${name} dev ${base}`;
      const setup = `\`vite\` (dev server) at ${base}, dependencies pre-bundled`;
      await limited(HEAVIEST_FIRST.length + 1, async () => {
        const dir = await prepareOnce(app);
        await rm(join(dir, 'node_modules/.vite'), { recursive: true, force: true });
        const port = await freePort();
        const url = `http://127.0.0.1:${port}${base}`;
        const server = await startServer(await bin(dir, 'vite'), ['--host', '127.0.0.1', '--port', String(port), '--strictPort', '--base', base], dir, url);
        try {
          note(row, setup, { build: 'dev', assets: '—' });
          await drive(expect, { name: row, setup, api: app.api, base }, url);
        } finally {
          await server.close();
        }
      });
    });
  });

  describe.concurrent('the package on another origin (a CDN, a course’s asset host)', () => {
    it('starts its workers through same-origin bootstraps: the page on one port, the package on another with CORS', { timeout: 300_000 }, async ({ expect }) => {
      const cdn = await serveStatic(join(tarballDist, '..'), { headers: { 'access-control-allow-origin': '*' } });
      const html = await staticScripts(`${cdn.url}/package/`);
      const root = join(work, 'two-origins');
      await mkdir(join(root, 'course'), { recursive: true });
      await cp(join(CONSUMERS, 'show-api.js'), join(root, 'course/show-api.js'));
      const site = await serveStatic(root, { pages: { '/course/': html } });
      const name = 'two origins';
      const setup = 'the static page on one origin, the package (dist/ as published) on another, with CORS';
      try {
        note(name, setup, { build: '—', assets: '—' });
        await drive(expect, { name, setup, api: APPS[0].api, base: SUB_PATH }, `${site.url}/course/`);
      } finally {
        await site.close();
        await cdn.close();
      }
    });

    it('tries a failed load again: the next call, and the next element, load the engine', { timeout: 120_000 }, async ({ expect }) => {
      const site = await serveStatic(join(tarballDist, '..'), {
        pages: { '/retry.html': '<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body></body>' },
      });
      const page = await browser.newPage();
      const problems = watchProblems(page);
      await listen(page);
      // The network is down until the test says (Emscripten fetches a second time when streaming fails).
      let down = true;
      let refused = 0;
      await page.route('**/engine.wasm', (route) => (down ? (refused++, route.fulfill({ status: 503, body: 'busy' })) : route.continue()));
      const pkg = `${site.url}/package/`;
      // (Strings: Vitest would rewrite an import() written in this file.)
      const load = `import(${JSON.stringify(`${pkg}api/index.js`)}).then(({ loadSlowStart }) => loadSlowStart())`;
      const addElement = (id: string) =>
        page.evaluate(`import(${JSON.stringify(`${pkg}element/slow-start-runner.js`)}).then(() => {
          const el = document.createElement('slow-start-runner');
          el.id = ${JSON.stringify(id)};
          el.setAttribute('autorun', '');
          el.textContent = 'POOL a=1\\nPICK\\n';
          document.body.append(el);
        })`);
      try {
        await page.goto(`${site.url}/retry.html`);
        const first = await page.evaluate(`${load}.then(() => 'loaded', (e) => e.code + ' ' + String(e.url).replace(/^.*\\//, ''))`);
        expect(first).toBe('WASM_LOAD_FAILED engine.wasm');
        // An element added while the network is down says so in the console.
        await addElement('while-down');
        await expect.poll(() => problems.filter((p) => /slowstart: .*engine\.wasm/.test(p)).length).toBeGreaterThan(0);
        expect(refused).toBeGreaterThan(0);
        down = false;
        // Back up: the next call and the next element load it.
        expect(await page.evaluate(`${load}.then((s) => s.run('POOL a=1\\nPICK\\n').output.map((o) => o.text).join(' '))`)).toBe('a');
        await addElement('after');
        await expect.poll(async () => (await events(page, 'slowstart-run')).some((e) => e.id === 'after' && e.lines === 1), { timeout: 60_000 }).toBe(true);
      } finally {
        await page.close();
        await site.close();
      }
    });
  });
});
