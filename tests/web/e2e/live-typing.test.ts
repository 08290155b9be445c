// The runner page as a learner types (issue 34), in Chromium against the
// production build: the line being typed is not called wrong until it is
// complete (typing "ADD " never turns the status red), while a problem on
// another line is said at once; the wait before a live re-run follows what
// the last run cost; and an edit redraws only what it changed in the chart
// and the legend (their DOM nodes are kept, only changed attributes move).
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunnerPage, outputRows, setScript, serveBuiltSite, type BuiltSite } from '../support/runner-page.js';

let site: BuiltSite;
let browser: Browser;

beforeAll(async () => {
  site = await serveBuiltSite();
  browser = site.browser;
});

afterAll(() => site?.close());

const status = (page: Page) => page.locator('.ss-status');
const red = (page: Page) => status(page).evaluate((e) => e.classList.contains('ss-status-problem'));
const marks = (page: Page) => page.locator('.cm-lintRange-error');

/** Every status the page shows from now on, in order, with whether it was red. */
async function recordStatuses(page: Page): Promise<() => Promise<{ text: string; red: boolean }[]>> {
  await status(page).evaluate((el) => {
    const seen: { text: string; red: boolean }[] = [];
    (window as unknown as { statuses: typeof seen }).statuses = seen;
    new MutationObserver(() => seen.push({ text: el.textContent ?? '', red: el.classList.contains('ss-status-problem') })).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
      attributes: true,
    });
  });
  return () => page.evaluate(() => (window as unknown as { statuses: { text: string; red: boolean }[] }).statuses);
}

/** Resolves once no run goes in the background. */
const idle = (page: Page) => page.waitForFunction(() => !document.querySelector('.ss-bg-running'));

describe('typing in the runner', () => {
  it('does not call the line being typed wrong: "ADD " stays not red; another line’s problem is said at once; leaving the line or pausing judges it', async () => {
    const { page, problems } = await openRunnerPage(browser, site.url, { reducedMotion: true });
    await setScript(page, 'POOL a=1 b=2\nPICK\n');
    await expect.poll(() => outputRows(page)).toEqual(['2: b']);
    const statuses = await recordStatuses(page);
    // The learner adds a line at the end and types "ADD " key by key (a problem at every keystroke).
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('ADD ', { delay: 40 });
    await expect.poll(() => statuses().then((s) => s.some((x) => x.text.startsWith('Typing line 3')))).toBe(true);
    expect((await statuses()).filter((s) => s.red)).toEqual([]);
    expect(await marks(page).count()).toBe(0);
    // Still typing: "c=5 10" completes the line; it runs without a word of blame.
    await page.keyboard.type('c=5 10', { delay: 40 });
    await expect.poll(() => status(page).textContent()).toBe('Ran: 1 output line, no problems.');
    expect((await statuses()).filter((s) => s.red)).toEqual([]);

    // A problem on another line is said while a line is being typed.
    await page.keyboard.press('ControlOrMeta+Home');
    await page.keyboard.press('End');
    await page.keyboard.type(' x'); // line 1: "POOL a=1 b=2 x" (x has no weight)
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.press('Enter');
    await page.keyboard.type('NOW ');
    await expect.poll(() => status(page).textContent()).toMatch(/^1 rejected line · line 1: /);
    expect(await red(page)).toBe(true);
    expect(await marks(page).count()).toBe(1); // line 1's; line 5 ("NOW ") is not judged yet
    // Leaving line 5 judges it.
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => marks(page).count()).toBe(2);
    await expect.poll(() => status(page).textContent()).toMatch(/^2 rejected lines · line 1: /);
    // Back on it and typing: held again; then a pause (HOLD_MS) judges it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('End');
    await page.keyboard.type('x');
    await expect.poll(() => marks(page).count()).toBe(1);
    await expect.poll(() => marks(page).count(), { timeout: 15_000 }).toBe(2);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('waits after a keystroke half as long as the last run cost the page (at most 400 ms), not a fixed 150 ms', async () => {
    const { page, problems } = await openRunnerPage(browser, site.url, { reducedMotion: true });
    const wait = () =>
      page.evaluate(() => {
        const r = window.slowstartRunner! as unknown as { liveWaitMs: number; lastTimings: { run: number; render: number } };
        return { wait: r.liveWaitMs, cost: r.lastTimings.run + r.lastTimings.render };
      });
    await setScript(page, 'POOL a=1 b=2\nPICK\n');
    await expect.poll(() => outputRows(page)).toEqual(['2: b']);
    const small = await wait();
    expect(small.wait).toBeCloseTo(Math.min(400, small.cost / 2), 6);
    // A script 300 times longer costs more, and its wait follows.
    await setScript(page, `POOL a=1 b=2\n${'PICK\n'.repeat(30_000)}`);
    await page.waitForFunction(() => window.slowstartRunner!.output.length === 30_000, undefined, { timeout: 60_000 });
    await idle(page);
    const big = await wait();
    expect(big.wait).toBeCloseTo(Math.min(400, big.cost / 2), 6);
    expect(big.wait).toBeGreaterThan(small.wait);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('redraws only what an edit changed: the chart’s lines and ticks and the legend’s items are kept; a comment changes nothing in them', async () => {
    const { page, problems } = await openRunnerPage(browser, site.url, { reducedMotion: true });
    await setScript(page, 'POOL a=4 b=1\nADD c=6 20\nPICK\nNOW 10\nWEIGHTS\nPICK\nPICK\n');
    await expect.poll(() => outputRows(page)).toEqual(['3: a', '5: a=4 b=1 c=3', '6: a', '7: c']);
    // Keep hold of the chart's lines and pick ticks and the legend's items, then record what an edit does to them.
    await page.evaluate(() => {
      const w = window as unknown as { mutations: MutationRecord[]; held: Element[]; d: (string | null)[] };
      w.held = [...document.querySelectorAll('.ss-plot .ss-series path, .ss-plot .ss-lane-picks path, .ss-legend > li')];
      w.d = w.held.map((e) => e.getAttribute('d'));
      w.mutations = [];
      const observer = new MutationObserver((records) => w.mutations.push(...records));
      for (const root of [document.querySelector('.ss-plot')!, document.querySelector('.ss-legend')!]) {
        observer.observe(root, { subtree: true, childList: true, attributes: true, characterData: true });
      }
    });
    const mutated = () => page.evaluate(() => (window as unknown as { mutations: MutationRecord[] }).mutations.length);
    const held = () =>
      page.evaluate(() => {
        const w = window as unknown as { held: Element[]; d: (string | null)[] };
        const now = [...document.querySelectorAll('.ss-plot .ss-series path, .ss-plot .ss-lane-picks path, .ss-legend > li')];
        return { same: now.length === w.held.length && now.every((e, i) => e === w.held[i]), changedD: w.held.filter((e, i) => e.getAttribute('d') !== w.d[i]).length };
      });
    expect((await held()).same).toBe(true);
    // A comment line: the same output, chart and counts: nothing in them is touched.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.type('# a note');
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script.endsWith('# a note'))).toBe(true);
    await expect.poll(() => status(page).textContent()).toMatch(/^Ran: 4 output lines/);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r))));
    expect(await mutated()).toBe(0);
    // A later clock: c's weight and the x axis change; the lines and ticks are the same nodes, redrawn in place.
    await page.locator('.cm-line', { hasText: 'NOW 10' }).click();
    await page.keyboard.press('End');
    await page.keyboard.type('5'); // NOW 105: c is at its full 6
    await expect.poll(() => outputRows(page)).toEqual(['3: a', '5: a=4 b=1 c=6', '6: c', '7: a']);
    expect(await mutated()).toBeGreaterThan(0);
    const after = await held();
    expect(after.same).toBe(true);
    expect(after.changedD).toBeGreaterThan(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the legend’s counts right through edits: the same items when the backends are the same, NONE added when it first answers', async () => {
    const { page, problems } = await openRunnerPage(browser, site.url, { reducedMotion: true });
    const legend = () => page.locator('.ss-legend > li').evaluateAll((items) => items.map((li) => `${li.querySelector('.ss-legend-name')?.textContent}: ${li.querySelector('.ss-legend-picks')?.textContent}`));
    // a=1 b=1: a, b, a (smooth WRR alternates, the earlier backend first on a tie).
    await setScript(page, 'POOL a=1 b=1\nPICK\nPICK\nPICK\n');
    await expect.poll(legend).toEqual(['a: 2 picks · 67%', 'b: 1 pick · 33%']);
    await page.evaluate(() => {
      (window as unknown as { items: Element[] }).items = [...document.querySelectorAll('.ss-legend > li')];
    });
    const sameItems = () =>
      page.evaluate(() => {
        const held = (window as unknown as { items: Element[] }).items;
        const now = [...document.querySelectorAll('.ss-legend > li')];
        return now.length === held.length && now.every((e, i) => e === held[i]);
      });
    // A fourth pick (b): the counts change, the items are the same nodes.
    await setScript(page, 'POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\n');
    await expect.poll(legend).toEqual(['a: 2 picks · 50%', 'b: 2 picks · 50%']);
    expect(await sameItems()).toBe(true);
    // Everyone DOWN: a PICK answers NONE, which gets an item of its own.
    await setScript(page, 'POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\nDOWN a\nDOWN b\nPICK\n');
    await expect.poll(legend).toEqual(['a: 2 picks · 40%', 'b: 2 picks · 40%', 'NONE: 1 pick · 20%']);
    expect(problems).toEqual([]);
    await page.close();
  });
});
