import type { RawTimeline } from '../wasm/engine.mjs';
import type { BackendSnapshot, StepWinner } from './types.js';

/**
 * The per-line history of a run, for charts: for each executed line (a
 * "step"), the clock, every backend in the pool with its state and
 * effective weight, and a PICK's winner.
 *
 * Stored as typed arrays (one per column) so that a 10,000-line script costs
 * a few hundred kilobytes, not 10,000 objects per backend.
 */
export class Timeline {
  /** Backend names by id; an id is stable for the whole run. */
  readonly names: readonly string[];
  /** Source line of each step. */
  readonly stepLine: Uint32Array;
  /** Clock (seconds) after each step. */
  readonly stepNow: Float64Array;
  /** Winner id of a PICK step, -1 for NONE, -2 for a step that is not a PICK. */
  readonly stepWinner: Int32Array;
  /** Pool snapshot ("block") each step refers to. */
  readonly stepBlock: Uint32Array;
  /** First cell of each block; a block runs to the next block's start. */
  readonly blockStart: Uint32Array;
  readonly cellBackend: Uint32Array;
  readonly cellUp: Uint8Array;
  readonly cellWeight: Float64Array;
  /** True if the script was too long to record in full (the steps are a prefix). */
  readonly truncated: boolean;

  constructor(raw: RawTimeline) {
    this.names = raw.names;
    this.stepLine = raw.stepLine;
    this.stepNow = raw.stepNow;
    this.stepWinner = raw.stepWinner;
    this.stepBlock = raw.stepBlock;
    this.blockStart = raw.blockStart;
    this.cellBackend = raw.cellBackend;
    this.cellUp = raw.cellUp;
    this.cellWeight = raw.cellWeight;
    this.truncated = raw.truncated;
  }

  /** Number of steps (executed lines). */
  get length(): number {
    return this.stepLine.length;
  }

  /** The pool after step `i`, in pool order. */
  pool(i: number): BackendSnapshot[] {
    const block = this.stepBlock[i];
    const start = this.blockStart[block];
    const end = block + 1 < this.blockStart.length ? this.blockStart[block + 1] : this.cellBackend.length;
    const out: BackendSnapshot[] = [];
    for (let c = start; c < end; c++) {
      const id = this.cellBackend[c];
      out.push({ id, name: this.names[id], up: this.cellUp[c] === 1, weight: this.cellWeight[c] });
    }
    return out;
  }

  /** A PICK step's winner id, `null` for NONE, `undefined` for other steps. */
  winner(i: number): StepWinner {
    const w = this.stepWinner[i];
    return w >= 0 ? w : w === -1 ? null : undefined;
  }

  /** The first step whose source line is `line` or later, or -1. */
  stepAtLine(line: number): number {
    let lo = 0;
    let hi = this.stepLine.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.stepLine[mid] < line) lo = mid + 1;
      else hi = mid;
    }
    return lo < this.stepLine.length ? lo : -1;
  }
}
