// Frames while the chart plays, in headless Chromium (a benchmark: it
// measures and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts frames
// A 20-backend script plays for 4 s from Play pressed at its end (a replay,
// as a learner starts one; before PL-35 the bench sought step 0 and played
// in the same frame, a seek's full update no learner's click makes), the
// Play button clicked in a task of its own as a learner's click is (since
// PL-53; before, play() was called in an animation frame's callback), and
// every frame from the first after that task is counted. Each
// frame is timed twice: the
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
// The strict attribution (frame-trace.ts): each round is traced, and each
// frame's own work is what the page's main thread did in it (its scripts and
// the style, layout, paint and commit they cause), as CPU time and as wall
// time. A missed frame is the page's when that CPU time exceeded the frame's
// budget (a vsync): `missedOwnOverBudget`; with more than half a vsync of it,
// `missedOwnOverHalf`; the rest (`missedLittleOwn`) are the browser's and the
// machine's (compositor, raster, other processes). Run at each width of
// FRAMES_WIDTHS (default 1280 and 360 px). The frames in which CodeMirror
// drew lines (its next 30-44 about every other editor scroll while playing)
// are told from the editor's first and last line elements read after each
// frame, and their own CPU is said apart (`drawOwnCpuMs`, the others'
// `otherOwnCpuMs`; since PL-54). FRAMES_CSS: a style sheet added to this
// tree's pages only (to weigh a CSS change against the baseline before making it).
// Figures go to test-results/frames-bench.json and the console.
import type { Browser, Page } from 'playwright-core';
import { it } from 'vitest';
import { FRAME_TRACE_CATEGORIES, frameWorkFromTrace, type FrameWork } from './frame-trace.js';
import { cpuClock, machine, openSites, round, stats, twentyBackends, writeResults, type Site } from './page-sites.js';

const VSYNC_MS = 1000 / 60;
const RUNS = Number(process.env.FRAMES_RUNS ?? 3);
const WIDTHS = (process.env.FRAMES_WIDTHS ?? '1280,360').split(',').map(Number);
const MARK = 'slowstart-bench-frame';
// FRAMES_START=seek: the older start (seek step 0 and play in one frame) instead of a replay.
const SEEK_START = process.env.FRAMES_START === 'seek';
// FRAMES_BASELINE_FIRST=1: the baseline plays in the slot right after the idle control, this tree's after it
// (the slot after the control misses more on a loaded machine, PL-43: run both orders).
const BASELINE_FIRST = !!process.env.FRAMES_BASELINE_FIRST;

interface Frames {
  intervals: number[];
  work: number[];
  /** Play's own task (wall ms, in the page), before the first frame counted. */
  playTaskMs?: number;
  /**
   * Per frame: whether CodeMirror drew lines in it (since PL-54): the editor's
   * first or last line element (`.cm-line`, not the gaps standing for the
   * lines not drawn), its text, or the count of the content's children, read
   * in the task after the frame, is not what it was after the frame before (a
   * draw drops the lines above the view and adds the next 30-44 below). DOM
   * reads with no layout. Null for a replay's first three frames (the jump's
   * draw is in Play's task, before frame 0, and read after it).
   */
  drew: (boolean | null)[];
  /**
   * How late into each frame its animation callbacks began (ms from
   * requestAnimationFrame's timestamp to the bench's own callback, the
   * first): what the frame did before them (the scroll events of the
   * editor and the output list, and their handlers). CodeMirror's draws
   * while playing are not there but in the playhead's callback (PL-55).
   */
  late: number[];
}

/**
 * 4 s of frames: `play` plays the runner's script (else the page does nothing
 * but this loop). Play is pressed as a learner presses it: the Play button
 * clicked in a task of its own, not in an animation frame (before PL-53 the
 * bench called play() in a frame's callback, so that frame carried Play's
 * own work too). Every frame from the first one after that task is counted;
 * the task's own time (Play's response, before any frame: a delay to its
 * first paint, not a frame dropped from an animation) is said apart, as
 * `playTaskMs`.
 */
async function recordFrames(page: Page, play: boolean): Promise<Frames> {
  return page.evaluate(async ([play, mark, seekStart]) => {
    const runner = window.slowstartRunner!;
    const intervals: number[] = [];
    const work: number[] = [];
    const drew: (boolean | null)[] = [];
    const late: number[] = [];
    const content = document.querySelector('.cm-content');
    const lineEnds = (): unknown[] => {
      let last = content?.lastElementChild;
      while (last && !last.classList.contains('cm-line')) last = last.previousElementSibling;
      const first = content?.querySelector('.cm-line');
      return [first, last, first?.textContent, last?.textContent, content?.childElementCount];
    };
    let lines = lineEnds();
    let playTaskMs = Number.NaN;
    let last = 0;
    if (play && !seekStart) {
      // On the last step, laid out and painted, before the frames are counted:
      // a play then starts as a learner's does, with Play at the end of a run.
      runner.playhead.seek(runner.playhead.length - 1);
      await new Promise((settled) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(settled, 0))));
    }
    await new Promise<void>((done) => {
      const end = performance.now() + 4000;
      const tick = (ts: number) => {
        // First among each frame's callbacks: re-armed before the playhead's own.
        const start = performance.now();
        performance.mark(mark);
        late.push(start - ts);
        if (last) intervals.push(ts - last);
        last = ts;
        setTimeout(() => {
          work.push(performance.now() - start);
          const now = lineEnds();
          drew.push(play && drew.length < 3 ? null : now.some((v, k) => v !== lines[k]));
          lines = now;
        }, 0);
        if (performance.now() < end && (!play || runner.playhead.playing)) requestAnimationFrame(tick);
        else done();
      };
      if (!play) requestAnimationFrame(tick);
      else
        setTimeout(() => {
          // Armed before the click, so it comes before the playhead's callbacks in every frame.
          requestAnimationFrame(tick);
          const t0 = performance.now();
          if (seekStart) runner.playhead.seek(0);
          // On the last step: a replay from the start.
          runner.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click();
          playTaskMs = performance.now() - t0;
        }, 0);
    });
    runner.playhead.pause();
    return { intervals, work, playTaskMs, drew, late };
  }, [play, MARK, SEEK_START] as const);
}

/**
 * Missed frames: all, those after a frame whose rAF-to-task span was over a
 * vsync (the bench's older, looser count), and by the trace's own work.
 */
function missed(f: Frames, own: readonly FrameWork[]) {
  let all = 0;
  let ours = 0;
  let overBudget = 0;
  let wallOverBudget = 0;
  let overHalf = 0;
  let little = 0;
  f.intervals.forEach((ms, i) => {
    const lost = Math.max(0, Math.round(ms / VSYNC_MS) - 1);
    if (lost === 0) return;
    all += lost;
    if ((f.work[i] ?? 0) > VSYNC_MS) ours += lost;
    const w = own[i];
    if (!w) return;
    if (w.cpu > VSYNC_MS) overBudget += lost;
    else if (w.cpu > VSYNC_MS / 2) overHalf += lost;
    else little += lost;
    if (w.wall > VSYNC_MS) wallOverBudget += lost;
  });
  return { frames: f.intervals.length, missed: all, missedAfterOurWork: ours, missedOwnOverBudget: overBudget, missedOwnOverHalf: overHalf, missedLittleOwn: little, missedOwnWallOverBudget: wallOverBudget };
}

/**
 * Own CPU of the frames in which CodeMirror drew lines (PL-54) and of the
 * others, a replay's first three frames (its jump's paint) left out of both
 * (`Frames.drew`).
 */
function draws(drew: readonly (boolean | null)[], own: readonly FrameWork[]) {
  const cpu = (d: boolean) => own.flatMap((w, i) => (drew[i] === d ? [w.cpu] : []));
  return { drawFrames: cpu(true).length, drawOwnCpuMs: stats(cpu(true)), drawOwnCpuOverVsync: cpu(true).filter((ms) => ms > VSYNC_MS).length, otherOwnCpuMs: stats(cpu(false)) };
}

/** How late the frames' callbacks began (`Frames.late`), the frames with a CodeMirror draw and the others. */
function lateness(f: Frames) {
  const of = (d: boolean) => f.late.filter((_, i) => f.drew[i] === d);
  return { lateDrawMs: stats(of(true)), lateOtherMs: stats(of(false)), lateOver8Ms: f.late.filter((ms) => ms > 8).length };
}

/** The heaviest frames by own CPU time, with what they did (for finding the page's heavy work). */
function heaviest(own: readonly FrameWork[], n: number) {
  return own
    .map((w, i) => ({ frame: i, cpuMs: round(w.cpu), wallMs: round(w.wall), script: round(w.script), style: round(w.style), layout: round(w.layout), paint: round(w.paint), other: round(w.other), top: w.top }))
    .sort((a, b) => b.cpuMs - a.cpuMs)
    .slice(0, n);
}

async function openPlaying(site: Site, browser: Browser, width: number): Promise<Page> {
  const page = await browser.newPage({ viewport: width < 600 ? { width, height: 740 } : { width, height: 900 } });
  await page.goto(`${site.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  if (process.env.FRAMES_CSS && site.name === 'this tree') await page.addStyleTag({ content: process.env.FRAMES_CSS });
  await page.evaluate((s) => window.slowstartRunner!.setScript(s), twentyBackends());
  await page.waitForFunction(() => !window.slowstartRunner!.playhead.playing, undefined, { timeout: 60_000 });
  return page;
}

it('measures frames while the chart plays', async () => {
  const sites = await openSites();
  const results: Record<string, unknown> = { machine: machine(sites.browser) };
  try {
    for (const width of WIDTHS) {
      // This tree's page (idle, then playing) and, with a baseline, its page playing, round by round.
      const pages: [string, Page, boolean][] = [];
      const ours = await openPlaying(sites.ours, sites.browser, width);
      pages.push(['idle', ours, false], ['playing', ours, true]);
      if (sites.baseline) pages.splice(BASELINE_FIRST ? 1 : 2, 0, ['baseline playing', await openPlaying(sites.baseline, sites.browser, width), true]);
      if (process.env.FRAMES_REDUCED) {
        const reduced = await openPlaying(sites.ours, sites.browser, width);
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
      const all: Record<string, { frames: Frames; own: FrameWork[] }> = {};
      for (let r = 0; r < RUNS; r++) {
        for (const [mode, page, play] of pages) {
          const cpu = clocks.get(page)!;
          const processCpu = processClocks.get(page)!;
          await sites.browser.startTracing(page, { categories: FRAME_TRACE_CATEGORIES });
          const c0 = await cpu();
          const p0 = await processCpu();
          const f = await recordFrames(page, play);
          const cpuPerFrame = ((await cpu()) - c0) / Math.max(1, f.intervals.length);
          const processPerFrame = ((await processCpu()) - p0) / Math.max(1, f.intervals.length);
          const own = frameWorkFromTrace((await sites.browser.stopTracing()).toString('utf8'), MARK);
          const into = (all[mode] ??= { frames: { intervals: [], work: [], drew: [], late: [] }, own: [] });
          into.frames.intervals.push(...f.intervals);
          into.frames.work.push(...f.work);
          into.frames.late.push(...f.late);
          into.frames.drew.push(...f.drew.slice(0, own.length), ...Array<null>(Math.max(0, own.length - f.drew.length)).fill(null));
          into.own.push(...own);
          runs.push({
            mode,
            ...missed(f, own),
            ownCpuMs: stats(own.map((w) => w.cpu)),
            framesOwnCpuOver8Ms: own.filter((w) => w.cpu > VSYNC_MS / 2).length,
            playTaskMs: round(f.playTaskMs ?? Number.NaN),
            // The frames after which one was missed with over a vsync of own CPU: "frame:ms".
            missedOwnFrames: f.intervals.flatMap((ms, i) => (Math.round(ms / VSYNC_MS) > 1 && (own[i]?.cpu ?? 0) > VSYNC_MS ? [`${i}:${round(own[i].cpu)}`] : [])),
            firstFrameOwnCpuMs: round(own[0]?.cpu ?? Number.NaN),
            // A replay's first frames (the jump back to step 0, and what draws after it).
            firstFramesOwnCpuMs: own.slice(0, 4).map((w) => round(w.cpu)),
            secondFrameTop: own[1]?.top ?? [],
            pageCpuPerFrameMs: round(cpuPerFrame),
            rendererCpuPerFrameMs: round(processPerFrame),
            workMedianMs: stats(f.work).median,
            ...draws(f.drew, own),
            ...lateness(f),
          });
        }
      }
      const byMode: Record<string, unknown> = { runs };
      for (const [mode, { frames, own }] of Object.entries(all)) {
        byMode[mode] = {
          ...missed(frames, own),
          ownCpuMs: stats(own.map((w) => w.cpu)),
          ownWallMs: stats(own.map((w) => w.wall)),
          ownByKindMedianMs: Object.fromEntries((['script', 'style', 'layout', 'paint', 'other'] as const).map((k) => [k, stats(own.map((w) => w[k])).median])),
          workPerFrameMs: stats(frames.work),
          frameIntervalMs: stats(frames.intervals),
          heaviest: heaviest(own, 4),
          ...draws(frames.drew, own),
          ...lateness(frames),
        };
      }
      results[`${width}px`] = byMode;
      for (const page of clocks.keys()) await page.close();
    }
  } finally {
    await sites.close();
  }
  await writeResults('frames-bench', results);
  console.log(JSON.stringify(results, null, 2));
});
