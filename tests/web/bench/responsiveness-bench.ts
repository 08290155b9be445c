// How long big input blocks the main thread, in Chromium (a benchmark, not a
// test: it measures and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts tests/web/bench/responsiveness-bench.ts
// For each input it records, from the moment the input arrives until the run
// has been shown (the runner's status says so):
//   - every long task (PerformanceObserver 'longtask', tasks over 50 ms): the
//     longest, and their blocking time (the part of each over 50 ms, summed);
//   - the event-loop lag: a 10 ms timer's worst lateness (what a keystroke
//     would have waited);
//   - the time to the shown result, the JS heap after it, and the peak memory
//     of all of Chromium's processes (PSS, sampled every 100 ms; the worker
//     and the DOM included) over what the open page took before the input.
// Inputs: a 5 MB paste into the page's editor (a valid script of picks, a
// script of rejected lines, a 200-backend fleet, one 5 MB line), and a
// <slow-start-runner src> of 50 MB (picks, and rejected lines), with one of
// 1 KB beside them for what loading the element costs whatever its script.
// Figures go to test-results/responsiveness-bench.json; docs/PERFORMANCE.md
// ("Big input") records one run.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { Browser, Page } from 'playwright-core';
import { it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { traceMainThread } from '../support/main-thread-trace.js';
import { descendantsPss, samplePeakMemory } from '../support/process-memory.js';
import { fleetScript } from '../support/scripts.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SITE = `${ROOT}test-results/bench-responsiveness-site`;
const MB = 1_000_000;

/** Scripts of about `bytes` bytes. */
const INPUTS: Record<string, (bytes: number) => string> = {
  picks: (bytes) => `POOL a=5 b=1 c=1\n${'PICK\n'.repeat(Math.floor(bytes / 5))}`,
  rejected: (bytes) => 'pick\nDOWN nobody\n'.repeat(Math.floor(bytes / 17)),
  fleet: (bytes) => fleetScript(bytes),
  'one line': (bytes) => `POOL a=1\nNOW ${'9'.repeat(bytes)}\nPICK\n`,
};

// Installed before the page's scripts: long tasks, a lag probe, and a mark.
const PROBE = () => {
  const w = window as unknown as { __probe: { longTasks: number[]; lag: number[]; t0: number } };
  w.__probe = { longTasks: [], lag: [], t0: 0 };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.startTime >= w.__probe.t0) w.__probe.longTasks.push(e.duration);
  }).observe({ type: 'longtask', buffered: true });
  let last = performance.now();
  setInterval(() => {
    const now = performance.now();
    if (now >= w.__probe.t0) w.__probe.lag.push(now - last - 10);
    last = now;
  }, 10);
};

async function measure(browser: Browser, page: Page, start: () => Promise<unknown>, done: () => Promise<boolean>) {
  await page.evaluate(() => {
    const w = window as unknown as { __probe?: { longTasks: number[]; lag: number[]; t0: number } };
    if (!w.__probe) return; // about:blank before a navigation: the new page's probe starts at 0
    w.__probe.longTasks = [];
    w.__probe.lag = [];
    w.__probe.t0 = performance.now();
  });
  const base = await descendantsPss();
  const memory = samplePeakMemory();
  const trace = await traceMainThread(browser, page);
  const t0 = Date.now();
  await start();
  while (!(await done())) {
    if (Date.now() - t0 > 240_000) break;
    await page.waitForTimeout(100);
  }
  const elapsed = Date.now() - t0;
  await page.waitForTimeout(300); // the last tasks' entries
  const peakMB = Math.round(((await memory.stop()) - base) / 1e6);
  const tasks = await trace();
  const figures = await page.evaluate((ms) => {
    const p = (window as unknown as { __probe: { longTasks: number[]; lag: number[] } }).__probe;
    const heap = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ?? 0;
    return {
      longestTaskMs: Math.round(Math.max(0, ...p.longTasks)),
      longTasks: p.longTasks.length,
      blockingMs: Math.round(p.longTasks.reduce((s, d) => s + Math.max(0, d - 50), 0)),
      worstLagMs: Math.round(Math.max(0, ...p.lag)),
      shownAfterMs: ms,
      heapMB: Math.round(heap / 1e6),
    };
  }, elapsed);
  return { ...figures, longestTaskCpuMs: tasks.longestCpuMs, longestTaskTracedMs: tasks.longestWallMs, peakMB };
}

const statusSettled = (page: Page, root = 'body') =>
  page.evaluate((sel) => {
    const s = document.querySelector(sel)?.shadowRoot?.querySelector('.ss-status') ?? document.querySelector('.ss-status');
    return /^(Ran:|\d+ rejected line)/.test(s?.textContent ?? '');
  }, root);

it('measures main-thread blocking on big input', async () => {
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir: SITE, emptyOutDir: true } });
  const elementSite = await mkdtemp(join(tmpdir(), 'slowstart-bench-'));
  for (const part of ['element', 'api', 'wasm']) await symlink(join(ROOT, 'dist', part), join(elementSite, part));
  const results: Record<string, unknown> = { date: new Date().toISOString() };
  const pageServer = await serveStatic(SITE);
  const elementServer = await serveStatic(elementSite);
  const browser = await launchChromium();
  try {
    for (const [name, make] of Object.entries(INPUTS)) {
      if (process.env.BENCH_ONLY_ELEMENT) continue;
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(PROBE);
      await page.goto(`${pageServer.url}/`);
      await page.locator('.ss-out-row').first().waitFor();
      await page.evaluate((n) => ((window as unknown as { __text: string }).__text = n), make(5 * MB));
      const before = await page.locator('.ss-status').textContent();
      const r = await measure(
        browser,
        page,
        () =>
          page.evaluate(() => {
            const text = (window as unknown as { __text: string }).__text;
            const content = document.querySelector<HTMLElement>('.cm-content')!;
            content.focus();
            const data = new DataTransfer();
            data.setData('text/plain', text);
            content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
          }),
        async () => (await page.locator('.ss-status').textContent()) !== before && statusSettled(page),
      );
      results[`page: paste 5 MB (${name})`] = r;
      console.log(`page: paste 5 MB (${name})`, r);
      await context.close();
    }
    // The same page with a 1 KB src: what loading the element costs whatever its script.
    const elementCases: [string, string, number][] = [
      ['src of 1 KB (picks)', 'picks', 1000],
      ['src of 50 MB (picks)', 'picks', 50 * MB],
      ['src of 50 MB (rejected)', 'rejected', 50 * MB],
    ];
    // A blank page of the same origin first, so that the element's page loads in the traced process.
    await writeFile(join(elementSite, 'blank.html'), '<!doctype html><title>blank</title>');
    for (const [label, name, bytes] of elementCases) {
      const file = `${name}-${bytes}`;
      await writeFile(join(elementSite, `${file}.txt`), INPUTS[name](bytes));
      await writeFile(
        join(elementSite, `${file}.html`),
        `<!doctype html><meta charset="utf-8"><title>big</title><script type="module" src="element/slow-start-runner.js"></script>` +
          `<slow-start-runner id="big" src="${file}.txt" autorun></slow-start-runner>`,
      );
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.addInitScript(PROBE);
      await page.goto(`${elementServer.url}/blank.html`);
      const r = await measure(browser, page, () => page.goto(`${elementServer.url}/${file}.html`), () => statusSettled(page, '#big'));
      results[`element: ${label}`] = r;
      console.log(`element: ${label}`, r);
      await context.close();
    }
  } finally {
    await browser.close();
    await pageServer.close();
    await elementServer.close();
    await rm(elementSite, { recursive: true, force: true });
  }
  await mkdir(`${ROOT}test-results`, { recursive: true });
  await writeFile(`${ROOT}test-results/responsiveness-bench.json`, JSON.stringify(results, null, 2));
});
