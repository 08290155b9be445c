// When a live re-run follows an edit. A fixed wait (it was 150 ms) makes a
// learner wait for nothing when the script runs in a millisecond, so the
// wait follows what the last run cost: half as long as that run took
// (LIVE_WAIT_FACTOR × cost), at most MAX_LIVE_WAIT_MS. A script that runs in
// 0.5 ms re-runs at once; the 10,000-line one, about 20 ms a run, 10 ms after
// the last keystroke (its output is painted within 50 ms of the key); keys
// that come faster than that make one run; and a script whose runs take
// the background worker a second waits MAX_LIVE_WAIT_MS, so a word typed at
// speed starts one run, not one per letter. A run never keeps the page
// busy for more than twice the time it leaves free between keystrokes.

/** The wait after a keystroke, as a multiple of what the last run cost. */
export const LIVE_WAIT_FACTOR = 0.5;

/** The longest wait after a keystroke (a script that takes seconds still starts within this). */
export const MAX_LIVE_WAIT_MS = 400;

/** What the first edit waits before any run has been measured. */
const FIRST_WAIT_MS = 16;

/** The wait after a keystroke for a run that last cost `costMs` (the page's share of it). */
export function liveWaitMs(costMs: number): number {
  if (!Number.isFinite(costMs) || costMs < 0) return FIRST_WAIT_MS;
  return Math.min(MAX_LIVE_WAIT_MS, LIVE_WAIT_FACTOR * costMs);
}

export class LiveRuns {
  readonly #win: Window;
  readonly #run: () => void;
  /** A host's fixed wait (RunnerOptions.debounceMs), or null to follow the cost. */
  readonly #fixedMs: number | null;
  #cost = Number.NaN;
  #timer = 0;

  constructor(win: Window, run: () => void, fixedMs: number | null = null) {
    this.#win = win;
    this.#run = run;
    this.#fixedMs = fixedMs;
  }

  /** The wait the next edit gets (ms). */
  get waitMs(): number {
    return this.#fixedMs ?? liveWaitMs(this.#cost);
  }

  /** A run cost the page this long (the engine on the page and the views, or the views alone after a background run plus its time). */
  measured(costMs: number): void {
    this.#cost = costMs;
  }

  /** The text changed: run once the wait after this keystroke has passed (an earlier wait is dropped). */
  edited(): void {
    this.cancel();
    this.#timer = this.#win.setTimeout(() => {
      this.#timer = 0;
      this.#run();
    }, this.waitMs);
  }

  /** True while a run waits for its time. */
  get waiting(): boolean {
    return this.#timer !== 0;
  }

  cancel(): void {
    if (this.#timer) this.#win.clearTimeout(this.#timer);
    this.#timer = 0;
  }
}
