// Frames while the chart plays, in headless Chromium (a benchmark: it
// measures and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts frames
// A 20-backend script plays for 4 s; every frame is timed twice: the
// interval between frames (requestAnimationFrame's timestamps), and the page's
// own work in it, from the start of its animation-frame callbacks to a task
// queued from them, which runs once the frame's style, layout and paint are
// done. A frame is missed when the interval spans more than one vsync
// (16.7 ms): each missed frame is put down to the page's work when the frame
// before it took more than a vsync of that work, and to something else
// otherwise. The control, in the same browser and between the playing runs:
// the same page doing nothing but a requestAnimationFrame loop for 4 s. If
// it misses frames too, headless Chromium misses them for reasons not ours
// (software compositing on a loaded machine). The page thread's CPU time
// over each run (Chromium's ThreadTime) is said per frame.
// Figures go to test-results/frames-bench.json and the console.
import type { Browser, Page } from 'playwright-core';
import { it } from 'vitest';
import { cpuClock, machine, openSites, round, stats, twentyBackends, writeResults, type Site } from './page-sites.js';

const VSYNC_MS = 1000 / 60;
const RUNS = Number(process.env.FRAMES_RUNS ?? 3);

interface Frames {
  intervals: number[];
  work: number[];
}

/** 4 s of frames: `play` plays the runner's script (else the page does nothing but this loop). */
async function recordFrames(page: Page, play: boolean): Promise<Frames> {
  return page.evaluate(async (play) => {
    const runner = window.slowstartRunner!;
    const intervals: number[] = [];
    const work: number[] = [];
    let last = 0;
    let started = !play;
    await new Promise<void>((done) => {
      const end = performance.now() + 4000;
      const tick = (ts: number) => {
        // First among each frame's callbacks: re-armed before the playhead's own.
        const start = performance.now();
        if (last) intervals.push(ts - last);
        last = ts;
        setTimeout(() => work.push(performance.now() - start), 0);
        if (performance.now() < end && (!started || !play || runner.playhead.playing)) requestAnimationFrame(tick);
        else done();
        if (!started) {
          started = true;
          runner.playhead.seek(0);
          runner.playhead.play();
        }
      };
      requestAnimationFrame(tick);
    });
    runner.playhead.pause();
    return { intervals, work };
  }, play);
}

/** Missed frames, and those that follow a frame that took the page more than a vsync. */
function missed(f: Frames) {
  let all = 0;
  let ours = 0;
  f.intervals.forEach((ms, i) => {
    const lost = Math.max(0, Math.round(ms / VSYNC_MS) - 1);
    all += lost;
    if (lost > 0 && (f.work[i] ?? 0) > VSYNC_MS) ours += lost;
  });
  return { frames: f.intervals.length, missed: all, missedAfterOurWork: ours };
}

async function openPlaying(site: Site, browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await page.goto(`${site.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  await page.evaluate((s) => window.slowstartRunner!.setScript(s), twentyBackends());
  await page.waitForFunction(() => !window.slowstartRunner!.playhead.playing, undefined, { timeout: 60_000 });
  return page;
}

it('measures frames while the chart plays', async () => {
  const sites = await openSites();
  const results: Record<string, unknown> = { machine: machine(sites.browser) };
  try {
    // This tree's page (idle, then playing) and, with a baseline, its page playing, round by round.
    const pages: [string, Page, boolean][] = [];
    const ours = await openPlaying(sites.ours, sites.browser);
    pages.push(['idle', ours, false], ['playing', ours, true]);
    if (sites.baseline) pages.push(['baseline playing', await openPlaying(sites.baseline, sites.browser), true]);
    if (process.env.FRAMES_REDUCED) {
      const reduced = await openPlaying(sites.ours, sites.browser);
      await reduced.emulateMedia({ reducedMotion: 'reduce' });
      pages.push(['playing, reduced motion', reduced, true]);
    }
    const clocks = new Map<Page, () => Promise<number>>();
    const processClocks = new Map<Page, () => Promise<number>>();
    for (const [, page] of pages) {
      if (!clocks.has(page)) clocks.set(page, await cpuClock(page));
      if (!processClocks.has(page)) processClocks.set(page, await cpuClock(page, 'ProcessTime'));
    }
    const runs: Record<string, unknown>[] = [];
    const all: Record<string, Frames> = {};
    for (let r = 0; r < RUNS; r++) {
      for (const [mode, page, play] of pages) {
        const cpu = clocks.get(page)!;
        const processCpu = processClocks.get(page)!;
        const c0 = await cpu();
        const p0 = await processCpu();
        const f = await recordFrames(page, play);
        const cpuPerFrame = ((await cpu()) - c0) / Math.max(1, f.intervals.length);
        const processPerFrame = ((await processCpu()) - p0) / Math.max(1, f.intervals.length);
        const into = (all[mode] ??= { intervals: [], work: [] });
        into.intervals.push(...f.intervals);
        into.work.push(...f.work);
        runs.push({ mode, ...missed(f), pageCpuPerFrameMs: round(cpuPerFrame), rendererCpuPerFrameMs: round(processPerFrame), workMedianMs: stats(f.work).median });
      }
    }
    results.runs = runs;
    for (const [mode, f] of Object.entries(all)) results[mode] = { ...missed(f), workPerFrameMs: stats(f.work), frameIntervalMs: stats(f.intervals) };
    for (const page of clocks.keys()) await page.close();
  } finally {
    await sites.close();
  }
  await writeResults('frames-bench', results);
  console.log(JSON.stringify(results, null, 2));
});
