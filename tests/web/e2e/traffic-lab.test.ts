// The Traffic lab as a workspace, in real Chromium (the production build,
// the page's strict CSP): laid out across the page at 1280 px and usable at
// 360 px with the ramp view as it was; every simulation in its worker, the
// page's main thread free while the learner types; every ejection in the
// lanes where the CLI's CSV puts it; the incident timeline's readout,
// zoom, keyboard and table; and the element's view="traffic".
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProblems } from '../support/browser.js';
import { readRecipes } from '../support/lab-recipes.js';
import { SCENARIOS } from '../../../web/traffic/scenarios.js';
import { LAB_SET } from '../../../web/traffic/lab-settings.js';
import { lab } from '../support/lab.js';
import { CPU_BOUND_TEST, traceMainThread } from '../support/main-thread-trace.js';
import { serveBuiltSite, type BuiltSite } from '../support/runner-page.js';
import { ROOT, SHOTS } from '../support/site.js';
import { openPage, servePageAndElement, type PageAndElement } from './element-site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

/** Long tasks (the Long Tasks API) recorded from the page's first script on. */
const RECORD_LONG_TASKS = () => {
  const w = window as unknown as { __longTasks: Array<{ start: number; ms: number }> };
  w.__longTasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) w.__longTasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
};

async function openLab(options: { width?: number; height?: number; path?: string } = {}) {
  const page = await site.browser.newPage({ viewport: { width: options.width ?? 1280, height: options.height ?? 900 } });
  await page.addInitScript(RECORD_LONG_TASKS);
  const problems = watchProblems(page);
  await page.goto(`${site.url}/${options.path ?? '#traffic'}`);
  await page.locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor({ timeout: 120_000 });
  await page.evaluate(() => window.slowstartTraffic!.ready);
  return { page, problems };
}

/**
 * One lab at 1280 × 900 for the tests that read what the default scenario drew (the layout, where
 * its simulations ran, each ejection against the copied command's CSV, the incident timeline's
 * readout, zoom and table): a load of the lab costs several seconds of Chromium's CPU
 * (docs/TESTING.md). Those that change its options or script, or trace its typing, open their own.
 * Each test starts with the Traffic tab shown (the layout test ends on the Ramp tab: on a hidden
 * lab the Copy buttons and the timeline's keys found nothing to answer), the page scrolled to the
 * top, the pointer away, and its own problems.
 */
let defaultLab: { page: Page; problems: string[] } | undefined;
async function openDefaultLab() {
  if (!defaultLab || defaultLab.page.isClosed()) return (defaultLab = await openLab({ width: 1280 }));
  const { page } = defaultLab;
  const traffic = page.locator('#runner').getByRole('tab', { name: 'Traffic' });
  if ((await traffic.getAttribute('aria-selected')) !== 'true') await traffic.click();
  await page.locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor();
  await page.evaluate(() => window.slowstartTraffic!.ready);
  await page.mouse.move(0, 0);
  await page.evaluate(() => scrollTo(0, 0));
  defaultLab.problems.length = 0;
  return defaultLab;
}
afterAll(() => defaultLab?.page.close());

const box = (page: Page, selector: string) =>
  page.locator(selector).first().evaluate((e) => {
    const r = e.getBoundingClientRect();
    return { x: Math.round(r.x), y: Math.round(r.y), width: Math.round(r.width), height: Math.round(r.height) };
  });

describe('the lab, laid out', () => {
  it('takes the whole width at 1280 px under the script and its output, the Ramp tab as it was', async () => {
    const { page, problems } = await openDefaultLab();
    const panels = await box(page, '#runner .ss-panels');
    const lab = await box(page, '#runner .ss-panel-chart');
    const script = await box(page, '#runner .ss-panel-editor');
    const output = await box(page, '#runner .ss-panel-output');
    expect(lab.width).toBe(panels.width);
    expect(lab.y).toBeGreaterThan(script.y + script.height);
    expect(output.y).toBe(script.y); // the script and its output share the row above
    expect(script.height).toBeLessThan(340); // kept short: the lab starts near the top
    // The Ramp tab's pick panel stays with the Ramp tab (it used to sit on top of the lab).
    expect(await page.locator('.ss-pick-explain').isVisible()).toBe(false);
    // The flapping runs two by two, each chart about 600 px wide.
    const sides = await page.locator('.ss-flap-side').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(sides).size).toBe(2);
    expect((await box(page, '.ss-flap-side .ss-bucket-chart')).width).toBeGreaterThan(560);
    // Every field and every folded group's summary stays inside its group's box
    // (a long "More: ..." summary once ran across the next group).
    const outside = await page.locator('.ss-option-group').evaluateAll((groups) =>
      groups.flatMap((g) => {
        const r = g.getBoundingClientRect();
        return [...g.querySelectorAll('summary, label, input, select')]
          .filter((e) => {
            const b = e.getBoundingClientRect();
            return b.width > 0 && (b.left < r.left - 0.5 || b.right > r.right + 0.5);
          })
          .map((e) => `${g.querySelector('legend')?.textContent}: ${e.textContent || e.outerHTML.slice(0, 60)}`);
      }),
    );
    expect(outside).toEqual([]);
    await page.screenshot({ path: `${SHOTS}/lab-1280.png`, fullPage: true });
    // The Ramp tab: the three panels side by side again, the pick panel back.
    await page.getByRole('tab', { name: 'Ramp' }).click();
    const rampChart = await box(page, '#runner .ss-panel-chart');
    expect(rampChart.y).toBe(script.y);
    expect(rampChart.x).toBeGreaterThan((await box(page, '#runner .ss-panel-output')).x);
    expect(await page.locator('.ss-pick-explain').isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });

  it('stacks everything at 360 px, nothing wider than the screen', async () => {
    const { page, problems } = await openLab({ width: 360 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    const lab = await box(page, '#runner .ss-panel-chart');
    expect(lab.width).toBe((await box(page, '#runner .ss-panels')).width);
    const sides = await page.locator('.ss-flap-side').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().x)));
    expect(new Set(sides).size).toBe(1);
    await page.screenshot({ path: `${SHOTS}/lab-360.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('off the main thread', () => {
  it('runs every simulation in the lab worker: the page never loads the lab module', async () => {
    const { page, problems } = await openDefaultLab();
    expect(page.workers().some((w) => /lab-worker/.test(w.url()))).toBe(true);
    // The page's own resource timeline (a worker has its own) holds no lab glue or .wasm.
    const loaded = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
    expect(loaded.filter((u) => /\/lab-[\w-]{8}\.(js|wasm)$/.test(u))).toEqual([]);
    expect(loaded.some((u) => /open-view-[\w-]+\.js$/.test(u))).toBe(true);
    expect(problems).toEqual([]);
  });

  it('leaves no main-thread task over 50 ms while the learner types with the lab open', CPU_BOUND_TEST, async () => {
    const { page, problems } = await openLab({ width: 1280 });
    // A realistic scenario: a rolling restart of eight backends, flapping under Envoy, in the editor.
    const deploy = ['POOL a=1 b=1 c=1 d=1 e=1 f=1 g=1 h=1'];
    for (const [i, name] of ['a', 'b', 'c'].entries()) deploy.push(`NOW ${30 + 40 * i}`, `DOWN ${name}`, `NOW ${40 + 40 * i}`, `UP ${name} 60`);
    await page.evaluate((s) => window.slowstartRunner!.setScript(`${s}\n`), deploy.join('\n'));
    await page.getByLabel('Scenario', { exact: true }).selectOption('script');
    await page.evaluate(() => window.slowstartTraffic!.ready);
    expect(await page.evaluate(() => window.slowstartTraffic!.flapRuns.length)).toBe(4);
    const stop = await traceMainThread(site.browser, page);
    const from = await page.evaluate(() => performance.now());
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+End');
    // Typed as a person types: words, with pauses in which the runs come back and are drawn.
    for (const line of ['NOW 150', 'DOWN d', 'NOW 160', 'UP d 60']) {
      await page.keyboard.press('Enter');
      await page.keyboard.type(line, { delay: 70 });
      // The pause in which the run of what was typed comes back.
      await expect.poll(() => page.evaluate((l) => window.slowstartRunner!.script.includes(l), line)).toBe(true);
      await expect.poll(() => page.locator('.ss-status').textContent()).toMatch(/^Ran/);
    }
    await expect.poll(() => page.evaluate(() => window.slowstartTraffic!.flapSection?.script.includes('UP d 60') ?? false), { timeout: 60_000 }).toBe(true);
    await page.evaluate(() => window.slowstartTraffic!.ready);
    const tasks = await stop();
    const long = await page.evaluate((t0) => (window as unknown as { __longTasks: Array<{ start: number; ms: number }> }).__longTasks.filter((e) => e.start >= t0), from);
    // Each long task the Long Tasks API saw, with the CPU time the page spent in it (the trace's): on
    // a machine other work keeps busy, a task's clock time is mostly its wait for a core.
    const seen = long.map((e) => ({ ms: Math.round(e.ms), cpuMs: tasks.cpuOfTaskAt(e.start) }));
    console.log(
      `typing with the lab open: ${long.length} long tasks (Long Tasks API) ${JSON.stringify(seen)}; ` +
        `longest task ${tasks.longestWallMs} ms on the clock, the most CPU one task used ${tasks.longestCpuMs} ms`,
    );
    // (A long task the trace has no task for at its start is still one of the trace's tasks: the bound on all of them holds it.)
    for (const e of seen) if (e.cpuMs !== null) expect(e.cpuMs, `a long task of ${e.ms} ms on the clock`).toBeLessThanOrEqual(50);
    expect(tasks.longestCpuMs).toBeLessThanOrEqual(50);
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Runs copied shell lines in bash in a fresh folder, `slowstart` being the native CLI with `extra` arguments after the lines' own. */
function pasteCommand(lines: string, extra: string[]) {
  const folder = mkdtempSync(join(tmpdir(), 'slowstart-paste-'));
  try {
    writeFileSync(join(folder, 'slowstart'), `#!/bin/sh\nexec '${join(ROOT, 'build/slowstart')}' "$@" ${extra.join(' ')}\n`, { mode: 0o755 });
    return spawnSync('bash', ['-c', lines], { cwd: folder, encoding: 'utf8', env: { ...process.env, PATH: `${folder}:${process.env.PATH}` } });
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** Backend `name`'s stretches of one state in a CSV, as "from–to" in seconds. */
function csvStretches(csv: string, name: string, state: string, bucket: number): string[] {
  const [header, ...lines] = csv.trim().split('\n');
  const column = header.split(',').indexOf('state'); // by name: columns are appended at the end
  const rows = lines.map((r) => r.split(',')).filter((r) => r[1] === name);
  const out: string[] = [];
  let start: number | null = null;
  rows.forEach((r, i) => {
    const on = r[column] === state;
    if (on && start === null) start = i;
    if ((!on || i === rows.length - 1) && start !== null) {
      const end = on ? i + 1 : i;
      out.push(`${Number((start * bucket).toFixed(2))}–${Number((end * bucket).toFixed(2))}`);
      start = null;
    }
  });
  return out;
}

describe('every ejection seen', () => {
  it("draws each of b's ejections and readmissions where the run's copied command's CSV has them, to the bucket", async () => {
    const { page, problems } = await openDefaultLab();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const section = await page.evaluate(() => {
      const s = window.slowstartTraffic!.flapSection!;
      return { script: s.script, options: s.runs.map((r) => r.options) };
    });
    const panels = page.locator('.ss-flap-side');
    for (const [i, cure] of [[0, 'No slow start'], [2, 'Escalating ejection']] as const) {
      const o = section.options[i];
      // "Copy as command": what the clipboard gets is what the run shows under "Command line".
      await panels.nth(i).getByRole('button', { name: `Copy ${cure} as a command` }).click();
      await panels.nth(i).getByRole('button', { name: `Copy ${cure} as a command` }).filter({ hasText: 'Copied' }).waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).toBe(await panels.nth(i).locator('.ss-command-text').textContent());
      expect(copied).toContain(section.script);
      // Pasted into bash with `slowstart` the native CLI, and --csv added: each of b's ejections where the lane has it.
      const csv = pasteCommand(copied, ['--csv']);
      expect(csv.status, csv.stderr).toBe(0);
      const cli = csvStretches(csv.stdout, 'b', 'ejected', o.bucket!);
      const lane = await panels.nth(i).locator('.ss-lane-row').nth(1).locator('.ss-lane-ejected title').allTextContents();
      expect(lane.map((t) => t.replace(/^b: ejected /, '').replace(/ s$/, '')), cure).toEqual(cli);
      expect(cli.length, cure).toBeGreaterThan(1);
      // The lane's own title lists them, with the count.
      const title = await panels.nth(i).locator('.ss-lane-row').nth(1).locator(':scope > title').textContent();
      expect(title).toContain(`b: ejected ${cli.length} times; ejected ${cli.join(', ')} s`);
      expect(await panels.nth(i).locator('.ss-lanes-counts').textContent()).toBe(`Ejected: b ${cli.length} times.`);
      // And the serving stripes between them: b serves in seconds 40, 80, ..., 280 before each ejection.
      const serving = csvStretches(csv.stdout, 'b', 'serving', o.bucket!);
      expect(serving.length).toBeGreaterThanOrEqual(cli.length);
      // The sentence under the run says the CLI's count of failed requests.
      const failed = csv.stdout.trim().split('\n').slice(1).reduce((sum, r) => sum + Number(r.split(',')[6]), 0);
      expect(await panels.nth(i).locator('.ss-trap-summary').textContent()).toContain(`${cli.length} ejections, ${failed.toLocaleString('en-US')} failed`);
    }
    expect(problems).toEqual([]);
  });
});

describe('the incident timeline', () => {
  it('marks the events and the stable moment, reads a bucket out by pointer and keys, zooms, and has a table', async () => {
    const { page, problems } = await openDefaultLab(); // its last user: the table it opens stays open
    const slow = page.locator('.ss-flap-side').nth(1);
    // The script's events on the run's share chart, named; the stable moment on every chart.
    expect(await slow.locator('.ss-bucket-chart').first().locator('.ss-event-label').allTextContents()).toEqual(['POOL a=1 b=1 c=1 d=1', 'DOWN b', 'UP b 60']);
    const stableAt = await page.evaluate(() => window.slowstartTraffic!.flapRuns[1].stableAt);
    expect(stableAt).toBeGreaterThan(40);
    expect(await slow.locator('.ss-stable title').first().textContent()).toBe(`Stable from ${Number(stableAt!.toFixed(2))} s`);
    expect(await slow.locator('.ss-stable').count()).toBe(4); // share, lanes, latency, failures
    // The keyboard: focus the run's charts, step to a bucket, read its numbers.
    const charts = slow.locator('.ss-run-charts');
    await charts.focus();
    await page.keyboard.press('Home');
    const readout = slow.locator('.ss-readout');
    expect(await readout.getAttribute('aria-live')).toBe('polite');
    await expect.poll(() => readout.textContent()).toMatch(/^0–[\d.]+ s: [\d,]+ requests; a 25\.?\d? %/);
    await page.keyboard.press('ArrowRight');
    expect(await readout.textContent()).not.toMatch(/^0–/);
    // The client's p50 and p99 (the bucket's, or the highest of a bin's buckets), after the mean.
    expect(await readout.textContent()).toMatch(/ Mean latency [\d,]+ ms; the client's p50 (up to )?[\d,]+ ms, p99 (up to )?[\d,]+ ms\./);
    // ... and drawn over the backends' means, as two lines.
    const latencyChart = slow.locator('.ss-bucket-chart').nth(1);
    expect(await latencyChart.locator('.ss-p50').count()).toBeGreaterThan(0);
    expect(await latencyChart.locator('.ss-p99').count()).toBeGreaterThan(0);
    // The pointer: over the no-slow-start run's failure chart at 41 s, where b has just come back cold.
    const none = page.locator('.ss-flap-side').first();
    const failures = none.locator('.ss-bucket-chart').nth(2);
    const at = async (t: number) => {
      const r = (await failures.boundingBox())!;
      const plotW = r.width - 52 - 12;
      return { x: r.x + 52 + (t / 300) * plotW, y: r.y + 30 };
    };
    const p41 = await at(41);
    await page.mouse.move(p41.x, p41.y);
    const bucket41 = /^(39|4\d)(\.\d+)?–4\d(\.\d+)? s: .* ([\d,]+) failed \(([\d,]+) retried\); ([\d,]+) reached the client\.$/;
    await expect.poll(() => none.locator('.ss-readout').textContent()).toMatch(bucket41);
    // What was not retried reached the client; under Envoy's retry circuit
    // breaker (3 retries in flight) that is most of b's failures.
    const [failedAt41, retriedAt41, reachedAt41] = bucket41.exec((await none.locator('.ss-readout').textContent())!)!.slice(4).map((n) => Number(n.replace(/,/g, '')));
    expect(failedAt41).toBeGreaterThan(0);
    expect(reachedAt41).toBe(failedAt41 - retriedAt41);
    expect(retriedAt41).toBeLessThan(failedAt41 / 2);
    // Zoom: drag from 35 s to 95 s; every chart of every run shows that stretch.
    const [p35, p95] = [await at(35), await at(95)];
    await page.mouse.move(p35.x, p35.y);
    await page.mouse.down();
    await page.mouse.move(p95.x, p95.y, { steps: 5 });
    await page.mouse.up();
    const shown = page.locator('.ss-flap-section .ss-zoom-shown');
    await expect.poll(() => shown.textContent()).toMatch(/^3\d(\.\d+)?–9\d(\.\d+)? s of 300 s$/);
    const ticks = await slow.locator('.ss-bucket-chart').first().locator('.ss-tick-x').allTextContents();
    expect(Number(ticks[0].replace('s', ''))).toBeGreaterThanOrEqual(35);
    await page.locator('.ss-flap').screenshot({ path: `${SHOTS}/lab-zoomed.png` });
    // The table: one row per bin of the window, for a screen reader.
    await slow.locator('.ss-incident-table summary').click();
    // The table is filled when the details open (its toggle event comes a task later).
    await expect.poll(() => slow.locator('.ss-incident-table tbody tr').count()).toBeGreaterThan(20);
    const heads = await slow.locator('.ss-incident-table thead th').allTextContents();
    expect(heads.slice(-5)).toEqual(['Mean latency', 'Client p50', 'Client p99', 'Failed', 'Seen by the client']);
    // Every row's p99 is at least its p50 (a bin of several buckets: the highest of each).
    for (const row of await slow.locator('.ss-incident-table tbody tr').all()) {
      const cells = await row.locator('td').allTextContents();
      const [p50, p99] = cells.slice(-4, -2).map((c) => Number(c.replace(/[^\d.]/g, '')));
      expect(p99).toBeGreaterThanOrEqual(p50);
    }
    expect(await slow.locator('.ss-incident-table caption').textContent()).toMatch(/; events: POOL a=1 b=1 c=1 d=1 at 0 s, DOWN b at 30 s, UP b 60 at 40 s; stable from 6\d(\.\d+)? s$/);
    await page.getByRole('button', { name: 'Show the whole run' }).last().click();
    await expect.poll(() => shown.textContent()).toMatch(/^The whole run/);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('every option reachable', () => {
  it('has a field for every option of the table that changes a run, grouped, with its default; refuses a value out of range in the table’s words; a set option reaches the copied command', async () => {
    const { page, problems } = await openLab({ width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.url });
    const table = lab.trafficOptionTable();
    const form = page.locator('.ss-options');
    // Every keyed row but those the lab sets itself (each run's slow start, its bucket, the curve set above, the service model from Answers).
    const wanted = table.filter((r) => r.key && (!LAB_SET.has(r.key) || r.key === 'rps' || r.key === 'duration')).map((r) => r.key);
    expect(wanted.length).toBeGreaterThanOrEqual(26);
    expect((await form.locator('[data-option]').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.option))).sort()).toEqual(wanted.sort());
    // Grouped as the table groups them; the rarer ones folded; the default and the flag in each hint.
    const groupOf = (key: string) => form.locator(`[data-option="${key}"]`).evaluate((e) => e.closest('fieldset')!.querySelector('legend')!.textContent);
    expect(await groupOf('health.consecutive5xx')).toBe('Health check');
    expect(await groupOf('service.workers')).toBe('Service model');
    expect(await groupOf('retries')).toBe('Timeouts and retries');
    expect(await form.locator('[data-option="service.workers"]').evaluate((e) => (e.closest('details') as HTMLDetailsElement).open)).toBe(false);
    const hint = (key: string) => form.locator(`[data-option="${key}"] .ss-field-hint`).textContent();
    expect(await hint('health.consecutive5xx')).toBe('Envoy: failures in a row that eject a host. Default: 5. --consecutive-5xx');
    // Each health check shows its own parameters, with that balancer's defaults; HAProxy's fixed rules are said.
    const shown = async () => form.locator('[data-option^="health."]:visible').evaluateAll((els) => els.map((e) => (e as HTMLElement).dataset.option));
    expect(await shown()).toEqual(['health.kind', 'health.consecutive5xx', 'health.interval', 'health.baseEjectionTime', 'health.maxEjectionTime']);
    await page.getByLabel('Health check', { exact: true }).selectOption('haproxy');
    await page.evaluate(() => window.slowstartTraffic!.ready);
    expect(await shown()).toEqual(['health.kind', 'health.errorLimit', 'health.onError', 'health.inter', 'health.rise', 'health.fall']);
    expect(await hint('health.errorLimit')).toContain('Default: 10.');
    expect(await hint('health.onError')).toContain('Default: fail-check.');
    expect(await form.locator('.ss-option-fixed:visible').allTextContents()).toEqual(['observe layer7 (always)']);
    await page.getByLabel('Health check', { exact: true }).selectOption('envoy');
    await page.evaluate(() => window.slowstartTraffic!.ready);
    // Out of range: refused in the table's words, nothing runs again.
    const before = await page.evaluate(() => window.slowstartTraffic!.flapSection!.runs[0].args);
    const interval = page.getByLabel('interval (s)', { exact: true });
    await interval.fill('0');
    await interval.dispatchEvent('change');
    expect(await interval.getAttribute('aria-invalid')).toBe('true');
    expect(await form.locator('[data-option="health.interval"] .ss-field-error').textContent()).toBe('A number of seconds from 0.001 to 1000000.');
    expect(await page.locator('.ss-flap-status').textContent()).toBe('Not updated: interval (s) must be a number of seconds from 0.001 to 1000000. The runs below have the last valid options.');
    expect(await page.evaluate(() => window.slowstartTraffic!.flapSection!.runs[0].args)).toEqual(before);
    await interval.fill('');
    // A parameter set: Envoy's base ejection time 10 s, not 30. The run without escalation is ejected for 10 s each time (max = base),
    // so b, cold, comes back sooner and is ejected more often; the CLI, given the copied lines, counts b's ejections as the lane does.
    const first = page.locator('.ss-flap-side').first();
    const ejectedBefore = Number((await first.locator('.ss-lanes-counts').textContent())!.match(/b (\d+) times/)![1]);
    const base = page.getByLabel('base_ejection_time (s)', { exact: true });
    await base.fill('10');
    await base.dispatchEvent('change');
    await expect.poll(() => page.evaluate(() => window.slowstartTraffic!.flapSection!.runs[0].args.join(' ')), { timeout: 60_000 }).toContain('--base-ejection-time 10 --max-ejection-time 10');
    await page.evaluate(() => window.slowstartTraffic!.ready);
    await first.getByRole('button', { name: 'Copy No slow start as a command' }).click();
    await first.getByRole('button', { name: 'Copy No slow start as a command' }).filter({ hasText: 'Copied' }).waitFor();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toContain('--base-ejection-time 10 --max-ejection-time 10');
    const summary = pasteCommand(copied, ['--summary', 'json']);
    expect(summary.status, summary.stderr).toBe(0);
    const b = (JSON.parse(summary.stdout) as { backends: Array<{ name: string; ejections: number; failed: number }> }).backends.find((x) => x.name === 'b')!;
    expect(await first.locator('.ss-lanes-counts').textContent()).toBe(b.ejections ? `Ejected: b ${b.ejections} time${b.ejections === 1 ? '' : 's'}.` : 'Nobody ejected.');
    expect(await first.locator('.ss-trap-summary').textContent()).toContain(`${b.failed.toLocaleString('en-US')} failed`);
    expect(b.ejections).toBeGreaterThan(ejectedBefore);
    // Instant answers: routing only; the service model, timeout and health check groups go.
    await page.getByLabel('Answers', { exact: true }).selectOption('instant');
    await page.evaluate(() => window.slowstartTraffic!.ready);
    expect(await form.locator('fieldset:visible legend').allTextContents()).toEqual(['Load', 'Balancer']);
    await form.screenshot({ path: `${SHOTS}/lab-options-instant.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('scenarios as starting points', () => {
  it('writes an ordinary script into the editor, sets the comparison up, and Undo brings the learner’s back', async () => {
    const { page, problems } = await openLab({ width: 1280 });
    const before = await page.evaluate(() => window.slowstartRunner!.script);
    await page.getByLabel('Scenario preset').selectOption('caddy-skip');
    await page.getByLabel('Hosts', { exact: true }).fill('3');
    await page.getByRole('button', { name: 'Write the script' }).click();
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script)).toContain('ADD h3=1 30');
    await expect.poll(() => page.evaluate(() => window.slowstartTraffic!.flapSection?.script.includes('ADD h3=1 30') ?? false)).toBe(true);
    await page.evaluate(() => window.slowstartTraffic!.ready);
    // Set up as the preset says: weighted random, instant answers, ramp by scale against by skip.
    expect(await page.getByLabel('Policy', { exact: true }).inputValue()).toBe('random');
    expect(await page.getByLabel('Answers', { exact: true }).inputValue()).toBe('instant');
    expect(await page.locator('.ss-flap-side:not([hidden]) .ss-trap-title').allTextContents()).toEqual(['No slow start', 'Slow start, ramp by scale', 'Slow start, ramp by skip']);
    const note = await page.locator('.ss-flap-note').textContent();
    const [none, scale, skip] = [...note!.matchAll(/([\d,]+) (without slow start|ramping by scale|ramping by skip)/g)].map((m) => Number(m[1].replace(/,/g, '')));
    const rps = await page.evaluate(() => window.slowstartTraffic!.flapSection!.rps);
    expect(none).toBe(0);
    expect(scale).toBeLessThanOrEqual(2);
    expect(Math.abs(skip - rps * 7.5) / (rps * 7.5)).toBeLessThan(0.05); // (1 − t/30)^3 over 30 s: 7.5 s of requests
    expect(await page.locator('.ss-scenario-note').textContent()).toContain('the 503s are all there is to count');
    await page.locator('.ss-flap-section').screenshot({ path: `${SHOTS}/lab-caddy-skip.png` });
    // An out-of-range number writes nothing and says what it takes.
    await page.getByLabel('Hosts', { exact: true }).fill('0');
    await page.getByRole('button', { name: 'Write the script' }).click();
    expect(await page.locator('.ss-scenario-note').textContent()).toBe('Not written: a number above is out of range.');
    // The learner's script comes back with one Undo.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+z');
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script)).toBe(before);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('<slow-start-runner view="traffic">', () => {
  let sites: PageAndElement;
  beforeAll(async () => {
    const head = '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lab</title><link rel="icon" href="/course/favicon.svg" type="image/svg+xml"><script type="module" src="/element/slow-start-runner.js"></script></head><body>';
    sites = await servePageAndElement({
      '/lab.html': `${head}<slow-start-runner id="lab" view="traffic" autorun>POOL a=1 b=1\nADD c=1 30\n</slow-start-runner><slow-start-runner id="ro" view="traffic" readonly autorun>POOL a=1\n</slow-start-runner></body></html>`,
      '/bad.html': `${head}<slow-start-runner id="bad" view="trafic">POOL a=1\n</slow-start-runner></body></html>`,
    });
  });
  afterAll(() => sites?.close());

  it('opens on the Traffic lab, across the element, its simulations in the lab worker', async () => {
    const { page, problems } = await openPage(sites.browser, `${sites.element}/lab.html`, { width: 1280 });
    const lab = page.locator('#lab');
    await lab.locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor({ timeout: 120_000 });
    expect(await lab.getByRole('tab', { name: 'Traffic' }).getAttribute('aria-selected')).toBe('true');
    expect(await lab.locator('.ss-share-section > .ss-bucket-chart .ss-band title').allTextContents()).toEqual(['a', 'b', 'c', 'no backend']);
    const [panels, chart] = await Promise.all(['.ss-panels', '.ss-panel-chart'].map((s) => lab.locator(s).first().evaluate((e) => Math.round(e.getBoundingClientRect().width))));
    expect(chart).toBe(panels);
    expect(page.workers().some((w) => /\/element\/lab-worker\.js$/.test(w.url()))).toBe(true);
    expect(await lab.locator('.ss-scenarios').count()).toBe(1);
    // A read-only element has no presets: they would write into its script.
    await page.locator('#ro').locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor({ timeout: 120_000 });
    expect(await page.locator('#ro').locator('.ss-scenarios').count()).toBe(0);
    await page.screenshot({ path: `${SHOTS}/lab-element.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('says what it does not understand in view=, and shows the ramp', async () => {
    const { page, problems } = await openPage(sites.browser, `${sites.element}/bad.html`);
    await page.locator('#bad .ss-panel-chart').waitFor();
    await expect.poll(() => problems).toEqual([
      'console warning: <slow-start-runner id="bad">: view="trafic" is not a view; accepted: "ramp", "traffic" (the ramp chart is shown).',
    ]);
    expect(await page.locator('#bad').getByRole('tab', { name: 'Ramp' }).count()).toBe(0); // no Traffic tab: no tabs at all
    await page.close();
  });
});

describe('the guide’s recipes, in the lab', () => {
  it('writes every preset of WHY-SLOW-START.md’s recipes and says under each run what the guide says', async () => {
    const { page, problems } = await openLab({ width: 1280 });
    for (const r of readRecipes()) {
      const name = `${r.preset} ${JSON.stringify({ ...r.params, ...r.choices })}`;
      await page.getByLabel('Scenario preset').selectOption(r.preset);
      for (const [key, value] of Object.entries(r.params)) await page.locator('.ss-scenario-params input').nth(await paramIndex(page, key)).fill(String(value));
      for (const [key, value] of Object.entries(r.choices)) await page.locator('.ss-scenario-params select').nth(await paramIndex(page, key, 'select')).selectOption(value);
      await page.getByRole('button', { name: 'Write the script' }).click();
      await expect.poll(() => page.evaluate((s) => window.slowstartTraffic!.flapSection?.script === s, r.script), { timeout: 60_000 }).toBe(true);
      await page.evaluate(() => window.slowstartTraffic!.ready);
      expect(await page.evaluate(() => window.slowstartRunner!.script), name).toBe(r.script);
      const shown = page.locator('.ss-flap-side:not([hidden])');
      expect(await shown.locator('.ss-trap-title').allTextContents(), name).toEqual(r.runs.map((x) => x.title));
      const runs = await page.evaluate(() => window.slowstartTraffic!.flapSection!.runs.map((x) => x.args));
      for (const [i, run] of r.runs.entries()) {
        expect(runs[i], `${name}: ${run.title}`).toEqual(run.args.filter((a) => a !== '--csv' && a !== '--summary' && a !== 'json'));
        if (run.line) expect(await shown.nth(i).locator('.ss-trap-summary').textContent(), `${name}: ${run.title}`).toBe(run.line);
        else {
          const share = await page.evaluate(
            ([i, s]) => {
              const t = window.slowstartTraffic!.flapRuns[i as number];
              const { name, from, to } = s as { name: string; from: number; to: number };
              const id = t.names.indexOf(name);
              let got = 0;
              let all = 0;
              for (let k = Math.round(from / t.bucket); k < Math.round(to / t.bucket); k++) (got += t.requests[k * t.names.length + id]), (all += t.total[k]);
              return Number(((100 * got) / all).toFixed(1));
            },
            [i, run.share] as const,
          );
          expect(share, `${name}: ${run.title}`).toBe(run.share!.percent);
        }
      }
    }
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Which of the preset's fields (of its inputs, or of its selects) has parameter `key`, by its label. */
async function paramIndex(page: Page, key: string, tag: 'input' | 'select' = 'input'): Promise<number> {
  const preset = await page.getByLabel('Scenario preset').inputValue();
  const fields = SCENARIOS.find((s) => s.id === preset)!;
  const list = tag === 'input' ? fields.parameters.map((p) => p.key) : (fields.choices ?? []).map((c) => c.key);
  return list.indexOf(key);
}
