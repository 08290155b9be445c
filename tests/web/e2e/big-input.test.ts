// Big input keeps the page responsive, in Chromium: a big paste goes into
// the editor piece by piece (one undo step), a big script runs in a worker
// with a progress bar and Stop, the editor marks at most 500 rejected lines
// and says how many more there are, and a script too big to edit (the
// element's 50 MB src) is shown read-only and still runs in full. Outputs are
// worked by hand: POOL a=5 b=1 c=1 picks a b a c a a a, again and again
// (5/1/1 smooth WRR has period 7: a a b a c a a).
//
// How long the main thread is blocked is measured by the benchmark
// (tests/web/bench/responsiveness-bench.ts, figures in docs/PERFORMANCE.md).
// Here a bound on the CPU time of the page's longest task (from a Chromium
// trace: unlike the clock, it does not grow when other work on the machine
// delays the page; on an idle machine the two are about the same) guards
// the goal of no task over ~100 ms: before, the 5 MB paste took 0.5–2.2 s of
// CPU in one task and the 50 MB src more; now the longest takes 40–90 ms.
// The bound is on the tasks that run the page's JavaScript; the browser's own
// (its loader copying the 50 MB body out of its pipe) get a looser one: on a
// machine whose fresh memory is slow to touch (main-thread-trace.ts) they
// took 0.08–0.24 s of CPU with no page code in them, however it was read.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { buildSite, PAGE_CSP, SHOTS } from '../support/site.js';
import { CPU_BOUND_TEST, expectTasksWithin, taskFigures, traceMainThread, type MainThreadTasks } from '../support/main-thread-trace.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { checkBuilt, linkElement } from './element-site.js';

let pageServer: StaticServer;
let elementServer: StaticServer;
let elementSite: string;
let browser: Browser;

const PICKS = 'a a b a c a a'.split(' ');
const picksScript = (n: number) => `POOL a=5 b=1 c=1\n${'PICK\n'.repeat(n)}`;

beforeAll(async () => {
  checkBuilt();
  const site = await buildSite();
  pageServer = await serveStatic(site, { headers: { 'content-security-policy': PAGE_CSP } });
  elementSite = await mkdtemp(join(tmpdir(), 'slowstart-big-'));
  await linkElement(elementSite);
  await writeFile(join(elementSite, 'big.txt'), picksScript(10_000_000)); // 50 MB
  await writeFile(join(elementSite, 'blank.html'), '<!doctype html><html lang="en"><title>blank</title><link rel="icon" href="data:,">');
  await writeFile(
    join(elementSite, 'big.html'),
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>A 50 MB script</title><link rel="icon" href="data:,">' +
      '<script type="module" src="element/slow-start-runner.js"></script>' +
      '<slow-start-runner id="big" src="big.txt" autorun></slow-start-runner></html>',
  );
  elementServer = await serveStatic(elementSite, { headers: { 'content-security-policy': "script-src 'self' 'wasm-unsafe-eval'" } });
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await pageServer?.close();
  await elementServer?.close();
  if (elementSite) await rm(elementSite, { recursive: true, force: true });
});

/**
 * No task of the page's main thread may use more CPU than 2.5 calibration tasks of the same trace
 * (main-thread-trace.ts; the goal is ~100 ms, some room for a slow garbage collection), the
 * browser's own (its loader copying the 50 MB body) than 6. It was 150 ms and 400 ms, which a
 * loaded machine (CI runs three files at once on two cores) can break with no change to the page.
 */
const RESPONSIVE = { script: 2.5, native: 6 };
function expectResponsive(tasks: MainThreadTasks): void {
  console.log(`big input: ${taskFigures(tasks)}`);
  expectTasksWithin(tasks, RESPONSIVE);
}
/**
 * CodeMirror's own warnings when its measure loop gives up for one frame (it measures again in
 * the next). A document over about 7 million pixels tall (some 320,000 lines here) is drawn
 * scaled, and a jump far into it (the playhead's line at the end, the output's last row) can
 * take CodeMirror more than six measure passes to settle; its selection layers (drawSelection)
 * ask for one more pass at each change of geometry. Measured in Chromium on a 1,000,001-line
 * script, 300 random jumps each: CodeMirror with no extensions 2-3 warnings, with drawSelection
 * alone 59, the page's editor 62-89; the same with @codemirror/view 6.44.2. The rows and the
 * undo below are checked after them. CI saw them in the test below; every other warning still
 * fails it.
 */
const CODEMIRROR_GAVE_UP = new Set(['console warning: Measure loop restarted more than 5 times', 'console warning: Viewport failed to stabilize']);
const pageProblems = (problems: string[]) => problems.filter((p) => !CODEMIRROR_GAVE_UP.has(p));
const runWorkers = (page: Page) => page.workers().filter((w) => /run-worker/.test(w.url())).length;

async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, reducedMotion: 'reduce' });
  const problems = watchProblems(page);
  await page.goto(`${pageServer.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  return { page, problems };
}

/**
 * Pastes `head` + `unit` × `count` into the page's editor as the browser
 * would (a paste event with the clipboard's text). Returns how much of the
 * text the editor holds when the paste event is over, and the text's length.
 */
function paste(page: Page, head: string, unit: string, count: number): Promise<{ inAtOnce: number; length: number }> {
  return page.evaluate(
    ([h, u, n]) => {
      const text = h + u.repeat(n); // built in the page: no megabytes over the wire
      const content = document.querySelector<HTMLElement>('.cm-content')!;
      content.focus();
      const data = new DataTransfer();
      data.setData('text/plain', text);
      content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      return { inAtOnce: window.slowstartRunner!.editor.view.state.doc.length, length: text.length };
    },
    [head, unit, count] as const,
  );
}

/** The output list scrolled to its end: the last row's position, line and text, once the row numbered `count` is drawn. */
async function lastRow(root: Page | import('playwright-core').Locator, count: number): Promise<[string | null, string | null, string | null]> {
  const output = root.locator('.ss-output');
  await output.evaluate((el) => {
    el.scrollTop = el.scrollHeight;
    el.dispatchEvent(new Event('scroll'));
  });
  const row = output.locator(`.ss-out-row[aria-posinset="${count}"]:not([hidden])`);
  await row.waitFor();
  return [await row.getAttribute('aria-posinset'), await row.locator('.ss-out-line').textContent(), await row.locator('.ss-out-text').textContent()];
}

const status = (page: Page) => page.locator('.ss-status').textContent();

describe('big input on the runner page', () => {
  it('a 5 MB paste: in piece by piece, run in the worker with progress, the output in full, one undo step, the page responsive', CPU_BOUND_TEST, async () => {
    const { page, problems } = await openPage();
    const before = await page.evaluate(() => window.slowstartRunner!.script);
    await page.evaluate(() => window.slowstartRunner!.editor.view.dispatch({ selection: { anchor: 0, head: window.slowstartRunner!.editor.view.state.doc.length } }));
    const tasks = await traceMainThread(browser, page);
    const { inAtOnce, length } = await paste(page, 'POOL a=5 b=1 c=1\n', 'PICK\n', 1_000_000);
    // Piece by piece: the paste event itself put in about 32 KB (a piece ends at a line end), the rest came task by task.
    expect(inAtOnce).toBeGreaterThan(0);
    expect(inAtOnce).toBeLessThan(40_000);
    expect(length).toBe(17 + 5_000_000);
    // Progress shows while it goes, with the previous run's views dimmed and said to be that; then the result: a million picks.
    await page.locator('.ss-run-progress').waitFor({ timeout: 120_000 }); // the paste goes in first: 160 tasks, slow on a loaded machine
    expect(await page.locator('.ss-runner.ss-bg-running').count()).toBe(1);
    expect(await status(page)).toBe('Running in the background; until it ends, the output and the chart show the previous run.');
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe('Ran: 1,000,000 output lines, no problems.');
    expect(await page.locator('.ss-run-progress').isHidden()).toBe(true);
    expect(await page.locator('.ss-runner.ss-bg-running').count()).toBe(0);
    expectResponsive(await tasks());
    expect(runWorkers(page)).toBe(1); // kept for the next run: its engine stayed under 256 MB
    expect(await page.evaluate(() => window.slowstartRunner!.editor.lineCount)).toBe(1_000_002);
    expect(await page.locator('.ss-panel-output .ss-panel-meta').textContent()).toBe('1,000,000 lines');
    // The rows drawn and the last one, worked by hand (period 7): row k is pick k. (Which rows
    // are drawn follows the playhead, at the last step the chart keeps: read their numbers.)
    const drawn = await page
      .locator('.ss-out-row:not([hidden])')
      .evaluateAll((rows) => rows.map((r) => [Number(r.getAttribute('aria-posinset')), r.querySelector('.ss-out-text')!.textContent] as const));
    expect(drawn.length).toBeGreaterThanOrEqual(7);
    expect(drawn.map(([, text]) => text)).toEqual(drawn.map(([k]) => PICKS[(k - 1) % 7]));
    expect(await lastRow(page, 1_000_000)).toEqual(['1000000', '1000001', PICKS[(1_000_000 - 1) % 7]]);
    // One undo step brings the script from before the paste back.
    await page.locator('.cm-content').press('ControlOrMeta+z');
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script), { timeout: 30_000 }).toBe(before);
    expect(pageProblems(problems)).toEqual([]);
    await page.close();
  });

  it('many rejected lines: the editor marks the first 500 and says how many more; the status counts them all', async () => {
    const { page, problems } = await openPage();
    await page.evaluate(() => window.slowstartRunner!.setScript('pick\n'.repeat(30_000)));
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe("30,000 rejected lines · line 1: unknown command 'pick' (use PICK)");
    expect(await page.locator('.ss-marks-note').textContent()).toBe(
      'The editor marks the first 500 rejected lines; 29,500 more are not marked (the output and the status still count them all).',
    );
    await page.getByRole('button', { name: 'Show problems' }).click();
    expect(await page.locator('.cm-panel-lint li').count()).toBe(500);
    // Back to a small script: the note goes.
    await page.evaluate(() => window.slowstartRunner!.setScript('pick\nPICK\n'));
    await expect.poll(() => page.locator('.ss-marks-note').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('a script set while a big one is still going into the editor replaces it once it is in', async () => {
    const { page, problems } = await openPage();
    const outcome = await page.evaluate(() => {
      const runner = window.slowstartRunner!;
      runner.setScript(`POOL a=1\n${'PICK\n'.repeat(200_000)}`); // 1 MB: goes in piece by piece
      const first = runner.editor.view.state.doc.length;
      runner.setScript('POOL x=2 y=1\nPICK\nPICK\n'); // before the big one is in
      return { first };
    });
    expect(outcome.first).toBeLessThan(40_000); // only the first piece was in when the next script came
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script), { timeout: 60_000 }).toBe('POOL x=2 y=1\nPICK\nPICK\n');
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe('Ran: 2 output lines, no problems.');
    expect(await page.locator('.ss-out-row:not([hidden]) .ss-out-text').allTextContents()).toEqual(['x', 'y']);
    // The big script was never run: it was replaced before it was all in.
    expect(runWorkers(page)).toBe(0);
    expect(await page.evaluate(() => window.slowstartRunner!.editor.view.state.doc.toString())).toBe('POOL x=2 y=1\nPICK\nPICK\n');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Stop ends a background run at once, leaves the page usable and says so; Run runs it again', async () => {
    const { page, problems } = await openPage();
    const starterRows = await page.locator('.ss-out-row:not([hidden]) .ss-out-text').allTextContents();
    // A 100,000-backend pool printed 4,000 times: seconds of engine work in the worker (a 1 MB script).
    await page.evaluate(() =>
      window.slowstartRunner!.setScript(`POOL ${Array.from({ length: 100_000 }, (_, i) => `b${i}=1`).join(' ')}\n${'WEIGHTS\n'.repeat(4000)}`),
    );
    await page.locator('.ss-run-progress-text', { hasText: /^Running… \d+\.\d s$/ }).waitFor({ timeout: 60_000 });
    await page.locator('.ss-run-progress').screenshot({ path: `${SHOTS}/page-run-progress.png` });
    await page.getByRole('button', { name: 'Stop' }).click();
    const stopped = 'Stopped before the end: the output and the chart show the previous run. Press Run to run the script again.';
    expect(await status(page)).toBe(stopped);
    expect(await page.locator('.ss-run-progress').isHidden()).toBe(true);
    expect(await page.locator('.ss-runner.ss-bg-running').count()).toBe(0);
    await expect.poll(() => runWorkers(page), { timeout: 10_000 }).toBe(0);
    // The starter's run is still what the views show.
    expect(starterRows.length).toBeGreaterThan(0);
    expect(await page.locator('.ss-out-row:not([hidden]) .ss-out-text').allTextContents()).toEqual(starterRows);
    // Run runs it again (in a new worker), and Stop stops that one too.
    await page.getByRole('button', { name: /^Run/ }).click();
    await page.locator('.ss-run-progress-text', { hasText: /^Running… / }).waitFor({ timeout: 60_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(await status(page)).toBe(stopped);
    // The page still works: a small script runs at once.
    await page.evaluate(() => window.slowstartRunner!.setScript('POOL x=1\nPICK\n'));
    await expect.poll(() => status(page)).toBe('Ran: 1 output line, no problems.');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a 50 MB script in <slow-start-runner src>', () => {
  it('is shown read-only with a note, runs in full in the worker, and the page stays responsive and small', CPU_BOUND_TEST, async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, reducedMotion: 'reduce' });
    const problems = watchProblems(page);
    // A page of the same origin first, so that the element's page loads in the traced renderer.
    await page.goto(`${elementServer.url}/blank.html`);
    const tasks = await traceMainThread(browser, page);
    await page.goto(`${elementServer.url}/big.html`);
    const host = page.locator('#big');
    // Progress while it runs (nothing was shown before it: no "previous run" to speak of).
    await host.locator('.ss-run-progress-text', { hasText: /^(Reading the script|Running)… \d+\.\d s$/ }).waitFor({ timeout: 120_000 });
    expect(await host.locator('.ss-status').textContent()).toBe('Running in the background…');
    await expect.poll(() => host.locator('.ss-status').textContent(), { timeout: 180_000 }).toBe('Ran: 10,000,000 output lines, no problems.');
    expectResponsive(await tasks());
    // Its engine grew past 256 MB: the worker is ended, and the memory with it.
    await expect.poll(() => runWorkers(page), { timeout: 10_000 }).toBe(0);
    expect(await host.locator('.ss-preview-note').textContent()).toBe(
      'This script is 47.7 MB: too big to edit here. The editor shows its first 1.0 MB, read-only; the script runs in full. Download it to edit it in a text editor, or load a smaller one.',
    );
    expect(await host.locator('.ss-panel-output .ss-panel-meta').textContent()).toBe('10,000,000 lines');
    expect(await host.evaluate((el) => (el as HTMLElement & { script: string }).script.length)).toBe(17 + 5 * 10_000_000);
    // Read-only: typing changes nothing.
    await host.locator('.cm-content').click();
    await page.keyboard.type('PICK');
    expect(await host.evaluate((el) => (el as HTMLElement & { script: string }).script.length)).toBe(17 + 5 * 10_000_000);
    // The last output line (script line 10,000,001), worked by hand.
    expect(await lastRow(host, 10_000_000)).toEqual(['10000000', '10000001', PICKS[(10_000_000 - 1) % 7]]);
    expect(await host.evaluate((el) => (el as HTMLElement & { result: { output: unknown[] } }).result.output[9_999_999])).toEqual({
      line: 10_000_001,
      text: PICKS[(10_000_000 - 1) % 7],
    });
    const heap = await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    expect(heap).toBeLessThan(600e6); // it was 1.0-1.5 GB
    await host.screenshot({ path: `${SHOTS}/element-50mb.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
