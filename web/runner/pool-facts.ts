// What a PICK did over its whole pool, in numbers a person can read when
// the pool is too big to list: how many backends are in it, how many take
// part and their total weight, the highest sum and how many share it. The
// pick panel lists the top sums only and says how many rows it leaves out.
// Worked out from the timeline (the engine's scores), by a loop: no
// Math.max(...array), which throws past a few hundred thousand arguments.
// A background run of a big pool narrows its timeline to the backends
// people read (timeline-budget.ts); its counts over the whole pool come
// with it (WirePickFacts) and are kept here beside the Timeline.
import { scoresAfter, type Timeline } from '../api/timeline.js';

export interface PickFacts {
  /** Backends in the pool at the pick. */
  poolSize: number;
  /** Those UP with a weight above 0. */
  takingPart: number;
  /** Their weights' sum (what the winner gives back). */
  total: number;
  /** The highest score + weight (−Infinity when nobody takes part). */
  best: number;
  /** How many have it. */
  tied: number;
}

/** Per PICK step (sorted), its facts: what crosses from the worker. */
export interface WirePickFacts {
  step: Uint32Array;
  poolSize: Uint32Array;
  takingPart: Uint32Array;
  total: Float64Array;
  best: Float64Array;
  tied: Uint32Array;
}

/**
 * The facts of each step in `steps` (PICK steps, ascending). `mark` hears
 * each PICK's TOP highest sums (backend ids). A step without its scores
 * before (past the score cap) gets best −Infinity and tied 0.
 */
export function pickFactsOf(t: Timeline, steps: readonly number[], mark: (id: number) => void = () => {}, top = 10): WirePickFacts {
  const n = steps.length;
  const out: WirePickFacts = {
    step: Uint32Array.from(steps),
    poolSize: new Uint32Array(n),
    takingPart: new Uint32Array(n),
    total: new Float64Array(n),
    best: new Float64Array(n),
    tied: new Uint32Array(n),
  };
  const bestIds: number[] = [];
  const bestSums: number[] = [];
  for (let k = 0; k < n; k++) {
    const i = steps[k];
    const block = t.stepBlock[i];
    const start = t.blockStart[block];
    const end = block + 1 < t.blockStart.length ? t.blockStart[block + 1] : t.cellBackend.length;
    const before = i > 0 && t.stepBlock[i - 1] === block ? scoresAfter(t, i - 1) : null;
    let parts = 0;
    let total = 0;
    let best = -Infinity;
    let tied = 0;
    bestIds.length = bestSums.length = 0;
    for (let c = start; c < end; c++) {
      const weight = t.cellWeight[c];
      if (!t.cellUp[c] || !(weight > 0)) continue;
      parts++;
      total += weight;
      if (!before) continue;
      const sum = before[c - start] + weight;
      if (sum > best) {
        best = sum;
        tied = 1;
      } else if (sum === best) tied++;
      // The TOP highest sums, earliest in the pool first among equals (kept sorted: TOP is small).
      if (bestSums.length < top || sum > bestSums[bestSums.length - 1]) {
        let at = bestSums.length;
        while (at > 0 && bestSums[at - 1] < sum) at--;
        bestSums.splice(at, 0, sum);
        bestIds.splice(at, 0, t.cellBackend[c]);
        if (bestSums.length > top) {
          bestSums.pop();
          bestIds.pop();
        }
      }
    }
    for (const id of bestIds) mark(id);
    out.poolSize[k] = end - start;
    out.takingPart[k] = parts;
    out.total[k] = total;
    out.best[k] = before ? best : -Infinity;
    out.tied[k] = before ? tied : 0;
  }
  return out;
}

const kept = new WeakMap<Timeline, WirePickFacts>();

/** Keeps a narrowed timeline's counts over the whole pool beside it. */
export function keepPickFacts(t: Timeline, facts: WirePickFacts): void {
  kept.set(t, facts);
}

/** The counts kept for a narrowed timeline's PICK `step`, or null (the timeline has every backend: count them there). */
export function keptPickFacts(t: Timeline, step: number): PickFacts | null {
  const f = kept.get(t);
  if (!f) return null;
  let lo = 0;
  let hi = f.step.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (f.step[mid] < step) lo = mid + 1;
    else hi = mid;
  }
  if (lo >= f.step.length || f.step[lo] !== step) return null;
  return { poolSize: f.poolSize[lo], takingPart: f.takingPart[lo], total: f.total[lo], best: f.best[lo], tied: f.tied[lo] };
}

/** True when the timeline was narrowed to the backends people read (its pools are not whole). */
export function isNarrowed(t: Timeline): boolean {
  return kept.has(t);
}
