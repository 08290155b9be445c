// A replay's heaviest frame, alone and many times (a benchmark: it measures
// and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts replay-jump
// frames-bench.ts sees a replay's first frames once a 4 s play, three plays
// a run: too few to compare two builds on a loaded machine. Here the
// 20-backend script is put on its last step, then the Play button is
// clicked in a task of its own (as a learner's click is; before PL-53,
// play() was called in a frame's callback) and the click's task and the
// three frames after it are read from a trace: the page's main thread's CPU
// time in each (frame-trace.ts, the same count as frames-bench's), and the
// heaviest of the three frames by kind. Since PL-53 a replay's jump back to
// step 0 (the editor's scroll to the script's top, CodeMirror's draw of the
// lines there, the other views' move) is done in the click's task
// (`playTaskCpuMs`), and the first frame only paints it. With
// PAGE_BENCH_BASELINE the two builds alternate, one replay each in turn.
// REPLAY_JUMP_MODE=follow times the editor's jump alone
// (ScriptEditor.followLine(1) in a frame, no play). REPLAY_JUMPS (default
// 30) replays a build, at each width of FRAMES_WIDTHS (default 1280, 360).
// Figures go to test-results/replay-jump-bench.json and the console.
import type { Page } from 'playwright-core';
import { it } from 'vitest';
import { FRAME_TRACE_CATEGORIES, frameWorkFromTrace, type FrameWork } from './frame-trace.js';
import { machine, openSites, round, stats, twentyBackends, writeResults } from './page-sites.js';

const N = Number(process.env.REPLAY_JUMPS ?? 30);
const WIDTHS = (process.env.FRAMES_WIDTHS ?? '1280,360').split(',').map(Number);
const FOLLOW = process.env.REPLAY_JUMP_MODE === 'follow';
const MARK = 'slowstart-bench-jump';

it("measures a replay's first frame", async () => {
  const sites = await openSites();
  const results: Record<string, unknown> = { machine: machine(sites.browser), mode: FOLLOW ? 'follow' : 'replay' };
  try {
    for (const width of WIDTHS) {
      const pages: { name: string; page: Page; work: FrameWork[]; frames: FrameWork[][] }[] = [];
      for (const site of sites.baseline ? [sites.ours, sites.baseline] : [sites.ours]) {
        const page = await sites.browser.newPage({ viewport: width < 600 ? { width, height: 740 } : { width, height: 900 } });
        await page.goto(`${site.url}/`);
        await page.locator('.ss-out-row').first().waitFor();
        await page.evaluate((s) => window.slowstartRunner!.setScript(s), twentyBackends());
        await page.waitForFunction(() => !window.slowstartRunner!.playhead.playing, undefined, { timeout: 60_000 });
        pages.push({ name: site.name, page, work: [], frames: [] });
      }
      for (let i = 0; i < N; i++) {
        for (const p of i % 2 ? [...pages].reverse() : pages) {
          // On the last step, laid out and painted, as a learner's Play at the end of a run.
          await p.page.evaluate(async () => {
            const r = window.slowstartRunner!;
            r.playhead.seek(r.playhead.length - 1);
            await new Promise((settled) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(settled, 100))));
          });
          await sites.browser.startTracing(p.page, { categories: FRAME_TRACE_CATEGORIES });
          await p.page.evaluate(
            async ([mark, follow]) => {
              const r = window.slowstartRunner!;
              // Follow: frame 0 jumps the editor. Replay: a task clicks Play (its own
              // window, marked at its start). Then a mark in each of the next three frames.
              await new Promise<void>((done) =>
                follow
                  ? requestAnimationFrame(() => {
                      performance.mark(mark);
                      r.editor.followLine(1);
                      done();
                    })
                  : setTimeout(() => {
                      performance.mark(mark);
                      // The frames' marks armed before the click: first among each frame's callbacks.
                      let k = 0;
                      const next = () => (performance.mark(mark), ++k < 3 ? requestAnimationFrame(next) : done());
                      requestAnimationFrame(next);
                      r.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click();
                    }, 0),
              );
              if (follow) for (let k = 0; k < 3; k++) await new Promise<void>((done) => requestAnimationFrame(() => (performance.mark(mark), done())));
              r.playhead.pause();
            },
            [MARK, FOLLOW] as const,
          );
          const own = frameWorkFromTrace((await sites.browser.stopTracing()).toString('utf8'), MARK);
          if (own.length < 3) continue;
          // The editor's jump alone: its frame. A replay: Play's task (window 0), then
          // the first two frames after it, and the heaviest of those two.
          p.frames.push(own.slice(0, 3));
          p.work.push(FOLLOW ? own[0] : own.slice(1, 3).reduce((a, b) => (b.cpu > a.cpu ? b : a)));
        }
      }
      results[`${width}px`] = Object.fromEntries(
        pages.map((p) => [
          p.name,
          {
            jumps: p.work.length,
            // The heaviest of a replay's first two frames after Play's task (follow: the jump's frame).
            ownCpuMs: stats(p.work.map((w) => w.cpu)),
            // Follow: frames 0-2. Replay: Play's task, then frames 1 and 2.
            framesOwnCpuMedianMs: [0, 1, 2].map((k) => stats(p.frames.map((f) => f[k].cpu)).median),
            playTaskCpuMs: FOLLOW ? undefined : stats(p.frames.map((f) => f[0].cpu)),
            byKindMedianMs: Object.fromEntries((['script', 'style', 'layout', 'paint', 'other'] as const).map((k) => [k, stats(p.work.map((w) => w[k])).median])),
            firstJumpsCpuMs: p.work.slice(0, 3).map((w) => round(w.cpu)),
          },
        ]),
      );
      for (const p of pages) await p.page.close();
    }
  } finally {
    await sites.close();
  }
  await writeResults('replay-jump-bench', results);
  console.log(JSON.stringify(results, null, 2));
});
