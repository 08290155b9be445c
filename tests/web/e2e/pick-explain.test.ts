// The scores behind every pick, in Chromium on the built page: the timeline
// table's scores, the legend's, and the step-by-step view of the PICK under
// the playhead. Every number is worked by hand from the SPEC (nginx's 5/1/1
// pool and the worked example), never read back from the engine.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite, type OpenOptions } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

const open = (options: OpenOptions = {}) => openRunnerPage(site.browser, site.url, { reducedMotion: true, ...options });

const SEVEN_PICKS = 'POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK\nPICK';
const SPEC_EXAMPLE = 'POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick';
// nginx's 5/1/1 pool: the scores of a, b, c after each of its seven picks.
const AFTER_EACH_PICK = [
  ['−2', '1', '1'],
  ['−4', '2', '2'],
  ['1', '−4', '3'],
  ['−1', '−3', '4'],
  ['4', '−2', '−2'],
  ['2', '−1', '−1'],
  ['0', '0', '0'],
];

/** The pick view's table: one row per backend, its cells' texts. */
function pickRows(page: Page): Promise<string[][]> {
  return page
    .locator('.ss-pe-table tbody tr')
    .evaluateAll((rows) => rows.map((r) => [...r.children].map((c) => c.textContent!.trim())));
}

/** Moves the playhead to a step (0-based) with the slider, as a learner drags it. */
async function seek(page: Page, step: number): Promise<void> {
  await page.locator('.ss-scrub').fill(String(step));
}

describe('the scores behind every pick', () => {
  it("shows each backend's score after every step in the table (nginx's 5/1/1 pool)", async () => {
    const { page, problems } = await open();
    await setScript(page, SEVEN_PICKS);
    await page.locator('.ss-table-details > summary').click();
    const scores = () =>
      page.locator('.ss-table tbody tr').evaluateAll((rows) =>
        rows.map((r) => [...r.querySelectorAll('td.ss-table-s')].map((c) => c.textContent)),
      );
    await expect.poll(scores).toEqual([['0', '0', '0'], ...AFTER_EACH_PICK]);
    // The weights stay 5, 1, 1; the pick column reads a a b a c a a.
    const picks = await page.locator('.ss-table tbody tr td:last-child').allTextContents();
    expect(picks.slice(1).join(' ')).toBe('a a b a c a a');
    expect(await page.locator('.ss-table thead tr:nth-child(2) th').allTextContents()).toEqual([
      'weight', 'score', 'weight', 'score', 'weight', 'score',
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works every PICK of the 5/1/1 pool step by step, and the legend follows', async () => {
    const { page, problems } = await open();
    await setScript(page, SEVEN_PICKS);
    const before = [['0', '0', '0'], ...AFTER_EACH_PICK];
    const winners = 'a a b a c a a'.split(' ');
    // The rows of the first pick's table, marked: the picks after it change them in place (a table
    // built again at every step was a good part of the heaviest frames of a run playing, PL-31).
    const kept = () => page.locator('.ss-pe-table tbody tr').evaluateAll((rows) => rows.map((r) => 'keptFromFirstPick' in r));
    for (let p = 0; p < 7; p++) {
      await seek(page, p + 1);
      await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe(`How the PICK on line ${p + 2} chose ${winners[p]}`);
      if (p === 0) await page.locator('.ss-pe-table tbody tr').evaluateAll((rows) => rows.forEach((r) => Object.assign(r, { keptFromFirstPick: true })));
      else expect(await kept()).toEqual([true, true, true]);
      const rows = await pickRows(page);
      // Backend | Before | + Weight | = Sum | − Total | After
      expect(rows.map((r) => r[1])).toEqual(before[p]);
      expect(rows.map((r) => r[2])).toEqual(['+5', '+1', '+1']);
      expect(rows.map((r) => r[5])).toEqual(AFTER_EACH_PICK[p]);
      // Only the winner gives back the total, 7, and is marked in words.
      const won = rows.findIndex((r) => r[4] !== '');
      expect(rows[won][0]).toBe(`${winners[p]} (wins)`);
      expect(rows[won][4]).toBe('−7');
      expect(rows.filter((r) => r[4] !== '').length).toBe(1);
    }
    // The legend shows the weight and the score at the playhead (after pick 3: a 1, b −4, c 3).
    await seek(page, 3);
    await expect
      .poll(() => page.locator('.ss-legend-weight').allTextContents())
      .toEqual(['w 5 · score 1', 'w 1 · score −4', 'w 1 · score 3']);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('answers "why b, not c?" at the worked example, and shows who takes no part', async () => {
    const { page, problems } = await open();
    await setScript(page, SPEC_EXAMPLE);
    // Line 8 (step 8): a 1, b 3, c 3, d 2 before the winner gives back 9; b wins the tie with c.
    await seek(page, 7);
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 8 chose b');
    expect(await pickRows(page)).toEqual([
      ['a', '−4', '+5', '1', '', '1'],
      ['b (wins)', '2', '+1', '3', '−9', '−6'],
      ['c', '2', '+1', '3', '', '3'],
      ['d', '0', '+2', '2', '', '2'],
    ]);
    const summary = await page.locator('.ss-pe-summary').textContent();
    expect(summary).toContain('b wins with 3, the highest.');
    expect(summary).toContain('c has 3 too: a tie goes to the backend earliest in the pool.');
    expect(summary).toContain('gives back 9');
    // Line 10: a is DOWN and keeps its 1; b −5, c 4, d 4 and c wins the tie with d.
    await seek(page, 9);
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 10 chose c');
    expect(await pickRows(page)).toEqual([
      ['a', '1', 'DOWN: takes no part', '1'],
      ['b', '−6', '+1', '−5', '', '−5'],
      ['c (wins)', '3', '+1', '4', '−4', '0'],
      ['d', '2', '+2', '4', '', '4'],
    ]);
    expect(await page.locator('.ss-pe-summary').textContent()).toContain('d has 4 too');
    // A line that is not a PICK says so, with the scores after it.
    await seek(page, 8);
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('Line 9 is not a PICK');
    expect(await page.locator('.ss-pe-summary').textContent()).toContain('Scores after this line: a 1, b −6, c 3, d 2.');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('is a labelled section and a table a keyboard and a screen reader can use', async () => {
    const { page, problems } = await open();
    await setScript(page, SPEC_EXAMPLE);
    await seek(page, 1);
    const view = page.getByRole('region', { name: 'How the PICK on line 2 chose a' });
    await expect.poll(() => view.count()).toBe(1);
    expect(await page.locator('.ss-pe-table caption').textContent()).toContain('Line 2, clock 0 s');
    expect(await page.locator('.ss-pe-table thead th').allTextContents()).toEqual([
      'Backend', 'Before', '+ Weight', '= Sum', '− Total', 'After',
    ]);
    expect(await page.locator('.ss-pe-table tbody th[scope="row"]').count()).toBe(3);
    // The learner moved the playhead: the answer is read out (politely).
    expect(await page.locator('.ss-pe-summary').getAttribute('aria-live')).toBe('polite');
    // Tab to "Next PICK" and press Enter: the playhead goes to line 3's PICK, then to line 8's.
    const next = page.getByRole('button', { name: 'Next PICK ▸' });
    await next.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 3 chose a');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 8 chose b');
    expect(await page.locator('.ss-readout').textContent()).toContain('line 8');
    await page.getByRole('button', { name: '◂ Previous PICK' }).click();
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 3 chose a');
    // At the last PICK there is no next one.
    await seek(page, 9);
    await expect.poll(() => next.isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says NONE when nobody takes part, and reads in both themes at 1280 and 360 px', async () => {
    for (const [width, dark] of [
      [1280, false],
      [1280, true],
      [360, false],
      [360, true],
    ] as const) {
      const { page, problems } = await open({ width, dark });
      await setScript(page, 'POOL a=2 b=0\nDOWN a\nPICK\nUP a 10\nPICK\nNOW 5\nPICK\nPICK');
      await seek(page, 2);
      await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 3 chose NONE');
      expect(await page.locator('.ss-pe-summary').textContent()).toContain('the answer is NONE and no score changes');
      expect(await pickRows(page)).toEqual([
        ['a', '0', 'DOWN: takes no part', '0'],
        ['b', '0', 'weight 0: takes no part', '0'],
      ]);
      // At 5 s a has weight 1 (2 × 5 / 10) and is alone: it wins and its score stays 0.
      await seek(page, 6);
      await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 7 chose a');
      expect(await page.locator('.ss-pe-summary').textContent()).toContain('the only backend taking part');
      // Nothing in the view is cut off or makes the page scroll sideways.
      const overflow = await page.evaluate(() => {
        const box = document.querySelector('.ss-pe-scroll')!;
        return { page: document.documentElement.scrollWidth - innerWidth, table: box.scrollWidth - box.clientWidth };
      });
      expect(overflow).toEqual({ page: 0, table: 0 });
      await page.locator('.ss-pick-explain').scrollIntoViewIfNeeded();
      await page.locator('.ss-panel-chart').screenshot({ path: `${SHOTS}/pick-explain-${width}-${dark ? 'dark' : 'light'}.png` });
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('follows a playing run when it is in sight, and shows the step the run stopped on when it is not', async () => {
    const { page, problems } = await open({ reducedMotion: false, height: 600 });
    // 200 picks of the 5/1/1 pool: about 15 s of playing.
    await setScript(page, ['POOL a=5 b=1 c=1', ...Array(200).fill('PICK')].join('\n'));
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.playhead.playing)).toBe(true);
    // The view is below the fold of a 1440 × 600 page.
    expect(await page.locator('.ss-pick-explain').evaluate((el) => el.getBoundingClientRect().top > innerHeight)).toBe(true);
    const lineOf = (text: string | null) => Number(/line (\d+)/.exec(text ?? '')?.[1] ?? -1);
    const readoutLine = async () => lineOf(await page.locator('.ss-readout').textContent());
    const titleLine = async () => lineOf(await page.locator('.ss-pe-title').textContent());
    // Some way into the run (the readout past line 10), the view still out of sight.
    await expect.poll(readoutLine).toBeGreaterThan(10);
    // Paused off screen: the view shows the PICK the playhead stopped on (line 2 holds the first PICK).
    await page.locator('.ss-transport button[aria-label="Pause"]').click();
    const stopped = await readoutLine();
    expect(stopped).toBeGreaterThan(2);
    expect(await titleLine()).toBe(stopped);
    // Playing again with the view in sight: it follows (ten times a second), close behind the playhead.
    await page.locator('.ss-transport button[aria-label="Play"]').click();
    await page.locator('.ss-pick-explain').evaluate((el) => el.scrollIntoView({ block: 'end' }));
    await expect.poll(titleLine).toBeGreaterThan(stopped);
    const [shown, at] = [await titleLine(), await readoutLine()];
    expect(at - shown).toBeGreaterThanOrEqual(0);
    expect(at - shown).toBeLessThan(20);
    await expect.poll(titleLine).toBeGreaterThan(shown);
    expect(problems).toEqual([]);
    await page.close();
  });
});
