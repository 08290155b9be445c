// The runner as a learner types (issue 34), in Node: the wait after a
// keystroke follows what the last run cost (it was a fixed 150 ms), long
// scripts still wait for a pause, and the line being typed is not judged
// until it is complete (the cursor left it, or the learner paused) while
// every other line is. The page itself is tested in Chromium
// (tests/web/e2e/live-typing.test.ts).
import { EditorSelection, EditorState } from '@codemirror/state';
import { describe, expect, it } from 'vitest';
import type { Diagnostic } from '../../../web/api/index.js';
import { LiveRuns, liveWaitMs, MAX_LIVE_WAIT_MS } from '../../../web/runner/live-runs.js';
import { typingHold } from '../../../web/runner/runner.js';

/** A window whose timers run when told, recording each delay asked for. */
function fakeWindow() {
  const timers = new Map<number, { f: () => void; ms: number }>();
  let next = 1;
  const win = {
    setTimeout: (f: () => void, ms: number) => (timers.set(next, { f, ms }), next++),
    clearTimeout: (id: number) => void timers.delete(id),
  } as unknown as Window;
  return {
    win,
    pending: () => [...timers.values()].map((t) => t.ms),
    fire: () => {
      for (const [id, t] of [...timers]) (timers.delete(id), t.f());
    },
  };
}

describe('the wait after a keystroke', () => {
  it('is half as long as the last run cost the page, at most MAX_LIVE_WAIT_MS', () => {
    expect(liveWaitMs(0.4)).toBe(0.2); // a learner's script: at once
    expect(liveWaitMs(20)).toBe(10); // 10,000 lines
    expect(liveWaitMs(300)).toBe(150); // 100,000 lines, in the background
    expect(MAX_LIVE_WAIT_MS).toBe(400);
    expect(liveWaitMs(2_000)).toBe(400); // a million lines still start within 0.4 s of a pause
    expect(liveWaitMs(Number.NaN)).toBe(16); // nothing measured yet: a frame
  });

  it('coalesces a burst of keystrokes into one run, waiting as long as the cost measured last', () => {
    const t = fakeWindow();
    let runs = 0;
    const live = new LiveRuns(t.win, () => runs++);
    live.measured(60);
    live.edited();
    live.edited();
    live.edited();
    expect(t.pending()).toEqual([30]); // each keystroke put the run off; one is waiting
    expect(live.waiting).toBe(true);
    t.fire();
    expect(runs).toBe(1);
    expect(live.waiting).toBe(false);
    live.measured(0.5);
    live.edited();
    expect(t.pending()).toEqual([0.25]);
    live.cancel();
    expect(t.pending()).toEqual([]);
    t.fire();
    expect(runs).toBe(1);
  });

  it('keeps a host’s fixed wait (debounceMs) whatever the cost', () => {
    const t = fakeWindow();
    const live = new LiveRuns(t.win, () => {}, 150);
    live.measured(1);
    live.edited();
    expect(t.pending()).toEqual([150]);
  });
});

const diag = (line: number): Diagnostic => ({ line, message: 'x', from: 0, to: 1 }) as Diagnostic;
const at = (doc: string, line: number, column: number, to = -1) => {
  const state = EditorState.create({ doc });
  const pos = state.doc.line(line).from + column;
  return state.update({ selection: to < 0 ? EditorSelection.cursor(pos) : EditorSelection.range(pos, state.doc.line(line).from + to) }).state;
};

describe('the line being typed is judged once complete', () => {
  const doc = 'POOL a=1\nADD \nPICK';
  it('holds back the problems of the cursor’s line, wherever the cursor is on it ("ADD " with the cursor after the space)', () => {
    expect(typingHold(at(doc, 2, 4), [diag(2)])).toBe(2);
    expect(typingHold(at(doc, 2, 1), [diag(2)])).toBe(2);
  });

  it('holds back only that line: a problem elsewhere is said at once, and with none on the cursor’s line nothing is held', () => {
    expect(typingHold(at(doc, 2, 4), [diag(1), diag(2)])).toBe(2); // line 1's problem is shown (runner: #shownDiagnostics)
    expect(typingHold(at(doc, 3, 4), [diag(2)])).toBe(0); // the cursor left line 2: judged
    expect(typingHold(at(doc, 2, 4), [])).toBe(0);
  });

  it('holds nothing back while text is selected (not typing)', () => {
    expect(typingHold(at(doc, 2, 0, 3), [diag(2)])).toBe(0);
  });
});
