// Benchmark (not a test): the traffic simulation in Chromium, on the page's
// workload (10 minutes at 10,000 requests/s for 100 backends) and issue #12's
// fleet (one hour at 100,000 requests/s for 10,000 backends, goal < 10 s).
// Prints the figures and writes test-results/traffic-bench.json; copy them
// into docs/PERFORMANCE.md.
// Each run: its wall time (performance.now() in the page) and the CPU time
// of the page's thread (DevTools Performance.getMetrics ThreadTime), which
// is what the simulation costs whatever else the machine runs.
//   npx vitest run --config tests/web/bench/vitest.config.ts traffic
// TRAFFIC_BENCH=health,health-10k measures only those workloads;
// TRAFFIC_BENCH_DIST=/path/to/other/dist measures another build's package
// instead of this one; TRAFFIC_BENCH_BASELINE=/path/to/other/dist measures
// that build too, in the same browser, its runs alternating with ours, and
// prints each workload's ratio (the baseline's median CPU time over ours:
// above 1 means this build is faster), the one figure a loaded machine does
// not spoil (docs/PERFORMANCE.md).
// With TRAFFIC_BENCH_BASELINE_COMMIT the commit of traffic-baseline.json (the
// build of the day issue #31 set its goals; `npm run bench` does this by
// default, scripts/bench.sh), each workload also gets `onBaselineDay`: this
// build's CPU in that day's seconds (the baseline's figures of that day
// over this run's ratio, of the warmed-up medians and of the first calls)
// against the goal set then.
// Before a workload's warm-up, each build also makes it the first call of a
// fresh page (its own browser context: no code cache, nothing compiled or
// optimised, the module's memory not grown), which is what a user meets:
// `firstCallCpuMs`, TRAFFIC_BENCH_FIRST_CALLS pages each (default 1; 0: none),
// alternating with the baseline's (PL-38).
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

const WORKLOAD_NAMES: Record<string, string> = {
  page: '600 s x 10,000 requests/s, 100 backends, rolling restart with 30 s ramps, resolution 100',
  fleet: '3600 s x 100,000 requests/s, 10,000 backends, rolling restart in 100 waves of 100 with 30 s ramps, resolution 100',
  health:
    '3600 s x 2,000 requests/s, 20 backends restarted in turn with 30 s ramps; service model, timeout 1,000 ms, 1 retry, Envoy outlier detection',
  'health-10k': 'the same over 10,000 backends, restarted 100 at a time',
  'health-flap': 'health without slow start: restarted backends time out, are retried and ejected',
};

type Bench = { workloads: Record<string, number>; warmUp(name: string): void; run(name: string): { ms: number; requests: number } };

/** A page of the fixture over one build's package, and the CPU time of its thread. */
async function openBench(browser: Awaited<ReturnType<typeof launchChromium>>, dist: string) {
  // Serve the built package (dist/api, dist/wasm) and the fixture page.
  const site = await mkdtemp(join(tmpdir(), 'slowstart-traffic-bench-'));
  await symlink(`${dist}/api`, join(site, 'api'));
  await symlink(`${dist}/wasm`, join(site, 'wasm'));
  await symlink(`${ROOT}tests/web/bench/fixtures/traffic-bench.js`, join(site, 'bench.js'));
  await writeFile(join(site, 'index.html'), '<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>');
  const server = await serveStatic(site);
  const page = await browser.newPage();
  // The page thread's CPU time (seconds), which other jobs on a shared
  // machine do not inflate as they do the clock time.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const threadTime = async () =>
    (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === 'ThreadTime')!.value;
  const only = process.env.TRAFFIC_BENCH;
  await page.goto(`${server.url}/${only ? `?only=${encodeURIComponent(only)}` : ''}`);
  await page.waitForFunction(() => (window as unknown as { benchReady?: boolean }).benchReady, null, { timeout: 60_000 });
  const workloads = await page.evaluate(() => (window as unknown as { bench: Bench }).bench.workloads);
  return {
    workloads,
    warmUp: (name: string) => page.evaluate((n) => (window as unknown as { bench: Bench }).bench.warmUp(n), name),
    /** One run: its wall time (ms), the page thread's CPU time (s) and the requests simulated. */
    async run(name: string) {
      const before = await threadTime();
      const r = await page.evaluate((n) => (window as unknown as { bench: Bench }).bench.run(n), name);
      return { ms: r.ms, cpu: (await threadTime()) - before, requests: r.requests };
    },
    close: async () => {
      await page.close();
      await server.close();
      await rm(site, { recursive: true, force: true });
    },
  };
}

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[xs.length >> 1];

interface BaselineDay {
  commit: string;
  cpuMsOnItsDay: Record<string, [number, number]>;
  goalMsOnItsDay: Record<string, number>;
}

/** traffic-baseline.json when the baseline is its commit (either may be abbreviated), else null. */
async function baselineDay(): Promise<BaselineDay | null> {
  const commit = process.env.TRAFFIC_BENCH_BASELINE_COMMIT;
  if (!commit || !process.env.TRAFFIC_BENCH_BASELINE) return null;
  const day = JSON.parse(await readFile(`${ROOT}tests/web/bench/traffic-baseline.json`, 'utf8')) as BaselineDay;
  return day.commit.startsWith(commit) || commit.startsWith(day.commit) ? day : null;
}

/**
 * This build's CPU in the baseline day's seconds: what the baseline took
 * then (lowest, highest run) over `ratio` (the baseline's CPU over ours,
 * measured side by side now), and whether that is under the day's goal.
 */
function onBaselineDay(day: BaselineDay, name: string, ratios: { median: number; firstCall?: number }) {
  const then = day.cpuMsOnItsDay[name];
  if (!then) return undefined;
  const goalMs = day.goalMsOnItsDay[name];
  const range = (ratio: number) => then.map((ms) => Math.round(ms / ratio)) as [number, number];
  const median = range(ratios.median);
  const firstCall = ratios.firstCall ? range(ratios.firstCall) : undefined;
  const worst = Math.max(median[1], firstCall?.[1] ?? 0);
  return { commit: day.commit, baselineCpuMsThen: then, cpuMs: median, firstCallCpuMs: firstCall, goalMs, met: goalMs === undefined ? undefined : worst < goalMs };
}

it('measures the traffic simulation in Chromium', async () => {
  const dist = process.env.TRAFFIC_BENCH_DIST ?? `${ROOT}dist`;
  const baselineDist = process.env.TRAFFIC_BENCH_BASELINE;
  const browser = await launchChromium();
  try {
    const ours = await openBench(browser, dist);
    const base = baselineDist ? await openBench(browser, baselineDist) : null;
    const figures: Record<string, unknown> = { date: new Date().toISOString(), loadAverage: loadavg(), baseline: baselineDist ?? null };
    const requests: Record<string, number> = {};
    const summary = (wall: number[], cpu: number[], n: number) => ({
      requests: n,
      wallMs: wall.map((t) => Math.round(t)),
      cpuMs: cpu.map((t) => Math.round(t * 1000)),
      medianWallMs: Math.round(median(wall)),
      medianCpuMs: Math.round(median(cpu) * 1000),
      requestsPerCpuSecondMillions: Math.round((n / median(cpu) / 1e6) * 10) / 10,
    });
    const day = await baselineDay();
    const firstCalls = Number(process.env.TRAFFIC_BENCH_FIRST_CALLS ?? 1);
    /** The workload as the first call of a fresh page of that build: the page thread's CPU (s). */
    const firstCall = async (from: string, name: string) => {
      const fresh = await openBench(browser, from);
      try {
        return (await fresh.run(name)).cpu;
      } finally {
        await fresh.close();
      }
    };
    for (const [name, runs] of Object.entries(ours.workloads)) {
      const first: number[] = [], baseFirst: number[] = [];
      for (let i = 0; i < firstCalls; i++) {
        first.push(await firstCall(dist, name));
        if (baselineDist) baseFirst.push(await firstCall(baselineDist, name));
      }
      await ours.warmUp(name);
      if (base) await base.warmUp(name);
      const wall: number[] = [], cpu: number[] = [], baseWall: number[] = [], baseCpu: number[] = [];
      for (let i = 0; i < runs; i++) {
        // Alternating, so that both builds meet the same load.
        const r = await ours.run(name);
        wall.push(r.ms);
        cpu.push(r.cpu);
        requests[name] = r.requests;
        if (base) {
          const b = await base.run(name);
          baseWall.push(b.ms);
          baseCpu.push(b.cpu);
          // The same workload: the same requests, or, against the build of
          // another day (whose retry rules were older: Envoy's retry breaker
          // came later), the same arrivals with up to 1 % more or fewer retries.
          if (day) expect(Math.abs(b.requests - r.requests), `${name}: the baseline simulated another workload`).toBeLessThanOrEqual(r.requests / 100);
          else expect(b.requests, `${name}: the baseline simulated another workload`).toBe(r.requests);
        }
      }
      figures[name] = {
        workload: WORKLOAD_NAMES[name],
        ...summary(wall, cpu, requests[name]),
        firstCallCpuMs: first.map((t) => Math.round(t * 1000)),
        ...(base
          ? {
              baseline: { ...summary(baseWall, baseCpu, requests[name]), firstCallCpuMs: baseFirst.map((t) => Math.round(t * 1000)) },
              // Above 1: this build takes less of the page thread's CPU than the baseline.
              cpuRatioBaselineOverOurs: Math.round((median(baseCpu) / median(cpu)) * 100) / 100,
              ...(day
                ? {
                    onBaselineDay: onBaselineDay(day, name, {
                      median: median(baseCpu) / median(cpu),
                      firstCall: first.length ? median(baseFirst) / median(first) : undefined,
                    }),
                  }
                : {}),
            }
          : {}),
      };
    }
    figures.loadAverageAfter = loadavg();
    if (requests.page !== undefined) expect(requests.page).toBe(6_000_000);
    if (requests.fleet !== undefined) expect(requests.fleet).toBe(360_000_000);
    if (requests.health !== undefined) expect(requests.health).toBeGreaterThanOrEqual(7_200_000);
    console.log(JSON.stringify(figures, null, 2));
    if (base)
      for (const name of Object.keys(ours.workloads)) {
        const f = figures[name] as {
          medianCpuMs: number;
          firstCallCpuMs: number[];
          baseline: { medianCpuMs: number; firstCallCpuMs: number[] };
          cpuRatioBaselineOverOurs: number;
          onBaselineDay?: ReturnType<typeof onBaselineDay>;
        };
        const seconds = (ms: number[]) => ms.map((t) => (t / 1000).toFixed(2)).join(', ');
        console.log(
          `${name}: ${(f.medianCpuMs / 1000).toFixed(2)} s of the page thread's CPU, baseline ${(f.baseline.medianCpuMs / 1000).toFixed(2)} s: ${f.cpuRatioBaselineOverOurs}x` +
            (f.firstCallCpuMs.length ? `; a fresh page's first call ${seconds(f.firstCallCpuMs)} s, baseline ${seconds(f.baseline.firstCallCpuMs)} s` : ''),
        );
        const then = f.onBaselineDay;
        if (then)
          console.log(
            `  in the CPU seconds of ${then.commit}'s day (it took ${seconds(then.baselineCpuMsThen)} s then): ${seconds(then.cpuMs)} s` +
              (then.firstCallCpuMs ? `, first calls ${seconds(then.firstCallCpuMs)} s` : '') +
              (then.goalMs !== undefined ? `; goal < ${(then.goalMs / 1000).toFixed(2)} s: ${then.met ? 'met' : 'NOT met'}` : ''),
          );
      }
    await mkdir(`${ROOT}test-results`, { recursive: true });
    await writeFile(`${ROOT}test-results/traffic-bench${process.env.TRAFFIC_BENCH_DIST ? '-baseline' : ''}.json`, JSON.stringify(figures, null, 2));
    await ours.close();
    await base?.close();
  } finally {
    await browser.close();
  }
});
