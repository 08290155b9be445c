// The time axis a group of the lab's charts shares (a run's share chart,
// lanes and incident timeline; the flapping comparison's runs side by side):
// the window of time shown, which the learner zooms and pans, and the
// cursor, the instant under the pointer or the keyboard's focus, which every
// chart of the group marks and whose bucket's numbers the readout says.
// Listeners hear every change; charts redraw their window, and only mark
// the cursor when it alone moved. A new run's extent is a change of its own
// ('extent'): whoever set it is about to draw the new run in every chart, so
// a chart does not first draw its old run in the new window (on the lab's
// four flapping panels that was 25-46 ms in one task while a learner typed);
// one nobody redraws redraws itself a task later (time-frame.ts).

export type AxisChange = 'window' | 'extent' | 'cursor';

/** The narrowest window a zoom goes to, in buckets of the runs shown. */
const MIN_BUCKETS_SHOWN = 8;

export class TimeAxis {
  #min = 0;
  #max = 1;
  #start = 0;
  #end = 1;
  #step = 1; // the finest bucket of the runs shown
  #zoomed = false;
  #cursor: number | null = null;
  readonly #listeners = new Set<(change: AxisChange) => void>();

  /**
   * The whole run, [0, duration], at its finest bucket, for a new run the caller draws next. A zoom
   * the learner chose is kept if it fits the new run. Listeners hear 'extent', and only when the
   * run's length, its bucket or the window shown changed: a keystroke that leaves them as they
   * were redraws nothing twice.
   */
  setExtent(duration: number, bucket: number): void {
    const before = [this.#max, this.#step, this.#start, this.#end];
    this.#max = Math.max(duration, 1e-9);
    this.#step = bucket;
    const keep = this.#zoomed && this.#end <= this.#max;
    if (!keep) [this.#start, this.#end, this.#zoomed] = [this.#min, this.#max, false];
    const after = [this.#max, this.#step, this.#start, this.#end];
    if (after.some((v, i) => v !== before[i])) this.#tell('extent');
  }

  get start(): number {
    return this.#start;
  }
  get end(): number {
    return this.#end;
  }
  get duration(): number {
    return this.#max;
  }
  /** True when a part of the run is shown, not all of it. */
  get zoomed(): boolean {
    return this.#zoomed;
  }

  /** Shows [start, end] (kept inside the run, at least MIN_BUCKETS_SHOWN buckets wide). */
  show(start: number, end: number): void {
    const least = Math.min(this.#max - this.#min, this.#step * MIN_BUCKETS_SHOWN);
    if (end - start < least) {
      const mid = (start + end) / 2;
      [start, end] = [mid - least / 2, mid + least / 2];
    }
    if (start < this.#min) [start, end] = [this.#min, end + (this.#min - start)];
    if (end > this.#max) [start, end] = [Math.max(this.#min, start - (end - this.#max)), this.#max];
    if (start === this.#start && end === this.#end) return;
    this.#start = start;
    this.#end = end;
    this.#zoomed = start > this.#min || end < this.#max;
    this.#tell('window');
  }

  /** Zooms by `factor` (below 1: in) around `at` (default the middle, or the cursor). */
  zoom(factor: number, at = this.#cursor ?? (this.#start + this.#end) / 2): void {
    const span = (this.#end - this.#start) * factor;
    const share = (at - this.#start) / (this.#end - this.#start || 1);
    this.show(at - span * share, at - span * share + span);
  }

  /** Moves the window by `fraction` of its width (negative: earlier). */
  pan(fraction: number): void {
    const d = (this.#end - this.#start) * fraction;
    this.show(this.#start + d, this.#end + d);
  }

  reset(): void {
    this.show(this.#min, this.#max);
  }

  /** The instant marked in every chart of the group, or null. */
  get cursor(): number | null {
    return this.#cursor;
  }
  set cursor(t: number | null) {
    const v = t === null ? null : Math.min(this.#max, Math.max(this.#min, t));
    if (v === this.#cursor) return;
    this.#cursor = v;
    this.#tell('cursor');
  }

  /** Calls `listener` on every change; returns the function that stops it. */
  listen(listener: (change: AxisChange) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  #tell(change: AxisChange): void {
    for (const l of this.#listeners) l(change);
  }
}
