// The rough edges a hands-on review found on the runner page, each at the
// viewport where it was seen (1280 px, or a 360 px phone), in Chromium on
// the built page: long WEIGHTS lines, the Examples menu on a phone, the
// welcome script's words, tabs that follow the URL, and the implement tab's
// results when a test runs out of time.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INFINITE_LOOP } from '../fixtures/learner-solutions.js';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite, type OpenOptions } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

const open = (options: OpenOptions = {}) => openRunnerPage(site.browser, site.url, { reducedMotion: true, ...options });

/** Whether the page scrolls sideways. */
const sideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);

describe('rough edges on the runner page', () => {
  it('shows a long WEIGHTS line whole in the output column at 1280 px', async () => {
    const { page, problems } = await open({ width: 1280 });
    const names = ['web1=0', 'web2=10', 'web3=10', 'api-eu-west=5', 'api-us-east=7', 'cache=3', 'db-replica-2=4'];
    await setScript(page, `POOL ${names.join(' ')}\nWEIGHTS\nPICK\nWEIGHTS\nPICK`);
    // WEIGHTS sorts by name: that is the line printed (and shown) in full.
    const line = [...names].sort().join(' ');
    const rows = page.locator('.ss-out-row:not([hidden])');
    await expect.poll(() => rows.count()).toBe(4);
    const shown = await rows.evaluateAll((els) =>
      els
        .map((el) => {
          const text = el.querySelector<HTMLElement>('.ss-out-text')!;
          const box = el.getBoundingClientRect();
          return {
            index: Number(el.getAttribute('aria-posinset')),
            text: text.textContent,
            // Nothing cut: the text fits its box, and the box fits the row.
            cut: text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1,
            top: box.top,
            bottom: box.bottom,
          };
        })
        .sort((a, b) => a.index - b.index),
    );
    // The picks: web2 and web3 (weight 10) tie at 10 and web2 is earlier; then web3 has 20.
    expect(shown.map((r) => r.text)).toEqual([line, 'web2', line, 'web3']);
    expect(shown.map((r) => r.cut)).toEqual([false, false, false, false]);
    // The long line takes several lines, and the next row starts below it.
    expect(shown[0].bottom - shown[0].top).toBeGreaterThan(40);
    for (let i = 1; i < shown.length; i++) expect(shown[i].top).toBeGreaterThanOrEqual(shown[i - 1].bottom - 0.5);
    await page.locator('.ss-panel-output').screenshot({ path: `${SHOTS}/rough-output-wrap-1280.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the Examples menu on a 360 px screen, and it still loads an example', async () => {
    for (const dark of [false, true]) {
      const { page, problems } = await open({ width: 360, height: 780, dark });
      await page.locator('.ss-menu > summary').click();
      const list = page.locator('.ss-menu-list');
      await list.waitFor();
      const box = (await list.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(360);
      expect(await sideways(page)).toBe(0);
      await page.screenshot({ path: `${SHOTS}/rough-menu-360-${dark ? 'dark' : 'light'}.png` });
      await page.locator('.ss-menu-item[data-example="ramp-table"]').click();
      await expect.poll(() => page.locator('.ss-out-row').count()).toBeGreaterThan(5);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('welcomes the learner with words that are true while the script plays', async () => {
    const { page, problems } = await open({ width: 1280, reducedMotion: false });
    // It plays on its own: the transport offers Pause.
    await expect.poll(() => page.locator('.ss-transport button').nth(1).getAttribute('aria-label')).toBe('Pause');
    const script = await page.evaluate(() => window.slowstartRunner!.script);
    expect(script).not.toMatch(/Press Play/i);
    expect(script).toContain('The chart\n# follows the run step by step: play or pause it');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('follows the hash, Back and Forward between the tabs', async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await open({ width, path: '#implement' });
      const selected = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('[role="tab"][aria-selected="true"]')].map((t) => t.textContent).join(' + '),
        );
      const hash = () => page.evaluate(() => location.hash);
      // Opened at #implement: the implement mode shows.
      await expect.poll(selected).toBe('Implement it yourself + Ramp');
      await page.locator('.ss-impl-test').first().waitFor();
      // The learner clicks a tab: a new history entry.
      await page.getByRole('tab', { name: 'Run scripts' }).click();
      await expect.poll(hash).toBe('');
      expect(await page.locator('#runner').isVisible()).toBe(true);
      await page.getByRole('tab', { name: 'Traffic' }).click();
      await expect.poll(hash).toBe('#traffic');
      // Back: the ramp, then the implement mode; Forward: the ramp again.
      await page.goBack();
      await expect.poll(selected).toBe('Run scripts + Ramp');
      await page.goBack();
      await expect.poll(selected).toBe('Implement it yourself + Ramp');
      expect(await page.locator('#runner').isHidden()).toBe(true);
      await page.goForward();
      await expect.poll(selected).toBe('Run scripts + Ramp');
      // A link (or an edited hash) is followed at once, without a reload.
      await page.evaluate(() => {
        (window as unknown as { __same: boolean }).__same = true; // gone if the page reloads
        location.hash = '#traffic';
      });
      await expect.poll(selected).toBe('Run scripts + Traffic');
      await page.locator('.ss-traffic-status', { hasText: 'requests over' }).waitFor();
      await page.evaluate(() => (location.hash = '#implement'));
      await expect.poll(selected).toBe('Implement it yourself + Traffic');
      expect(await page.evaluate(() => (window as unknown as { __same?: boolean }).__same)).toBe(true);
      expect(await sideways(page)).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('fits the implement results in their panel when a test runs out of time, and says so once', async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await open({ width, path: '#implement' });
      await page.locator('.ss-impl-test').first().waitFor();
      await page.evaluate((c) => window.slowstartImplement!.setCode(c), INFINITE_LOOP);
      await page.locator('.ss-impl-run').click();
      // The first test is stopped after its time limit, and opens by itself.
      const first = page.locator('.ss-impl-test').first();
      await expect.poll(() => first.getAttribute('data-state'), { timeout: 10_000 }).toBe('fail');
      // The tests after it are not run (one time-out is enough): the run ends by itself.
      await expect.poll(() => page.locator('.ss-impl-results').getAttribute('aria-busy')).toBe('false');
      const report = first.locator('.ss-impl-report');
      await report.waitFor();
      // The timeout is said once in the open test (its one-line note is hidden while open).
      const visibleText = await first.evaluate((el) => (el as HTMLElement).innerText);
      expect(visibleText.match(/stopped after/g)?.length).toBe(1);
      expect(visibleText).toContain('stopped after 1 s at script line 2: your code did not finish (stopped in the loop on your line');
      // Nothing is cut off: the panel and every row fit, and the page does not scroll sideways.
      const fit = await page.evaluate(() => {
        const panel = document.querySelector<HTMLElement>('.ss-impl-results')!.closest<HTMLElement>('.ss-panel')!;
        const right = panel.getBoundingClientRect().right;
        const inside = [...panel.querySelectorAll<HTMLElement>('.ss-impl-bar, .ss-impl-test, .ss-impl-problem')].every(
          (el) => el.getBoundingClientRect().right <= right + 0.5,
        );
        return { inside, panel: panel.scrollWidth - panel.clientWidth, page: document.documentElement.scrollWidth - innerWidth };
      });
      expect(fit).toEqual({ inside: true, panel: 0, page: 0 });
      await page.screenshot({ path: `${SHOTS}/rough-implement-timeout-${width}.png`, fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
