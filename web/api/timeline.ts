import type { RawTimeline } from '../wasm/engine.mjs';
import { NO_WINNER } from './winners.js';

/** A backend's state at one step of the timeline. */
export interface BackendSnapshot {
  /** Stable id for the whole run: an index into {@link Timeline.names}. */
  id: number;
  /** The backend's name. */
  name: string;
  /** False while the backend is DOWN. */
  up: boolean;
  /** Effective weight after the line ran (0 when DOWN). */
  weight: number;
  /**
   * The smooth-WRR score (nginx's "current weight") after the line ran: a
   * signed integer, the engine's own int64. Exact while |score| ≤ 2^53 − 1
   * (`Number.MAX_SAFE_INTEGER`); beyond that it is the nearest double, and
   * `Number.isSafeInteger(score)` is false. `undefined` for steps past the
   * timeline's score cap ({@link Timeline.scoredSteps}).
   */
  score: number | undefined;
}

/** What a PICK step chose: a backend id, `null` for NONE, `undefined` when the step was not a PICK. */
export type StepWinner = number | null | undefined;

/**
 * The per-line history of a run, for charts: for each executed line (a
 * "step"), the clock, every backend in the pool with its state, effective
 * weight and score, and a PICK's winner.
 *
 * Stored as typed arrays (one per column) so that a 10,000-line script costs
 * a few hundred kilobytes, not 10,000 objects per backend. Scores are the
 * engine's own numbers, stored where they change: each pool snapshot
 * ("block") has every backend's score, and each PICK the scores it changed.
 * A run of `run()` keeps only the blocks' scores: a PICK's changes follow
 * from its winner under the SPEC's rules (every participant's score rises by
 * its weight, the winner's falls by their total), so they are worked out
 * when a step's scores are asked for, and the three change columns are
 * built, the same numbers as the engine's, only when first read.
 */
export class Timeline {
  /** Backend names by id; an id is stable for the whole run. */
  readonly names: readonly string[];
  /** Source line of each step. */
  readonly stepLine: Uint32Array;
  /** Clock (seconds) after each step. */
  readonly stepNow: Float64Array;
  /** Winner id of a PICK step, `NO_WINNER` (-1) for NONE, `NOT_A_PICK` (-2) for a step that is not a PICK (winners.ts). */
  readonly stepWinner: Int32Array;
  /** Pool snapshot ("block") each step refers to. */
  readonly stepBlock: Uint32Array;
  /** First cell of each block; a block runs to the next block's start. */
  readonly blockStart: Uint32Array;
  /** Each cell's backend id (an index into {@link Timeline.names}). */
  readonly cellBackend: Uint32Array;
  /** Each cell's state: 1 UP, 0 DOWN. */
  readonly cellUp: Uint8Array;
  /** Each cell's effective weight. */
  readonly cellWeight: Float64Array;
  /** Each cell's score after the step that took its block. */
  readonly cellScore: Float64Array;
  /** Step i changed the scores [stepScoresEnd[i-1], stepScoresEnd[i]) of scoreCell/scoreValue. */
  get stepScoresEnd(): Uint32Array {
    return scoreChanges(this).stepScoresEnd;
  }
  /** A cell (of the step's block) whose score changed... */
  get scoreCell(): Uint32Array {
    return scoreChanges(this).scoreCell;
  }
  /** ...and its new score. */
  get scoreValue(): Float64Array {
    return scoreChanges(this).scoreValue;
  }
  /**
   * Steps 0 … scoredSteps − 1 have scores. A run that changes more than
   * 2,000,000 scores (2,000 PICKs of a 1,000-backend pool) stops recording
   * them there; weights and winners go on.
   */
  readonly scoredSteps: number;
  /** True if the script was too long to record in full (the steps are a prefix). */
  readonly truncated: boolean;

  /** @internal A run's timeline, from the module's columns (the runner's views rebuild one sent from a worker). */
  static fromRaw(raw: RawTimeline): Timeline {
    return new Timeline(raw);
  }

  // Not for users: a run's result carries one (RunResult.timeline).
  private constructor(raw: RawTimeline) {
    this.names = raw.names;
    this.stepLine = raw.stepLine;
    this.stepNow = raw.stepNow;
    this.stepWinner = raw.stepWinner;
    this.stepBlock = raw.stepBlock;
    this.blockStart = raw.blockStart;
    this.cellBackend = raw.cellBackend;
    this.cellUp = raw.cellUp;
    this.cellWeight = raw.cellWeight;
    this.cellScore = raw.cellScore;
    changes.set(this, raw.scoresDerived ? null : { stepScoresEnd: raw.stepScoresEnd, scoreCell: raw.scoreCell, scoreValue: raw.scoreValue });
    this.scoredSteps = raw.scoredSteps;
    this.truncated = raw.truncated;
  }

  /** Number of steps (executed lines). */
  get length(): number {
    return this.stepLine.length;
  }

  /** True when the scores stop before the last step (see {@link scoredSteps}). */
  get scoresTruncated(): boolean {
    return this.scoredSteps < this.length;
  }

  /** The pool after step `i`, in pool order. */
  pool(i: number): BackendSnapshot[] {
    const block = this.stepBlock[i];
    const start = this.blockStart[block];
    const end = blockEnd(this, block);
    const scores = scoresAfter(this, i);
    const out: BackendSnapshot[] = [];
    for (let c = start; c < end; c++) {
      const id = this.cellBackend[c];
      out.push({
        id,
        name: this.names[id],
        up: this.cellUp[c] === 1,
        weight: this.cellWeight[c],
        score: scores ? scores[c - start] : undefined,
      });
    }
    return out;
  }

  /** A PICK step's winner id, `null` for NONE, `undefined` for other steps. */
  winner(i: number): StepWinner {
    const w = this.stepWinner[i];
    return w >= 0 ? w : w === NO_WINNER ? null : undefined;
  }

  /** The first step whose source line is `line` or later, or -1. */
  stepAtLine(line: number): number {
    const step = lowerBound(this.stepLine, line);
    return step < this.stepLine.length ? step : -1;
  }
}

// Kept outside the class (which has no private members, so that two copies
// of the package's types stay compatible): the scores of the last step
// asked for, per timeline, so that walking forward through a block
// (playing, a table's rows) applies each change once.
interface Cursor {
  block: number;
  step: number;
  scores: Float64Array;
}
const cursors = new WeakMap<Timeline, Cursor>();

// Each timeline's score changes: as the module gave them, or null while they
// are to be worked out from the winners (built on first read).
interface ScoreChanges {
  stepScoresEnd: Uint32Array;
  scoreCell: Uint32Array;
  scoreValue: Float64Array;
}
const changes = new WeakMap<Timeline, ScoreChanges | null>();

/** @internal True when `t`'s scores are worked out from its winners (a run of the engine module). */
export function scoresDerived(t: Timeline): boolean {
  return changes.get(t) === null;
}

function scoreChanges(t: Timeline): ScoreChanges {
  let c = changes.get(t);
  if (!c) {
    c = deriveChanges(t);
    changes.set(t, c);
  }
  return c;
}

// The change lists the engine would have recorded (cpp/core/timeline.cpp's
// record_scores): per PICK, each participant whose score changed, in pool
// order. Only for a reader of the columns themselves; the views use scoresAfter.
function deriveChanges(t: Timeline): ScoreChanges {
  const ends = new Uint32Array(t.length); // (steps past the score cap change none)
  const cells: number[] = [];
  const values: number[] = [];
  let block = -1;
  let scores = new Float64Array(0);
  let start = 0;
  for (let i = 0; i < t.length; i++) {
    if (i >= t.scoredSteps) {
      ends[i] = cells.length;
      continue;
    }
    if (t.stepBlock[i] !== block) {
      block = t.stepBlock[i];
      start = t.blockStart[block];
      scores = t.cellScore.slice(start, blockEnd(t, block));
    } else {
      applyPick(t, i, start, scores, (k, value) => {
        cells.push(start + k);
        values.push(value);
      });
    }
    ends[i] = cells.length;
  }
  return { stepScoresEnd: ends, scoreCell: Uint32Array.from(cells), scoreValue: Float64Array.from(values) };
}

// Step i's PICK (if it is one, and has a winner) applied to its block's
// `scores` under the SPEC's rules: each participant (UP, weight > 0) gains
// its weight, the winner loses the participants' total. `changed` hears of
// each score that moved, in pool order.
function applyPick(t: Timeline, i: number, start: number, scores: Float64Array, changed?: (k: number, value: number) => void): void {
  const winner = t.stepWinner[i];
  if (winner < 0) return; // not a PICK, or NONE: nothing changes
  let total = 0;
  let won = -1;
  for (let k = 0; k < scores.length; k++) {
    const c = start + k;
    if (t.cellUp[c] !== 1 || !(t.cellWeight[c] > 0)) continue;
    total += t.cellWeight[c];
    if (t.cellBackend[c] === winner) won = k;
  }
  for (let k = 0; k < scores.length; k++) {
    const c = start + k;
    if (t.cellUp[c] !== 1 || !(t.cellWeight[c] > 0)) continue;
    const value = scores[k] + t.cellWeight[c] - (k === won ? total : 0);
    if (value === scores[k]) continue;
    scores[k] = value;
    changed?.(k, value);
  }
}

function blockEnd(t: Timeline, block: number): number {
  return block + 1 < t.blockStart.length ? t.blockStart[block + 1] : t.cellBackend.length;
}

/**
 * @internal For the runner's views, which walk cells without building
 * objects: step i's scores in its block's cell order (cell blockStart[b] + k
 * is k), or null past the score cap. The block's scores, then the changes of
 * its steps up to i (steps of a block are consecutive). The array is reused
 * by the next call: read it at once.
 */
export function scoresAfter(t: Timeline, i: number): Float64Array | null {
  if (!(i >= 0 && i < t.scoredSteps)) return null;
  const block = t.stepBlock[i];
  const start = t.blockStart[block];
  let c = cursors.get(t);
  if (!c || c.block !== block || c.step > i) {
    c = { block, step: firstStepOf(t, block) - 1, scores: t.cellScore.slice(start, blockEnd(t, block)) };
    cursors.set(t, c);
  }
  const given = changes.get(t);
  // (The block's own first step is already in its scores.)
  if (!given) for (let s = Math.max(c.step + 1, firstStepOf(t, block) + 1); s <= i; s++) applyPick(t, s, start, c.scores);
  else {
    for (let s = c.step + 1; s <= i; s++) {
      for (let k = s > 0 ? given.stepScoresEnd[s - 1] : 0; k < given.stepScoresEnd[s]; k++) {
        c.scores[given.scoreCell[k] - start] = given.scoreValue[k];
      }
    }
  }
  c.step = i;
  return c.scores;
}

// Blocks are numbered in step order, so stepBlock never decreases.
function firstStepOf(t: Timeline, block: number): number {
  return lowerBound(t.stepBlock, block);
}

/** The first index of a sorted array whose value is `value` or more. */
function lowerBound(sorted: Uint32Array, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
