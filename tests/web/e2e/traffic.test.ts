// The Traffic tab in real Chromium (production build, strict CSP): the share
// of requests under the chosen curve and resolution, and the least-request
// trap side by side. Expected figures come from the formulas by hand.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProblems } from '../support/browser.js';
import { serveBuiltSite, type BuiltSite } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite('site-traffic');
});
afterAll(() => site?.close());

async function openTraffic(options: { width?: number; dark?: boolean } = {}) {
  const page = await site.browser.newPage({
    viewport: { width: options.width ?? 1440, height: 1000 },
    colorScheme: options.dark ? 'dark' : 'light',
  });
  const problems = watchProblems(page);
  await page.goto(`${site.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  await page.getByRole('tab', { name: 'Traffic' }).click();
  await page.locator('.ss-traffic-status', { hasText: 'requests over' }).waitFor();
  return { page, problems };
}

/** Replaces the script through the page's runner and waits for the new simulation. */
async function setScript(page: Page, script: string): Promise<void> {
  await page.evaluate(async (s) => {
    const runner = window.slowstartRunner!;
    runner.setScript(s);
    await runner.traffic!.ready;
  }, script);
}

/** Share (0...1) of backend `name` in the bucket containing time `t`, from the last simulation drawn. */
function shareAt(page: Page, which: 'share' | 'without' | 'with', name: string, t: number): Promise<number> {
  return page.evaluate(
    ([w, n, time]) => {
      const r = window.slowstartRunner!.traffic!.last![w as 'share'];
      return r.share(Math.floor((time as number) / r.bucket), r.names.indexOf(n as string));
    },
    [which, name, t] as const,
  );
}

describe('Traffic tab', () => {
  it('draws one share band per backend for the default script, lazily loading the lab', async () => {
    const { page, problems } = await openTraffic();
    const bands = await page.locator('.ss-traffic > .ss-bucket-chart .ss-band title').allTextContents();
    expect(bands).toEqual(['web1', 'web2', 'web3', 'no backend']);
    expect(await page.locator('.ss-traffic-legend li').allTextContents()).toEqual(['web1', 'web2', 'web3']);
    await page.screenshot({ path: `${SHOTS}/traffic-light.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the weight-1 jump at resolution x1 and the ramp at x100 (nginx-mod)', async () => {
    const { page, problems } = await openTraffic();
    // Two weight-1 peers, b with a 30 s slow start.
    await setScript(page, 'POOL a=1\nADD b=1 30\n');
    // Default resolution x100: b = floor(100 t / 30) against a's 100. At 10 s
    // that is 33 vs 100 -> 24.8 %; the 0.25 s band starting at 10 s averages
    // 33 and 34 -> about 25 %.
    expect(Math.abs((await shareAt(page, 'share', 'b', 10)) - 0.25)).toBeLessThan(0.01);
    // x1: 1 * t / 30 rounds down to 0 until 30 s, then b has half.
    await page.getByLabel('Resolution').selectOption('1');
    await page.evaluate(() => window.slowstartRunner!.traffic!.ready);
    expect(await shareAt(page, 'share', 'b', 10)).toBe(0);
    expect(await shareAt(page, 'share', 'b', 29.5)).toBe(0);
    expect(await shareAt(page, 'share', 'b', 30)).toBe(0.5);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('puts the least-request trap side by side: the cold host is hammered only without slow start', async () => {
    const { page, problems } = await openTraffic();
    await setScript(page, 'POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n');
    // Right after e joins: more than its fair fifth without a ramp, much less with one.
    expect(await shareAt(page, 'without', 'e', 10)).toBeGreaterThan(0.2);
    expect(await shareAt(page, 'with', 'e', 10)).toBeLessThan(0.05);
    const note = await page.locator('.ss-traffic > .ss-chart-note').last().textContent();
    const [without, withRamp] = [...note!.matchAll(/([\d,]+) ms/g)].map((m) => Number(m[1].replace(/,/g, '')));
    // Without: queueing far past the 1,000 ms cold service time; with: within it.
    expect(without).toBeGreaterThan(1500);
    expect(withRamp).toBeLessThanOrEqual(1000);
    await page.locator('.ss-trap').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/traffic-trap.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works dark and at 360 px', async () => {
    for (const [name, options] of [
      ['traffic-dark', { dark: true }],
      ['traffic-narrow-360', { width: 360 }],
    ] as const) {
      const { page, problems } = await openTraffic(options);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow).toBeLessThanOrEqual(0);
      await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
