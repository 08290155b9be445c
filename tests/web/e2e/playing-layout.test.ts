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
// Counts, not times: it holds on a loaded machine. A replay's first frames
// are checked one by one as well: the jump, then a frame left to
// CodeMirror (PL-41), then the play going on with no step skipped.
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
      // The trace did record forced work with stacks (CodeMirror's measure after each of the editor's scrolls).
      expect(forced.length).toBeGreaterThan(0);
      // A CodeMirror transaction reads the DOM selection after its own writes
      // (CodeMirror's way): once a play, when the editor's marked line gives
      // way to the strip that follows the playhead. Nothing else.
      const transactions = ours.filter((s) => s.includes(' < dispatch < '));
      expect(transactions.length).toBeLessThanOrEqual(1);
      expect(ours.filter((s) => !s.includes(' < dispatch < '))).toEqual([]);

      // A replay's frames, one by one (PL-41): the first shows step 0 (the
      // jump back: the output list and the editor scroll to their tops); the
      // second is left to CodeMirror, which draws the script's top lines in
      // its scroll event: the runner's views write nothing in it (a step's
      // move there as well made it a replay's heaviest frame); the third
      // moves on by one frame's time, so no step is skipped.
      await page.evaluate(() => window.slowstartRunner!.playhead.seek(window.slowstartRunner!.playhead.length - 1));
      const frames = await page.evaluate(
        () =>
          new Promise<{ step: number; writes: string[]; time: number; rate: number }[]>((resolve) => {
            const runner = window.slowstartRunner!;
            const slider = document.querySelector<HTMLInputElement>('.ss-transport .ss-scrub')!;
            const where = (n: Node) => {
              const el = n instanceof Element ? n : n.parentElement;
              return el?.closest('.cm-editor') ? 'editor' : `${el?.tagName.toLowerCase()}.${el?.getAttribute('class') ?? ''}`;
            };
            let written: MutationRecord[] = [];
            const observer = new MutationObserver((records) => written.push(...records));
            observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
            // frames[k]: what frame k wrote (read at the start of frame k + 1, first
            // among its callbacks), the step it left, and frame k + 1's time. Frame 0 presses Play.
            const frames: { step: number; writes: string[]; time: number; rate: number }[] = [];
            const rate = Math.min(800, Math.max(3, runner.playhead.length / 15)); // playhead.ts's playRate
            const read = (time: number) => {
              written.push(...observer.takeRecords());
              const writes = [...new Set(written.map((r) => where(r.target)))].filter((w) => w !== 'editor');
              written = [];
              frames.push({ step: Number(slider.value), writes, time, rate });
              if (frames.length < 5) requestAnimationFrame(read);
              else {
                observer.disconnect();
                runner.playhead.pause();
                resolve(frames);
              }
            };
            requestAnimationFrame(() => {
              requestAnimationFrame(read); // before the playhead's own callback in every frame
              runner.playhead.play(); // from the last step: a replay, as the Play button's
            });
          }),
      );
      // Frame 1: the jump back to step 0 moved the views.
      expect(frames[1].step).toBe(0);
      expect(frames[1].writes.length).toBeGreaterThan(0);
      // Frame 2: CodeMirror's; none of the runner's views wrote anything in it.
      expect(frames[2]).toMatchObject({ step: 0, writes: [] });
      // Frame 3: the play goes on from frame 2's time: no step skipped, none
      // counted twice (the playhead's clock: steps = time × rate, at most 0.25 s a frame).
      expect(frames[3].writes.length).toBeGreaterThan(0);
      const elapsed = Math.min(0.25, (frames[2].time - frames[1].time) / 1000);
      expect(frames[3].step).toBe(Math.floor(elapsed * frames[3].rate));
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
