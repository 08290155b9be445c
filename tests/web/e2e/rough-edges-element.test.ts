// The rough edges a hands-on review found in <slow-start-runner>, each at the
// viewport where it was seen (1280 px, or a 360 px phone): a short exercise
// as tall as its content (no big empty output box), "Compare with my
// program" folded until opened, the Examples menu inside a phone's screen,
// and a runner that has not run yet saying so. The BUILT element
// (dist/element) on the fixture course pages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ServedSite } from '../support/served-site.js';
import { openPage, serveElementSite, SHOTS, shootWholePage, whenReady } from './element-site.js';

let site: ServedSite;
beforeAll(async () => {
  site = await serveElementSite();
});
afterAll(() => site?.close());

// features.html has an element whose src is missing on purpose: the 404 is expected.
const unexpected = (problems: string[]) =>
  problems.filter((p) => !p.endsWith('/course/missing.txt') && !p.includes('status of 404 (Not Found)'));

describe('rough edges in the element', () => {
  it('is as tall as a short exercise needs, at 1280 and 360 px', async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await openPage(site.browser, `${site.url}/course/index.html`, { width });
      const host = page.locator('#spec-example');
      await whenReady(host);
      await expect.poll(() => host.locator('.ss-out-row').count()).toBe(6);
      const size = await host.evaluate((el) => {
        const r = el.shadowRoot!;
        const height = (sel: string) => r.querySelector(sel)!.getBoundingClientRect().height;
        return {
          total: el.getBoundingClientRect().height,
          editor: height('.ss-editor'),
          output: height('.ss-panel-output .ss-output'),
          lines: r.querySelectorAll('.cm-line').length,
        };
      });
      // The worked example: 11 lines of script (the last one empty), 6 lines of output.
      expect(size.lines).toBe(11);
      // The editor shows every line (21.7 px each) and little more.
      expect(size.editor).toBeLessThan(12 * 21.7 + 24);
      if (width === 360) {
        // Stacked: the output box fits its 6 rows (24 px each), not a 240 px box.
        expect(size.output).toBeLessThanOrEqual(6 * 24 + 4);
      } else {
        // Side by side: the output is as tall as the editor beside it.
        expect(size.output).toBeCloseTo(size.editor, 0);
      }
      // Before this fix the exercise was 1,454 px tall at 1280 px and 1,883 px at 360 px.
      // #26: 1,085 px at 1280 before the compact chart's plot went from 220 to 160 px (1,025 after).
      expect(size.total).toBeLessThan(width === 1280 ? 1060 : 1420);
      await shootWholePage(page, `${SHOTS}/rough-element-exercise-${width}.png`);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('folds "Compare with my program" and the pick view until they are opened', async () => {
    const { page, problems } = await openPage(site.browser, `${site.url}/course/index.html`, { width: 1280 });
    const host = page.locator('#half-way');
    await whenReady(host);
    const compare = host.locator('.sse-compare');
    expect(await compare.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await host.locator('.sse-paste').isVisible()).toBe(false);
    await compare.locator('summary').click();
    await expect.poll(() => host.locator('.sse-paste').isVisible()).toBe(true);
    // The pick view's title says who won; the working opens on demand.
    const pick = host.locator('.ss-pe-details');
    await expect.poll(() => pick.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 8 chose a');
    expect(await pick.evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    await pick.locator('summary').click();
    await expect.poll(() => host.locator('.ss-pe-table').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('keeps the Examples menu on a 360 px screen: the course page does not scroll sideways', async () => {
    const { page, problems } = await openPage(site.browser, `${site.url}/course/features.html`, { width: 360, height: 780 });
    const host = page.locator('#from-files');
    await whenReady(host);
    await host.locator('.ss-menu > summary').click();
    const list = host.locator('.ss-menu-list');
    await list.waitFor();
    const box = (await list.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBe(0);
    await page.screenshot({ path: `${SHOTS}/rough-element-menu-360.png` });
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });

  it('says a runner without autorun has not run yet, until it runs', async () => {
    const { page, problems } = await openPage(site.browser, `${site.url}/course/features.html`, { width: 1280 });
    const host = page.locator('slow-start-runner[compare]');
    await whenReady(host);
    const empty = host.locator('.ss-chart .ss-chart-empty');
    await expect.poll(() => empty.textContent()).toBe('Not run yet: press Run to draw the chart.');
    await host.getByRole('button', { name: /^Run/ }).click();
    await expect.poll(() => host.locator('.ss-chart .ss-series path').count()).toBe(2);
    // A script that really has nothing to draw says that instead.
    await host.evaluate((el) => ((el as HTMLElement & { script: string }).script = '# nothing yet'));
    await expect.poll(() => empty.textContent()).toBe('Nothing to draw yet: a POOL or ADD line starts the chart.');
    expect(unexpected(problems)).toEqual([]);
    await page.close();
  });
});
