// The page's own work per frame, from a Chromium trace (for frames-bench.ts).
// The bench marks each of its animation frames (performance.mark, which the
// trace records on the page's main thread); the work between two marks is
// everything the renderer's main thread did between them: the page's
// scripts and the style, layout, paint and commit they cause. None of it is
// the compositor's, the raster threads' or the browser process's: what those
// do (and what the machine's other processes take) is the rest of a frame.
// Each figure is said twice: wall time (what the frame waited for) and the
// main thread's CPU time (`tdur`: what the work cost, not counting the time
// the thread was preempted on a loaded machine).

/** One frame's own work (ms): main-thread wall and CPU time, and the wall time by kind. */
export interface FrameWork {
  wall: number;
  cpu: number;
  script: number;
  style: number;
  layout: number;
  paint: number;
  other: number;
  /** The longest few events by self time, for a heavy frame ("name[:function] ms"). */
  top: string[];
}

interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  pid: number;
  tid: number;
  cat?: string;
  args?: { name?: string; data?: { functionName?: string; url?: string; type?: string }; beginData?: { dirtyObjects?: number; totalObjects?: number } };
}

type Kind = 'script' | 'style' | 'layout' | 'paint' | 'other';

// What each main-thread event's self time is: the names Chromium's timeline uses.
const KINDS: [RegExp, Kind][] = [
  [/^(FunctionCall|EvaluateScript|FireAnimationFrame|TimerFire|EventDispatch|RunMicrotasks|FireIdleCallback|XHRReadyStateChange|v8\.|V8\.|MajorGC|MinorGC|BlinkGC|ThreadState::|ResizeObserver|IntersectionObserver|ProfileCall|CompileScript|CompileCode|ParseHTML)/i, 'script'],
  [/^(UpdateLayoutTree|RecalculateStyles|ParseAuthorStyleSheet|ScheduleStyleRecalculation|InvalidateLayout|StyleInvalidator)/, 'style'],
  [/^(Layout|UpdateLayout|ScrollLayer|LocalFrameView::RunPostLifecycleSteps)/, 'layout'],
  [/^(Paint|PrePaint|Layerize|UpdateLayer|UpdateLayerTree|CompositeLayers|Commit|PaintImage|Decode|Rasterize|LocalFrameView::)/, 'paint'],
];

function kindOf(name: string): Kind {
  for (const [re, kind] of KINDS) if (re.test(name)) return kind;
  return 'other';
}

/**
 * The own work of each frame between consecutive marks named `mark` (n marks:
 * n - 1 frames), from the trace's JSON (Playwright's browser.stopTracing()).
 */
export function frameWorkFromTrace(json: string, mark: string): FrameWork[] {
  const events: TraceEvent[] = (JSON.parse(json) as { traceEvents: TraceEvent[] }).traceEvents;
  const marks = events.filter((e) => e.name === mark && (e.cat ?? '').includes('user_timing'));
  if (marks.length < 2) return [];
  const { pid, tid } = marks[0];
  const times = marks.map((m) => m.ts).sort((a, b) => a - b); // moved to their tasks' starts below

  // The main thread's complete events ('X'; 'B'/'E' pairs made complete), nested by time.
  const own: { name: string; ts: number; end: number; tdur: number; fn: string }[] = [];
  const open: TraceEvent[] = [];
  for (const e of events) {
    if (e.pid !== pid || e.tid !== tid) continue;
    // What the event was about: a script's function, an event's type, a layout's dirty/total objects.
    const layout = e.args?.beginData;
    const fn = e.args?.data?.functionName ?? e.args?.data?.type ?? (layout?.totalObjects !== undefined ? `${layout.dirtyObjects}/${layout.totalObjects}` : '');
    if (e.ph === 'X' && e.dur !== undefined) own.push({ name: e.name, ts: e.ts, end: e.ts + e.dur, tdur: e.tdur ?? e.dur, fn });
    else if (e.ph === 'B') open.push(e);
    else if (e.ph === 'E') {
      const b = open.pop();
      if (b) own.push({ name: b.name, ts: b.ts, end: e.ts, tdur: e.ts - b.ts, fn: b.args?.data?.functionName ?? '' });
    }
  }
  own.sort((a, b) => a.ts - b.ts || b.end - a.end);

  // A frame starts where the task that runs its animation frame starts, not
  // at the bench's mark in it: the scroll events a frame dispatches come
  // before its requestAnimationFrame callbacks, in the same task (CodeMirror
  // draws newly scrolled-to lines there). Counted from the mark, that work
  // went to the frame before.
  const tasks: { ts: number; end: number }[] = [];
  for (const e of own) if (!tasks.length || e.ts >= tasks[tasks.length - 1].end) tasks.push({ ts: e.ts, end: e.end });
  const taskStart = (t: number): number => {
    let lo = 0;
    let hi = tasks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (tasks[mid].ts <= t) lo = mid;
      else hi = mid - 1;
    }
    const task = tasks[lo];
    return task && task.ts <= t && t < task.end ? task.ts : t;
  };
  for (let i = 0; i < times.length; i++) times[i] = Math.max(taskStart(times[i]), i > 0 ? times[i - 1] : -Infinity);

  const frames: FrameWork[] = times.slice(1).map(() => ({ wall: 0, cpu: 0, script: 0, style: 0, layout: 0, paint: 0, other: 0, top: [] }));
  const tops: Map<string, number>[] = frames.map(() => new Map());
  // The frame whose window [times[i], times[i + 1]) holds time t, or -1.
  const frameAt = (t: number): number => {
    let lo = 0;
    let hi = times.length - 1;
    if (t < times[0] || t >= times[hi]) return -1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (times[mid] <= t) lo = mid;
      else hi = mid;
    }
    return lo;
  };
  // Adds [from, to) of wall time (and `cpuShare` of it as CPU when top-level) to the frames it spans.
  const spread = (from: number, to: number, add: (i: number, ms: number) => void) => {
    let t = from;
    while (t < to) {
      const i = frameAt(t);
      const next = i < 0 ? (t < times[0] ? Math.min(to, times[0]) : to) : Math.min(to, times[i + 1]);
      if (i >= 0) add(i, (next - t) / 1000);
      t = next;
    }
  };

  // Self time by a stack walk: each event's span less its children's.
  const stack: { name: string; fn: string; end: number; at: number; forced: boolean }[] = [];
  const closeTo = (t: number) => {
    // Accounts the top of the stack's self time from its last mark up to t.
    const top = stack[stack.length - 1];
    if (!top || t <= top.at) return;
    const kind = kindOf(top.name);
    // "forced": style or layout asked for by a script (read in the middle of its writes).
    const label = `${top.forced ? 'forced ' : ''}${top.fn ? `${top.name}:${top.fn}` : top.name}`;
    spread(top.at, t, (i, ms) => {
      frames[i][kind] += ms;
      tops[i].set(label, (tops[i].get(label) ?? 0) + ms);
    });
    top.at = t;
  };
  for (const e of own) {
    while (stack.length && stack[stack.length - 1].end <= e.ts) {
      const done = stack[stack.length - 1];
      closeTo(done.end);
      stack.pop();
      if (stack.length) stack[stack.length - 1].at = done.end;
    }
    closeTo(e.ts);
    if (stack.length === 0) {
      // A top-level task: its wall time, and its CPU time in the same share.
      const wall = e.end - e.ts;
      const cpuShare = wall > 0 ? Math.min(1, e.tdur / wall) : 0;
      spread(e.ts, e.end, (i, ms) => {
        frames[i].wall += ms;
        frames[i].cpu += ms * cpuShare;
      });
    }
    const forced = kindOf(e.name) !== 'script' && stack.some((s) => kindOf(s.name) === 'script');
    stack.push({ name: e.name, fn: e.fn, end: e.end, at: e.ts, forced });
  }
  while (stack.length) {
    const done = stack[stack.length - 1];
    closeTo(done.end);
    stack.pop();
    if (stack.length) stack[stack.length - 1].at = done.end;
  }
  frames.forEach((f, i) => {
    f.top = [...tops[i].entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 6)
      .map(([label, ms]) => `${label} ${ms.toFixed(1)}`);
  });
  return frames;
}

/** The trace categories the attribution needs (few: tracing has its own cost). */
export const FRAME_TRACE_CATEGORIES = ['devtools.timeline', 'blink.user_timing', '__metadata'];
