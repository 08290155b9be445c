// While a run plays, the page's step moves nothing that makes the browser lay
// the page out in the middle of a frame (PL-35). Each step scrolls the
// output list and the editor when the playhead's line leaves them; a scroll
// position set after the frame's other writes (the editor's strip, the pick
// view, the rows) made the browser recalculate style and lay those out
// there and then, and again at the frame's end. The test plays a long run
// in Chromium at 1280 and 360 px, records a trace with the JavaScript stack
// of every forced style recalculation and layout, and counts those that a
// step of ours asked for (through the views' public methods, whose names
// survive the build's minifier). CodeMirror's own measure (when the editor
// has scrolled, it reads the DOM selection) is CodeMirror's, not counted.
// Counts, not times: it holds on a loaded machine. A replay's start is
// checked frame by frame as well: Play clicked in a task of its own, as a
// learner's click is, does the jump back to step 0 there (the editor
// scrolled to the script's top with its lines drawn, the other views moved:
// PL-53), the first frame after it moves nothing, and the second moves on
// by one frame's time, with no step skipped. And
// what each frame of a play shows in the editor is a drawn line of the
// script wherever it is in view, never the empty space CodeMirror leaves
// where it has not drawn yet (PL-43: on main at a3b5684-546bcf8, the frame
// of a replay's jump and of every other page the editor scrolled).
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twentyBackends } from '../bench/page-sites.js';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite } from '../support/runner-page.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

// The runner's calls that move the views at each step (playing-line.ts, output-view.ts, ramp-chart.ts, legend.ts, …).
const STEP_CALLS = new Set(['followLine', 'reveal', 'setCurrent', 'setCurrentLine', 'setPlayhead', 'setStep']);

interface TraceEvent {
  name: string;
  ph: string;
  args?: { beginData?: { stackTrace?: { functionName: string }[] } };
}

describe('a run playing', () => {
  for (const width of [1280, 360]) {
    it(`lays nothing out in the middle of a step at ${width} px`, async () => {
      const { page, problems } = await openRunnerPage(site.browser, site.url, { width, height: width < 600 ? 740 : 900 });
      const runner = () => page.evaluate(() => ({ step: window.slowstartRunner!.playhead.step, length: window.slowstartRunner!.playhead.length, playing: window.slowstartRunner!.playhead.playing }));
      await setScript(page, twentyBackends());
      // A new script plays once on its own: wait until it has ended on its last step.
      await expect.poll(async () => { const r = await runner(); return !r.playing && r.length > 500 && r.step === r.length - 1; }, { timeout: 60_000 }).toBe(true);
      await page.locator('.ss-output .ss-out-row').first().waitFor();

      await site.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline.stack'] });
      await page.locator('.ss-transport button[aria-label="Play"]').click(); // a replay from the start
      // Far enough for the editor and the output list to have scrolled several times.
      await expect.poll(async () => (await runner()).step, { timeout: 60_000 }).toBeGreaterThan(250);
      const trace = JSON.parse((await site.browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
      await page.locator('.ss-transport button[aria-label="Pause"]').click();

      const forced = trace.traceEvents.filter((e) => (e.name === 'Layout' || e.name === 'UpdateLayoutTree') && (e.args?.beginData?.stackTrace?.length ?? 0) > 0);
      const said = (e: TraceEvent) => `${e.name} <- ${e.args!.beginData!.stackTrace!.map((f) => f.functionName).join(' < ')}`;
      const ours = forced.filter((e) => e.args!.beginData!.stackTrace!.some((f) => STEP_CALLS.has(f.functionName))).map(said);
      // The trace did record forced work with stacks (CodeMirror's measure after the editor's scrolls).
      expect(forced.length).toBeGreaterThan(0);
      // A CodeMirror transaction reads the DOM selection after its own writes
      // (CodeMirror's way): once a play, when the editor's marked line gives
      // way to the strip that follows the playhead. And CodeMirror told of a
      // scroll past the lines it has drawn (playing-line.ts) draws them and
      // reads the DOM selection: its own measure, first in the step (after
      // the output list's scroll position only, which lays nothing out), as
      // in its scroll event before. Nothing else.
      const transactions = ours.filter((s) => s.includes(' < dispatch < '));
      expect(transactions.length).toBeLessThanOrEqual(1);
      const told = (s: string) => / < onScroll < show < followLine < /.test(s);
      expect(ours.filter((s) => !s.includes(' < dispatch < ') && !told(s))).toEqual([]);

      // A replay's start, one frame at a time (PL-53): Play, clicked in a
      // task of its own (as a learner's click is), moves every view back to
      // step 0 there: the editor scrolled to the script's top, its lines
      // there drawn, and the other views; the first frame after it only
      // paints that; the second moves on by one frame's time, so no step is
      // skipped. (Before PL-53 the jump was spread over the first two
      // frames, the editor's draw alone most of a vsync here: the click's
      // task wrote nothing but the Play button, and the editor had not
      // moved when it ended.)
      // On the last step, laid out and painted (two frames), as a learner's Play at the end of a run.
      await page.evaluate(async () => {
        window.slowstartRunner!.playhead.seek(window.slowstartRunner!.playhead.length - 1);
        await new Promise((settled) => requestAnimationFrame(() => requestAnimationFrame(settled)));
      });
      const { click, frames } = await page.evaluate(
        () =>
          new Promise<{
            click: { step: number; followed: number; scrollTop: number; drawnFrom: number; drawnTo: number; viewTo: number };
            frames: { step: number; writes: string[]; time: number; rate: number; followed: number }[];
          }>((resolve) => {
            const runner = window.slowstartRunner!;
            const view = runner.editor.view;
            // The editor's own nodes: in it, or taken out of it by CodeMirror (a line or a highlighted word it no longer draws).
            const editorNode = (el: Element | null) => !!el?.closest('.cm-editor') || (!el?.isConnected && /(^|\s)(cm-|ͼ)/.test(el?.getAttribute('class') ?? ''));
            const where = (n: Node) => {
              const el = n instanceof Element ? n : n.parentElement;
              return editorNode(el) ? 'editor' : `${el?.tagName.toLowerCase()}.${el?.getAttribute('class') ?? ''}`;
            };
            let written: MutationRecord[] = [];
            const observer = new MutationObserver((records) => written.push(...records));
            observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
            // frames[0]: what Play's task wrote; frames[k]: what frame k after it
            // wrote (read at the start of frame k + 1, first among its
            // callbacks), the step it left, and frame k + 1's time.
            const frames: { step: number; writes: string[]; time: number; rate: number; followed: number }[] = [];
            const rate = Math.min(800, Math.max(3, runner.playhead.length / 15)); // playhead.ts's playRate
            let click: { step: number; followed: number; scrollTop: number; drawnFrom: number; drawnTo: number; viewTo: number };
            const read = (time: number) => {
              written.push(...observer.takeRecords());
              const writes = [...new Set(written.map((r) => where(r.target)))].filter((w) => w !== 'editor');
              written = [];
              frames.push({ step: runner.playhead.step, writes, time, rate, followed: runner.editor.followedLine });
              if (frames.length < 4) requestAnimationFrame(read);
              else {
                observer.disconnect();
                runner.playhead.pause();
                resolve({ click, frames });
              }
            };
            setTimeout(() => {
              requestAnimationFrame(read); // before the playhead's own callback in every frame
              runner.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click(); // from the last step: a replay
              // Where the editor is when the click's task ends: the lines CodeMirror has drawn
              // (its viewport) and the last line in the scroller's view (its height map).
              const scroller = view.scrollDOM;
              click = {
                step: runner.playhead.step,
                followed: runner.editor.followedLine,
                scrollTop: scroller.scrollTop,
                drawnFrom: view.state.doc.lineAt(view.viewport.from).number,
                drawnTo: view.state.doc.lineAt(view.viewport.to).number,
                viewTo: view.lineBlockAtHeight(scroller.scrollTop + scroller.clientHeight - view.documentPadding.top).from,
              };
              click.viewTo = view.state.doc.lineAt(click.viewTo).number;
            }, 0);
          }),
      );
      // Play's task: step 0, the editor at the script's top following step
      // 0's line, with the lines in view drawn; the other views moved.
      expect(click.step).toBe(0);
      expect(click.followed).toBeGreaterThan(0);
      expect(click.scrollTop).toBe(0);
      expect(click.drawnFrom).toBe(1);
      expect(click.drawnTo).toBeGreaterThanOrEqual(click.viewTo);
      expect(frames[0].writes.length).toBeGreaterThan(1); // not the Play button alone
      // Frame 1: nothing moved; it shows step 0.
      expect(frames[1].writes).toEqual([]);
      expect(frames[1].step).toBe(0);
      expect(frames[1].followed).toBe(click.followed);
      // Frame 2: the play goes on from frame 1's time: no step skipped, none
      // counted twice (the playhead's clock: steps = time × rate, at most 0.25 s a frame).
      expect(frames[2].writes.length).toBeGreaterThan(0);
      const elapsed = Math.min(0.25, (frames[1].time - frames[0].time) / 1000);
      expect(frames[2].step).toBe(Math.floor(elapsed * frames[2].rate));

      // What the editor shows in each frame of a replay, as painted: read
      // after the playhead's own callback in the frame (the page's writes of
      // the frame are all done then; a task after the frame, such as
      // CodeMirror's intersection observer's, comes too late for it).
      const shown = await editorInEachFrame(page);
      expect(shown.frames).toBeGreaterThan(30);
      // The editor scrolled (back to the top, then a page at a time) …
      expect(shown.scrolls).toBeGreaterThan(3);
      // … and never showed a place it had not drawn.
      expect(shown.blank).toEqual([]);
      // A frame in which CodeMirror drew its next lines (about every other
      // scroll) moved nothing else but the transport's readout: the chart,
      // legend, table and pick view waited for the next frame, which moved
      // them (PL-55: the two together went over a vsync here). The output
      // list is left out of this count: it draws its rows in its own scroll
      // event's frame, the one after a step scrolled it, which can be a
      // draw's (on main the chart, legend and pick view were written in
      // every draw's frame).
      expect(shown.draws.length).toBeGreaterThan(1);
      for (const d of shown.draws) {
        expect(d.writes, `frame ${d.frame}`).toEqual([]);
        expect(d.nextWrites.length, `frame ${d.frame + 1}`).toBeGreaterThan(0);
      }

      // Play pressed right after a seek to the last step, before CodeMirror's
      // next measure: the seek's scroll to the last line, still pending in it,
      // does not undo the replay's jump to the top (PL-53).
      const afterSeek = await page.evaluate(
        () =>
          new Promise<{ scrollTop: number; height: number; lineTop: number; followed: number }>((resolve) => {
            const r = window.slowstartRunner!;
            const view = r.editor.view;
            r.playhead.seek(r.playhead.length - 1);
            r.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click();
            // The first frame after Play, after the playhead's callback and CodeMirror's measure in it.
            requestAnimationFrame(() => {
              const followed = r.editor.followedLine;
              const lineTop = followed ? view.lineBlockAt(view.state.doc.line(followed).from).top + view.documentPadding.top : -1;
              const shown = { scrollTop: view.scrollDOM.scrollTop, height: view.scrollDOM.clientHeight, lineTop, followed };
              r.playhead.pause();
              resolve(shown);
            });
          }),
      );
      // The editor shows the line it follows (step 0's), near the script's top (without the guard in editor.ts: scrolled to the last line, 13,266 px down at 360 px).
      expect(afterSeek.followed).toBeGreaterThan(0);
      expect(afterSeek.lineTop).toBeGreaterThanOrEqual(afterSeek.scrollTop);
      expect(afterSeek.lineTop).toBeLessThan(afterSeek.scrollTop + afterSeek.height);
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});

describe('a run playing fast through a long script', () => {
  it('moves its views at least every other frame though CodeMirror draws in every frame', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, height: 900 });
    // 12,000 picks two comment lines apart: 800 steps a second (playhead.ts's
    // playRate), about 40 lines a frame, so each frame's step is past the
    // lines CodeMirror drew the frame before.
    const script = ['POOL a=1 b=2', ...Array.from({ length: 12_000 }, (_, i) => `# pick ${i + 1}\n#\nPICK`)].join('\n');
    await setScript(page, script);
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.playhead.length), { timeout: 60_000 }).toBeGreaterThan(12_000);
    await page.evaluate(() => window.slowstartRunner!.playhead.pause());
    const frames = await page.evaluate(
      () =>
        new Promise<{ drew: boolean; chart: boolean }[]>((resolve) => {
          const runner = window.slowstartRunner!;
          const content = document.querySelector('.cm-content')!;
          // The chart's writes (its playhead, clock and caret move in every frame it follows).
          let chartWrites = 0;
          const observer = new MutationObserver((records) => (chartWrites += records.length));
          observer.observe(document.querySelector('.ss-chart')!, { subtree: true, attributes: true, childList: true, characterData: true });
          const ends = () => {
            const lines = content.querySelectorAll(':scope > .cm-line');
            return `${lines[0]?.textContent}|${lines[lines.length - 1]?.textContent}|${lines.length}`;
          };
          const out: { drew: boolean; chart: boolean }[] = [];
          let last = ends();
          const look = () => {
            // Read at the start of the next frame (first among its callbacks): the frame before is all written.
            const now = ends();
            out.push({ drew: now !== last, chart: chartWrites > 0 });
            last = now;
            chartWrites = 0;
            if (out.length < 40 && runner.playhead.playing) requestAnimationFrame(look);
            else {
              observer.disconnect();
              runner.playhead.pause();
              resolve(out.slice(1));
            }
          };
          runner.playhead.seek(0);
          requestAnimationFrame(() =>
            requestAnimationFrame(() => {
              requestAnimationFrame(look); // before the playhead's callback in each frame from here
              runner.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click();
            }),
          );
        }),
    );
    // CodeMirror drew in two frames running (the case this guards) …
    expect(frames.some((f, i) => i > 0 && f.drew && frames[i - 1].drew)).toBe(true);
    // … and the chart moved in at least one of any two frames running.
    const still = frames.flatMap((f, i) => (i > 0 && !f.chart && !frames[i - 1].chart ? [i] : []));
    expect(still).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

/**
 * Replays the run from its last step until step 150 and, in each frame after
 * the playhead's callback, looks at three points of the editor's part in view
 * (top, middle, bottom): what is there must be a line of the script.
 */
type Draw = { frame: number; writes: string[]; nextWrites: string[] };

function editorInEachFrame(page: Page): Promise<{ frames: number; scrolls: number; blank: string[]; draws: Draw[] }> {
  return page.evaluate(
    () =>
      new Promise<{ frames: number; scrolls: number; blank: string[]; draws: Draw[] }>((resolve) => {
        const runner = window.slowstartRunner!;
        const scroller = document.querySelector<HTMLElement>('.cm-scroller')!;
        const content = scroller.querySelector<HTMLElement>('.cm-content')!;
        runner.playhead.seek(runner.playhead.length - 1);
        const blank: string[] = [];
        // Each frame's writes: lines CodeMirror added, and what else was written
        // outside the editor, the transport (its readout and slider) and the output list.
        const draws: Draw[] = [];
        let records: MutationRecord[] = [];
        const observer = new MutationObserver((r) => records.push(...r));
        // The lines drawn: the first and last line elements and their texts (CodeMirror reuses line elements).
        const lineEnds = () => {
          const lines = content.querySelectorAll(':scope > .cm-line');
          const first = lines[0];
          const last = lines[lines.length - 1];
          return [first, last, first?.textContent, last?.textContent, lines.length];
        };
        let ends = lineEnds();
        const since = () => {
          const now = lineEnds();
          const drew = now.some((v, k) => v !== ends[k]);
          ends = now;
          const writes = new Set<string>();
          records.push(...observer.takeRecords());
          const taken = records;
          records = [];
          for (const r of taken) {
            const el = r.target instanceof Element ? r.target : r.target.parentElement;
            if (el?.closest('.cm-editor, .ss-transport, .ss-output') || !el?.isConnected) continue;
            writes.add(`${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''}`);
          }
          return { drew, writes: [...writes] };
        };
        let frames = 0;
        let scrolls = 0;
        let top = scroller.scrollTop;
        const look = () => {
          frames++;
          const { drew, writes } = since();
          const last = draws[draws.length - 1];
          if (last && last.frame === frames - 1) last.nextWrites = writes;
          // Frames 1 and 2 of a replay are its jump's (in Play's task) and the one that moves nothing.
          if (drew && frames > 2) draws.push({ frame: frames, writes, nextWrites: [] });
          if (scroller.scrollTop !== top) scrolls++;
          top = scroller.scrollTop;
          const box = scroller.getBoundingClientRect();
          const text = content.getBoundingClientRect();
          const from = Math.max(box.top, 0) + 8;
          const to = Math.min(box.bottom, innerHeight, text.bottom) - 8;
          for (const y of [from, (from + to) / 2, to]) {
            const hit = document.elementFromPoint(text.left + 8, y);
            if (!hit?.closest('.cm-line')) blank.push(`frame ${frames}, step ${runner.playhead.step}, scrollTop ${Math.round(top)}, y ${Math.round(y - box.top)}: ${hit?.className}`);
          }
          // Registered after the playhead's own callback for the next frame (it registered in this frame's, before this one).
          if (runner.playhead.playing && runner.playhead.step < 150) requestAnimationFrame(look);
          else {
            observer.disconnect();
            runner.playhead.pause();
            resolve({ frames, scrolls, blank, draws: draws.filter((d) => d.frame < frames) });
          }
        };
        // On the last step, laid out and painted (two frames), then Play clicked in a task of its own.
        requestAnimationFrame(() =>
          requestAnimationFrame(() =>
            setTimeout(() => {
              runner.playhead.element.querySelector<HTMLButtonElement>('button[aria-label="Play"]')!.click(); // from the last step: a replay
              observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
              ends = lineEnds();
              requestAnimationFrame(look); // after the playhead's callback in each frame
            }, 0),
          ),
        );
      }),
  );
}
