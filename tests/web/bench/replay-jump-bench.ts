// A replay's heaviest frame, alone and many times (a benchmark: it measures
// and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts replay-jump
// frames-bench.ts sees a replay's first frames once a 4 s play, three plays
// a run: too few to compare two builds on a loaded machine. Here the
// 20-backend script is put on its last step, then Play is pressed (as the
// Play button does, in a frame's callback) and the replay's first frame,
// the editor's (onRewind: the scroll to the script's top and CodeMirror's
// draw of the lines there, PL-43), is read from a trace with the two after
// it: the page's main thread's CPU time in each (frame-trace.ts, the same
// count as frames-bench's), and the heaviest of the three by kind. With PAGE_BENCH_BASELINE the two builds alternate, one
// replay each in turn. REPLAY_JUMP_MODE=follow times the editor's jump alone
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
              // Frame 0 presses Play (or jumps the editor); a mark in each of the next three frames.
              await new Promise<void>((done) =>
                requestAnimationFrame(() => {
                  performance.mark(mark);
                  if (follow) r.editor.followLine(1);
                  else r.playhead.play();
                  done();
                }),
              );
              for (let k = 0; k < 3; k++) await new Promise<void>((done) => requestAnimationFrame(() => (performance.mark(mark), done())));
              r.playhead.pause();
            },
            [MARK, FOLLOW] as const,
          );
          const own = frameWorkFromTrace((await sites.browser.stopTracing()).toString('utf8'), MARK);
          if (own.length < 3) continue;
          // The editor's jump alone: its frame. A replay: Play's frame, the
          // editor's (the rewind) and the other views' jump, and the heaviest
          // of the three (where the trace puts the rewind's draw, Play's frame
          // or the next, depends on which task runs CodeMirror's scroll handler).
          p.frames.push(own.slice(0, 3));
          p.work.push(FOLLOW ? own[0] : own.slice(0, 3).reduce((a, b) => (b.cpu > a.cpu ? b : a)));
        }
      }
      results[`${width}px`] = Object.fromEntries(
        pages.map((p) => [
          p.name,
          {
            jumps: p.work.length,
            // The heaviest of a replay's first three frames (follow: the jump's frame).
            ownCpuMs: stats(p.work.map((w) => w.cpu)),
            framesOwnCpuMedianMs: [0, 1, 2].map((k) => stats(p.frames.map((f) => f[k].cpu)).median),
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
