// The Traffic tab in real Chromium (production build, strict CSP): the share
// of requests under the chosen curve and resolution, and the least-request
// trap side by side. Expected figures come from the formulas by hand.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle, watchProblems } from '../support/browser.js';
import { serveBuiltSite, type BuiltSite } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
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

/**
 * One Traffic tab for the tests that only set the script and read what it drew (the default
 * script's bands, the trap, the latency charts' scale, the default flapping scenario): a load of
 * the tab costs several seconds of Chromium's CPU (docs/TESTING.md), and the script is each
 * test's whole input (the flapping scenario is a preset, not the script). Each is shown at its own
 * width (a resize, not a load); a test that changes a setting opens its own tab (the settings live
 * in the page and have no reset), the flapping one last, so it closes the shared tab. Each starts
 * with its own problems.
 */
let shared: { page: Page; problems: string[] } | undefined;
async function openSharedTraffic(width = 1440) {
  if (!shared || shared.page.isClosed()) return (shared = await openTraffic({ width }));
  shared.problems.length = 0;
  if (shared.page.viewportSize()!.width !== width) {
    await shared.page.setViewportSize({ width, height: 1000 });
    await settle(shared.page);
  }
  return shared;
}
afterAll(() => shared?.page.close());

/** Replaces the script through the page's runner and waits for the new simulation. */
async function setScript(page: Page, script: string): Promise<void> {
  await page.evaluate(async (s) => {
    const runner = window.slowstartRunner!;
    runner.setScript(s);
    await window.slowstartTraffic!.ready;
  }, script);
}

/**
 * Share (0...1) of backend `name` in the quarter second from time `t`, from
 * the last simulation drawn (runs are simulated in finer buckets: a quarter
 * second at 1,000 requests a second is 250 of them).
 */
function shareAt(page: Page, which: 'share' | 'without' | 'with', name: string, t: number): Promise<number> {
  return page.evaluate(
    ([w, n, time]) => {
      const r = window.slowstartTraffic!.last![w as 'share'];
      const id = r.names.indexOf(n as string);
      const from = Math.round((time as number) / r.bucket);
      const to = Math.round(((time as number) + 0.25) / r.bucket);
      let got = 0;
      let all = 0;
      for (let k = from; k < to; k++) {
        got += r.requests[k * r.names.length + id];
        all += r.total[k];
      }
      return all ? got / all : 0;
    },
    [which, name, t] as const,
  );
}

describe('Traffic tab', () => {
  it('draws one share band per backend for the default script, lazily loading the lab', async () => {
    const { page, problems } = await openSharedTraffic(); // its first user: the default script
    const bands = await page.locator('.ss-share-section > .ss-bucket-chart .ss-band title').allTextContents();
    expect(bands).toEqual(['web1', 'web2', 'web3', 'no backend']);
    expect(await page.locator('.ss-traffic-legend li').allTextContents()).toEqual(['web1', 'web2', 'web3']);
    await page.screenshot({ path: `${SHOTS}/traffic-light.png`, fullPage: true });
    expect(problems).toEqual([]);
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
    await page.evaluate(() => window.slowstartTraffic!.ready);
    expect(await shareAt(page, 'share', 'b', 10)).toBe(0);
    expect(await shareAt(page, 'share', 'b', 29.5)).toBe(0);
    expect(await shareAt(page, 'share', 'b', 30)).toBe(0.5);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('puts the least-request trap side by side: the cold host takes a burst only without slow start', async () => {
    const { page, problems } = await openSharedTraffic();
    await setScript(page, 'POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n');
    // Right after e joins. Without a ramp every host weighs 1, so Envoy's pick
    // is two random choices (docs/proxy-rules.md E4): e, with nothing in
    // flight, wins whenever it is drawn (1 - (4/5)^2 = 36 % of the picks)
    // until it holds as many as the others: well above a tenth of the bucket.
    // With a ramp (the weighted path, E5) much less.
    expect(await shareAt(page, 'without', 'e', 10)).toBeGreaterThan(0.1);
    expect(await shareAt(page, 'with', 'e', 10)).toBeLessThan(0.05);
    const note = await page.locator('.ss-trap-note').textContent();
    const [without, withRamp] = [...note!.matchAll(/([\d,]+) ms/g)].map((m) => Number(m[1].replace(/,/g, '')));
    // Without: its burst queues a little past its cold service time (1,000 ms); with: within it.
    expect(without).toBeGreaterThan(withRamp);
    expect(withRamp).toBeLessThanOrEqual(1000);
    await page.locator('.ss-trap').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/traffic-trap.png`, fullPage: true });
    expect(problems).toEqual([]);
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

/** Sets a control by its label, as a learner does (a select, or a number typed and left). */
async function setControl(page: Page, label: string, value: string): Promise<void> {
  const field = page.getByLabel(label, { exact: true });
  if ((await field.evaluate((e) => e.tagName)) === 'SELECT') await field.selectOption(value);
  else {
    await field.fill(value);
    await field.dispatchEvent('change');
  }
  await page.evaluate(() => window.slowstartTraffic!.ready);
}

const trapNote = (page: Page) => page.locator('.ss-trap-note').textContent();
const WELCOME = 'POOL web1=5 web2=5\nADD web3=10 20\nNOW 5\nNOW 10\nNOW 20\n';

describe('Traffic tab, for a learner who read nothing', () => {
  it('says why the HAProxy curve gives an ADD no ramp, where it shows', async () => {
    const { page, problems } = await openTraffic({ width: 1280 });
    await setScript(page, WELCOME);
    await setControl(page, 'Ramp curve', 'haproxy');
    const warn = page.locator('.ss-traffic-warn');
    await expect.poll(() => warn.isVisible()).toBe(true);
    expect(await warn.textContent()).toContain('HAProxy ramps only a backend that comes back (UP)');
    expect(await trapNote(page)).toContain('slow start changed nothing here. HAProxy ramps only a backend that comes back (UP)');
    // A backend that comes back with UP does ramp under HAProxy: no such note then.
    await setScript(page, 'POOL a=1 b=1\nDOWN b\nNOW 10\nUP b 30\n');
    await expect.poll(() => warn.isVisible()).toBe(false);
    expect(await trapNote(page)).not.toContain('changed nothing');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws both latency charts on one scale', async () => {
    const { page, problems } = await openSharedTraffic(1280);
    await setScript(page, WELCOME);
    const tops = await page.locator('.ss-trap-side').evaluateAll((sides) =>
      sides.map((s) => {
        const ticks = [...s.querySelectorAll('.ss-bucket-chart')[1].querySelectorAll('.ss-tick-y')].map((t) => t.textContent);
        return ticks[ticks.length - 1];
      }),
    );
    expect(tops[0]).toMatch(/ (ms|s)$/); // ("1.5 s" from a second on)
    expect(tops[1]).toBe(tops[0]);
    expect(problems).toEqual([]);
  });

  it('gives true numbers with cold ×1 and no warm-up (200 ms either way), never "0.0×"', async () => {
    const { page, problems } = await openTraffic({ width: 1280 });
    await setScript(page, WELCOME);
    await setControl(page, 'Balancing', 'wrr');
    await setControl(page, 'Load %', '80');
    await setControl(page, 'Cold ×', '1');
    await setControl(page, 'Warm-up s', '0');
    // 80 % of web3's 640/s at half the weight: 1,024 requests a second, and no backend is sent more than it serves.
    const note = await trapNote(page);
    expect(note).toMatch(/^Peak latency 200 ms without slow start, 200 ms with it: about the same\. 1,024 requests a second/);
    // A script where slow start only costs (cold ×1): "higher", and why.
    await setScript(page, 'POOL old=10\nADD new=10 20\n');
    const worse = await trapNote(page);
    expect(worse).toMatch(/slow start made it [\d.]+× higher\. With Cold ×1 or no warm-up/);
    expect(worse).not.toContain('0.0×');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says what an invalid Requests/s takes, and that the charts still show the old rate', async () => {
    for (const width of [1280, 360]) {
      const { page, problems } = await openTraffic({ width });
      const rps = page.getByLabel('Requests/s', { exact: true });
      await rps.fill('0');
      await rps.dispatchEvent('change');
      const status = page.locator('.ss-traffic-status');
      await expect
        .poll(() => status.textContent())
        .toBe('Not updated: Requests/s must be a whole number from 1 to 100,000. The charts still show 1,000 requests/s.');
      expect(await rps.getAttribute('aria-invalid')).toBe('true');
      // The message is next to the field and read with it.
      const described = await rps.evaluate((el) =>
        el.getAttribute('aria-describedby')!.split(' ').map((id) => el.ownerDocument.getElementById(id)!.textContent),
      );
      expect(described[0]).toBe('A whole number from 1 to 100,000.');
      await page.screenshot({ path: `${SHOTS}/traffic-invalid-rps-${width}.png`, fullPage: true });
      await setControl(page, 'Requests/s', '500');
      await expect.poll(() => status.textContent()).toContain('at 500/s');
      expect(await rps.getAttribute('aria-invalid')).toBe('false');
      expect(await page.locator('.ss-field-error:not([hidden])').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it('says the comparison follows Load %, not Requests/s, and explains every setting in plain words', async () => {
    const { page, problems } = await openTraffic({ width: 1280 });
    await setScript(page, 'POOL a=1 b=1 c=1 d=1\nNOW 10\nADD e=1 30\n');
    // Five equal backends at Load 60 %: 60 % of 5 × 640 = 1,920 a second, whatever Requests/s says.
    expect(await trapNote(page)).toContain('1,920 requests a second');
    expect(await trapNote(page)).toContain('(this rate follows Load %, not the Requests/s above)');
    await setControl(page, 'Requests/s', '2000');
    expect(await trapNote(page)).toContain('1,920 requests a second');
    await setControl(page, 'Load %', '30');
    expect(await trapNote(page)).toContain('960 requests a second');
    // Every setting has a hint in plain words; no "band" left unexplained.
    await setControl(page, 'Ramp curve', 'envoy');
    for (const [label, words] of [
      ['Ramp curve', 'How a backend’s weight grows during its ramp'],
      ['Aggression', 'above 1 the weight rises fast early on'],
      ['Floor %', 'the least share of its weight a ramping backend gets'],
      ['Resolution', '×1 is whole numbers, as your script counts them'],
      ['Resolution', '(nginx-mod, an nginx build with slow start)'],
      ['Load %', 'How busy the busiest backend is at full weight'],
      ['Cold ×', 'How many times slower a backend serves the moment it joins'],
    ] as const) {
      const hint = await page
        .getByLabel(label, { exact: true })
        .evaluate((el) => el.getAttribute('aria-describedby')!.split(' ').map((id) => el.ownerDocument.getElementById(id)!.textContent).join(' '));
      expect(hint, label).toContain(words);
    }
    expect(await page.locator('.ss-traffic-status').textContent()).toContain('shares are counted in slices of');
    // No project jargon for a learner: the tab, its options and hints never say "SPEC" (they said
    // "Linear (SPEC, NGINX)", "×1 (SPEC)", "the SPEC’s whole numbers").
    const words = await page.locator('.ss-traffic').evaluateAll((els) =>
      els.map((el) => `${el.textContent} ${[...el.querySelectorAll('[title],[aria-label]')].map((e) => `${e.getAttribute('title')} ${e.getAttribute('aria-label')}`).join(' ')}`).join(' '),
    );
    expect(words).toContain('Linear (as your script, NGINX)');
    expect(words).not.toMatch(/SPEC/);
    await page.screenshot({ path: `${SHOTS}/traffic-hints-1280.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** The flapping comparison's runs, as numbers (CURES order). */
function flapRuns(page: Page) {
  return page.evaluate(() =>
    window.slowstartTraffic!.flapRuns.map((t) => {
      const b = t.names.indexOf('b');
      const n = t.names.length;
      let failed = 0;
      for (const v of t.failed) failed += v;
      const share: number[] = [];
      const states: number[] = [];
      for (let k = 0; k < t.buckets; k++) {
        share.push(t.share(k, b));
        states.push(t.state[k * n + b]);
      }
      return { bucket: t.bucket, ejections: t.ejections[b], secondsEjected: t.secondsEjected[b], failed, stableAt: t.stableAt, share, states };
    }),
  );
}

describe('Traffic tab: flapping and its cures', () => {
  it('shows the rolling restart flapping without slow start and recovering monotonically with it, from the model', async () => {
    // The shared tab's last user: it changes the health check below, and closes the tab.
    const { page, problems } = await openSharedTraffic(1280);
    await page.locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor();
    await page.evaluate(() => window.slowstartTraffic!.ready);
    const [none, slow, escalating, both] = await flapRuns(page);
    // Without slow start b (restarted cold at 40 s with its full share) is
    // ejected again and again (Envoy, 30 s each time: no escalation).
    expect(none.ejections).toBeGreaterThanOrEqual(3);
    expect(none.failed).toBeGreaterThan(0);
    expect(none.states).toContain(3); // an ejected stretch in b's lane
    // With slow start: never ejected, nothing fails, and b's share climbs
    // from 40 s to the end of its ramp at 100 s without going back, second
    // by second (the runs are simulated in tenths of a second: a tenth holds
    // about 150 requests, too few for a share to be exact to half a point).
    expect(slow.ejections).toBe(0);
    expect(slow.failed).toBe(0);
    expect(slow.states).not.toContain(3);
    expect(slow.states).toContain(2);
    const per = Math.round(1 / slow.bucket);
    const second = (s: number) => slow.share.slice(s * per, (s + 1) * per).reduce((a, b) => a + b, 0) / per;
    for (let s = 42; s < 100; s++) expect(second(s)).toBeGreaterThanOrEqual(second(s - 1) - 0.005);
    expect(slow.stableAt).not.toBeNull();
    // Escalating ejection alone: fewer, longer ejections than without it; both: as slow start.
    expect(escalating.ejections).toBeLessThan(none.ejections);
    expect(both.ejections).toBe(0);
    // The sentence compares the runs in numbers.
    const note = await page.locator('.ss-flap-note').textContent();
    expect(note).toMatch(new RegExp(`^Without slow start b was ejected ${none.ejections} times and [\\d,]+ requests failed`));
    expect(note).toContain('; with slow start, 0 and 0 (0 to the client), 0 s out, stable from');
    expect(await page.locator('.ss-flap-side:not([hidden])').count()).toBe(4);
    expect(await page.locator('.ss-flap-side').first().locator('.ss-lane-ejected').count()).toBeGreaterThan(0);
    await page.locator('.ss-flap').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/traffic-flapping.png`, fullPage: true });
    // nginx has no escalating ejection: two runs, and the note says why.
    await setControl(page, 'Health check', 'nginx');
    expect(await page.locator('.ss-flap-side:not([hidden])').count()).toBe(2);
    expect(await page.locator('.ss-flap-note').textContent()).toContain('has no escalating ejection');
    const [nginxNone, nginxSlow] = await flapRuns(page);
    expect(nginxNone.ejections).toBeGreaterThanOrEqual(3);
    expect(nginxSlow.ejections).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
