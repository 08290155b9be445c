// A 100,000-backend POOL on one line (900 KB), pasted into the page as a
// learner would, in Chromium: the page stays live (no task of the page's
// JavaScript over 3 calibration tasks of CPU, from a trace; see LIVE), the
// editor shows the line cut with a marker, and the pick panel reaches every
// PICK, showing the highest sums and saying how many rows it leaves out.
// A WEIGHTS at the end prints a 1.1 MB output line (a 1 MB line of another
// kind, in the output view).
// Before: one 25.8 s task (the editor laying out the wrapped line), the
// timeline cut after the POOL line, "This script has no PICK".
//
// Worked by hand: 100,000 backends of weight 1, scores 0. Each PICK, every
// backend adds 1; the highest sum is shared by all who have not won yet,
// and a tie goes to the earliest in the pool: PICK k chooses b(k−1), which
// gives back the total, 100,000. Before PICK 9, b0…b7 have won (−99,999 +
// 8 − 1 − … each way below), b8…b99999 have 8: b8 wins with 9, tied with
// the 99,991 others that have 9, and ends at 9 − 100,000 = −99,991.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CPU_BOUND_TEST, expectTasksWithin, taskFigures, traceMainThread } from '../support/main-thread-trace.js';
import { openRunnerPage, serveBuiltSite, type BuiltSite } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

/**
 * Clicks output row `k`. A run leaves the output scrolled to its last row (here a 726 px WEIGHTS
 * line), and the list draws only the rows in view, recycling their elements when it redraws after
 * a scroll: so scroll to the top and wait for the list to have drawn the rows there (row 1 at the
 * top, row k in view) before clicking, or the click goes to whichever row the clicked element
 * holds after the redraw (it was line 7's).
 */
async function clickOutputRow(page: Page, k: number): Promise<void> {
  await page.locator('.ss-output').evaluate((list) => (list.scrollTop = 0));
  await expect
    .poll(() =>
      page.evaluate((k) => {
        const list = document.querySelector('.ss-output')!.getBoundingClientRect();
        const at = (n: number) => document.querySelector(`.ss-out-row[aria-posinset="${n}"]:not([hidden])`)?.getBoundingClientRect();
        const [first, row] = [at(1), at(k)];
        return !!first && !!row && first.top === list.top && row.bottom <= list.bottom;
      }, k),
    )
    .toBe(true);
  await page.locator(`.ss-out-row[aria-posinset="${k}"]:not([hidden])`).click();
}

/**
 * Clicks the ninth output row (the last PICK, on `line`) and checks the pick panel, worked by hand
 * (see the top): b8 wins with 9, tied with the 99,991 others that have 9, and the legend.
 */
async function expectLastPick(page: Page, line: number): Promise<void> {
  await clickOutputRow(page, 9);
  await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe(`How the PICK on line ${line} chose b8`);
  const others = Array.from({ length: 11 }, (_, i) => `b${9 + i}`).join(', ');
  expect(await page.locator('.ss-pe-summary').textContent()).toBe(
    `Each backend taking part adds its weight to its score. b8 wins with 9, the highest. ${others} and 99,980 more have 9 too: ` +
      'a tie goes to the backend earliest in the pool. It then gives back 100,000, the total of the weights.',
  );
  const rows = await page.locator('.ss-pe-table tbody tr').evaluateAll((trs) => trs.map((r) => [...r.children].map((c) => c.textContent)));
  expect(rows.length).toBe(12);
  expect(rows[0]).toEqual(['b8 (wins)', '8', '+1', '9', '−100,000', '−99,991']);
  expect(rows[11]).toEqual(['b19', '8', '+1', '9', '', '9']);
  expect(await page.locator('.ss-pe-hidden').textContent()).toBe('99,988 more rows are not shown (99,988 of them take part, 0 take no part).');
  // Every PICK is on the chart's lane, and the legend counts the backends it does not list.
  expect(await page.locator('.ss-legend-more').textContent()).toBe('and 99,940 more backends (see the Table)');
}

/** Pastes `text` over the whole script, as a learner would. */
async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((text) => {
    const view = window.slowstartRunner!.editor.view;
    view.dispatch({ selection: { anchor: 0, head: view.state.doc.length } });
    const content = document.querySelector<HTMLElement>('.cm-content')!;
    content.focus();
    const data = new DataTransfer();
    data.setData('text/plain', text);
    content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

const N = 100_000;
/**
 * The page stays live: its longest task that runs its JavaScript takes under 3 calibration tasks
 * of CPU (main-thread-trace.ts: the same trace's fixed piece of JavaScript), the browser's own
 * under 6. Measured on the 2-core VM under load 25-40: 0.7-1.6 calibrations (185-310 ms of CPU,
 * the calibration 160-310 ms); with the output's rows drawn uncut (the 1.1 MB WEIGHTS line laid
 * out whole) 4.5-4.8. It was a bound of 200 ms, which CI's loaded run broke with 280-355 ms.
 */
const LIVE = { script: 3, native: 6 };
const poolLine = `POOL ${Array.from({ length: N }, (_, i) => `b${i}=1`).join(' ')}`;

describe('a 100,000-backend POOL line', () => {
  it('keeps the page live, shows the line cut, and reaches every PICK in the pick panel', CPU_BOUND_TEST, async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, height: 900, reducedMotion: true });
    const tasks = await traceMainThread(site.browser, page);
    await paste(page, `POOL ${Array.from({ length: N }, (_, i) => `b${i}=1`).join(' ')}\n${'PICK\n'.repeat(9)}WEIGHTS\n`);
    const status = page.locator('.ss-status');
    await expect.poll(() => status.textContent(), { timeout: 60_000 }).toBe('Ran: 10 output lines, no problems.');
    const trace = await tasks();
    expectTasksWithin(trace, LIVE);
    // The editor shows the first 1,000 characters of the line and a marker for the rest.
    expect(await page.locator('.ss-long-tail').textContent()).toBe(
      ` … ${(poolLine.length - 1000).toLocaleString('en-US')} more characters on this line are not shown (they are kept and run)`,
    );
    expect(await page.evaluate(() => window.slowstartRunner!.script.length)).toBe(poolLine.length + 1 + 45 + 8);
    await expectLastPick(page, 10);
    // Previous PICK walks back to the first: b0 wins, the only line not cut off.
    for (let k = 0; k < 8; k++) await page.getByRole('button', { name: '◂ Previous PICK' }).click();
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 2 chose b0');
    // The page stays a page: no sentence with 100,000 names in it.
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(2400);
    const heap = await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    console.log(`huge pool: ${taskFigures(trace)}; heap ${(heap / 1e6).toFixed(0)} MB`);
    expect(heap).toBeLessThan(250e6);
    await page.screenshot({ path: `${SHOTS}/huge-pool.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a pool of 100,000 built by 100,000 ADD lines', () => {
  // The same pool line by line: ADD b<i>=1 0 on lines 1-100,000, PICKs on 100,001-100,009,
  // WEIGHTS on 100,010. Worked by hand as above (PICK k chooses b(k-1)). Before: the timeline
  // stopped at line 2,827 (the engine's 4,000,000 states), before any PICK.
  it('reaches every PICK in the pick panel, the legend and the table, with bounded memory', CPU_BOUND_TEST, async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, height: 900, reducedMotion: true });
    const tasks = await traceMainThread(site.browser, page);
    await paste(page, `${Array.from({ length: N }, (_, i) => `ADD b${i}=1 0`).join('\n')}\n${'PICK\n'.repeat(9)}WEIGHTS\n`);
    await expect.poll(() => page.locator('.ss-status').textContent(), { timeout: 60_000 }).toBe('Ran: 10 output lines, no problems.');
    const trace = await tasks();
    expectTasksWithin(trace, LIVE);
    // The chart says what it draws, and nothing says it stopped early (it said so at line 2,827).
    expect(await page.locator('.ss-chart-note').allTextContents()).toEqual(['The chart shows the first 60 of 100,000 backends.']);
    await expectLastPick(page, 100_009);
    // The Table has the last step, the WEIGHTS line, with b8's score after its pick.
    await page.locator('.ss-table-details > summary').click();
    const lastRow = page.locator('.ss-table-details tbody tr').last();
    expect(await lastRow.locator('td').first().textContent()).toBe('100010');
    for (let k = 0; k < 8; k++) await page.getByRole('button', { name: '◂ Previous PICK' }).click();
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 100001 chose b0');
    expect(await page.locator('.ss-pe-summary').textContent()).toContain('b0 wins with 1, the highest.');
    const heap = await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    console.log(`100,000 ADD lines: ${taskFigures(trace)}; heap ${(heap / 1e6).toFixed(0)} MB`);
    expect(heap).toBeLessThan(250e6);
    await page.screenshot({ path: `${SHOTS}/huge-pool-adds.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
