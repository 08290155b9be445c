// Smaller things of the runner (#34 item 4), the BUILT page in Chromium:
// the Table's pinned Pick column covers no score column; the pick table's
// winner reads "web3 (wins)", not "web3wins"; the chart tabs' region has a
// name; the problems list shows whole items; numbers the page writes are
// thousands-separated like the Traffic tab's ("1,536"), while the output
// stays the engine's bytes.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../support/browser.js';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

const status = (page: Page) => page.locator('.ss-status').textContent();

describe('the Table', () => {
  it('pins the Pick column without covering the last score column, scrolled either way', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, reducedMotion: true });
    await setScript(page, `POOL ${Array.from({ length: 8 }, (_, i) => `backend${i}=${i + 1}`).join(' ')}\nPICK\nPICK\nPICK\n`);
    await expect.poll(() => status(page)).toBe('Ran: 3 output lines, no problems.');
    await page.locator('.ss-table-details > summary').click();
    // The table is built on the details' toggle event, a task after the click.
    await page.locator('.ss-table tbody tr').last().waitFor();
    const scroller = page.locator('.ss-table-scroll');
    expect(await scroller.evaluate((el) => el.scrollWidth > el.clientWidth)).toBe(true);
    // The boxes of the Pick column's cells and of the last backend's score cells, header and body.
    const boxes = () =>
      scroller.evaluate((el) => {
        const table = el.querySelector('table')!;
        const box = (c: Element) => {
          const r = c.getBoundingClientRect();
          return { left: Math.round(r.left), right: Math.round(r.right) };
        };
        const pick = [...table.querySelectorAll('.ss-table-pick')].map(box);
        const scores = [table.tHead!.rows[1].lastElementChild!, ...[...table.tBodies[0].rows].map((r) => r.cells[r.cells.length - 2])].map(box);
        // The view's inside (its border aside).
        const outer = el.getBoundingClientRect();
        const view = { left: Math.round(outer.left + el.clientLeft), right: Math.round(outer.left + el.clientLeft + el.clientWidth) };
        return { pick, scores, view };
      });
    for (const where of ['left', 'right'] as const) {
      await scroller.evaluate((el, w) => (el.scrollLeft = w === 'left' ? 0 : el.scrollWidth), where);
      await settle(page);
      const { pick, scores, view } = await boxes();
      // The Pick column sits at the right edge of the view, and no score cell lies under it.
      for (const p of pick) expect(Math.abs(p.right - view.right), where).toBeLessThanOrEqual(1);
      const edge = Math.min(...pick.map((p) => p.left));
      for (const s of scores) expect(s.right <= edge || s.left >= view.right, `${where}: score ${JSON.stringify(s)}, Pick from ${edge}`).toBe(true);
      if (where === 'right') for (const s of scores) expect(s.right).toBeLessThanOrEqual(edge); // fully in view, beside it
    }
    await scroller.screenshot({ path: `${SHOTS}/runner-table-right.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the pick table, the chart tabs, the problems list', () => {
  it('reads the winner as "web3 (wins)", names the tabs’ region, and lists whole problems', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, reducedMotion: true });
    await setScript(page, 'POOL web1=1 web3=5\nPICK\n');
    await expect.poll(() => status(page)).toBe('Ran: 1 output line, no problems.');
    const winner = page.locator('.ss-pe-winner th');
    expect(await winner.textContent()).toBe('web3 (wins)');
    expect(await page.getByRole('rowheader', { name: 'web3 (wins)' }).count()).toBe(1);
    // The chart panel is a region named by its (screen-reader) heading; the tabs are inside it.
    const region = page.getByRole('region', { name: 'Charts' });
    expect(await region.getByRole('tablist', { name: 'Chart' }).count()).toBe(1);
    await setScript(page, 'pick\nPICK x\nnow 5\nADD\nDOWN zz\nUP q 1\nWEIGHTS 3\nPOOL a=-1\n');
    await expect.poll(() => status(page)).toMatch(/^8 rejected lines/);
    await page.getByRole('button', { name: 'Show problems' }).click();
    const list = page.locator('.cm-panel-lint ul');
    await expect
      .poll(() =>
        list.evaluate((ul) => {
          // The list's height is that of its first few items, whole.
          const heights = [...ul.children].map((li) => li.getBoundingClientRect().height);
          let sum = 0;
          let whole = 0;
          for (const h of heights) {
            if (sum + h > ul.clientHeight + 1) break;
            sum += h;
            whole++;
          }
          return whole >= 2 && Math.abs(ul.clientHeight - sum) <= 1;
        }),
      )
      .toBe(true);
    await page.locator('.cm-panel-lint').screenshot({ path: `${SHOTS}/runner-problems.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('numbers', () => {
  it('are written 1,500 by the page, and as the engine prints them in the output', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, reducedMotion: true });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    // 1,500 backends of weight 2,000 (b0 first): the first PICK goes to b0, which gives back 3,000,000.
    const names = Array.from({ length: 1500 }, (_, i) => `b${i}=2000`).join(' ');
    await setScript(page, `POOL ${names}\nPICK\nNOW 1500\nWEIGHTS\n`);
    await expect.poll(() => status(page)).toBe('Ran: 2 output lines, no problems.');
    await page.locator('.ss-out-row[aria-posinset="1"]').click();
    await expect.poll(() => page.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 2 chose b0');
    expect(await page.locator('.ss-pe-summary').textContent()).toBe(
      'Each backend taking part adds its weight to its score. b0 wins with 2,000, the highest. b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11 and 1,488 more have 2,000 too: ' +
        'a tie goes to the backend earliest in the pool. It then gives back 3,000,000, the total of the weights.',
    );
    expect(await page.locator('.ss-pe-table caption').textContent()).toBe(
      'Line 2, clock 0 s: the 12 highest sums of 1,500 backends, with each score before the pick and after it.',
    );
    expect(await page.locator('.ss-pe-winner').evaluate((tr) => [...tr.children].map((c) => c.textContent))).toEqual([
      'b0 (wins)',
      '0',
      '+2,000',
      '2,000',
      '−3,000,000',
      '−2,998,000',
    ]);
    expect(await page.locator('.ss-legend-more').textContent()).toBe('and 1,440 more backends (see the Table)');
    expect(await page.locator('.ss-chart-note').allTextContents()).toEqual(['The chart shows the first 60 of 1,500 backends.']);
    // The x axis writes its ticks 1,500, not 1500; the playhead's clock label too.
    await page.locator('.ss-out-row[aria-posinset="2"]').click();
    const ticks = await page.locator('.ss-chart > .ss-chart-frame > .ss-chart-svg .ss-tick-x').allTextContents();
    expect(ticks.some((t) => /^\d{1,3}(,\d{3})+$/.test(t)), ticks.join(' ')).toBe(true);
    expect(ticks.filter((t) => /^\d{4}$/.test(t))).toEqual([]);
    expect(await page.locator('.ss-clock-label').textContent()).toBe('now 1,500 s');
    // The output is the engine's: b0=2000, as the CLI prints it, on screen and copied.
    const weights = Array.from({ length: 1500 }, (_, i) => `b${i}`)
      .sort()
      .map((name) => `${name}=2000`)
      .join(' ');
    expect(await page.locator('.ss-out-row[aria-posinset="2"] .ss-out-text').textContent()).toMatch(/^b0=2000 b1=2000 b10=2000 /);
    await page.getByRole('button', { name: 'Copy the output (plain text)' }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).toBe(`b0\n${weights}\n`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the output list', () => {
  // The list is virtualized: each row's height is worked out from its text
  // (output-wrap.ts), not laid out. Chromium breaks "backend-12=6" after its
  // hyphen (a hyphen after a letter or digit is no minus sign); worked out as
  // unbreakable, the first WEIGHTS row below got 6 lines more than it drew
  // at 1280 px: an empty band of 108 px under it.
  it('gives each row the height Chromium wraps its text to, at 1280 and 360 px', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, reducedMotion: true });
    const names = [...Array.from({ length: 20 }, (_, i) => `backend-${i + 1}`), 'eu-west-2a', 'x-1-2-3', 'web-1-0', 'a1-22-b'];
    const lines = [`POOL ${names.map((n, i) => `${n}=${(i % 7) + 1}`).join(' ')}`];
    for (let t = 0; t < 12; t++) lines.push(`NOW ${t * 10}`, 'WEIGHTS', 'PICK', `DOWN ${names[t]}`, 'WEIGHTS');
    await setScript(page, lines.join('\n'));
    await expect.poll(() => status(page)).toBe('Ran: 36 output lines, no problems.');
    // Every row drawn: its place (top), the place of the row after it, and the lines its text takes on screen.
    const rows = () =>
      page.locator('.ss-panel-output .ss-output').evaluate((list) =>
        [...list.querySelectorAll<HTMLElement>('.ss-out-row:not([hidden])')]
          .map((row) => {
            const text = row.querySelector('.ss-out-text')!;
            const range = document.createRange();
            range.selectNodeContents(text);
            const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
            return { at: Number(row.getAttribute('aria-posinset')), top: new DOMMatrix(getComputedStyle(row).transform).m42, lines: tops.size };
          })
          .sort((a, b) => a.at - b.at),
      );
    const checkAll = async () => {
      const seen = new Map<number, { top: number; lines: number }>();
      const list = page.locator('.ss-panel-output .ss-output');
      for (let y = 0; ; y += 200) {
        await list.evaluate((el, y) => (el.scrollTop = y), y);
        await settle(page);
        for (const r of await rows()) seen.set(r.at, r);
        if (await list.evaluate((el) => el.scrollTop + el.clientHeight >= el.scrollHeight - 1)) break;
      }
      const wrapped: number[] = [];
      for (let at = 1; at < 36; at++) {
        const row = seen.get(at)!;
        const next = seen.get(at + 1)!;
        // A row of n lines takes 24 px, and 18 px for each line after its first (output-wrap.ts).
        expect(next.top - row.top, `row ${at}: ${row.lines} lines`).toBe(24 + 18 * (row.lines - 1));
        if (row.lines > 1) wrapped.push(row.lines);
      }
      return wrapped;
    };
    const wide = await checkAll();
    expect(wide.length).toBeGreaterThan(20); // the WEIGHTS rows wrap: the check above is about them
    await page.setViewportSize({ width: 360, height: 740 });
    const narrow = await checkAll();
    expect(narrow).not.toEqual(wide); // another width, other wraps (the output is a narrow column at 1280 px)
    expect(problems).toEqual([]);
    await page.close();
  });
});
