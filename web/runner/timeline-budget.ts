// How much of a run's timeline the runner draws. The engine records up to a
// million steps and four million backend states (timeline.hpp); building a
// chart, a legend and a table from that many takes the page half a second
// or more in one go. A chart is a few hundred pixels wide, so a run made in
// the background keeps the first MAX_STEPS steps and MAX_CELLS states (a
// prefix, flagged `truncated`, which the chart already says), cut in the
// worker so that only that much crosses to the page.
//
// A big pool is narrowed before it is cut: a 100,000-backend POOL makes a
// block of 100,000 states, and a prefix of 200,000 states stopped right
// after it, before any PICK. So when the states do not fit, every step is
// kept, but each block keeps only the backends a person can read: the
// first KEEP_BACKENDS (the chart's, the legend's and the table's), each
// PICK's winner and its TOP_ROWS highest sums, and each PICK's counts over
// the whole pool (pool-facts.ts) so the pick panel can say what it leaves
// out. Only then, if it still does not fit, the prefix is cut.
//
// When the engine cut a timeline for its states, the worker has the lab
// module record it light (cpp/core/timeline.hpp, record_light): past
// 250,000 states its blocks hold only the backends with the first 60 ids,
// and each PICK after such a block the whole pool before it. Such a timeline (`partial`) is always narrowed here, so every view
// knows that its pools are not whole. MAX_STEPS (250,000) lets a pool of
// 100,000 built by ADD lines reach its PICKs.
import { Timeline } from '../api/timeline.js';
import { NOT_A_PICK } from '../api/winners.js';
import type { RawTimeline } from '../wasm/engine.mjs';
import { pickFactsOf, type WirePickFacts } from './pool-facts.js';

export const MAX_STEPS = 250_000;
export const MAX_CELLS = 200_000;

/** The backends every view shows (ids 0 … KEEP_BACKENDS − 1). */
export const KEEP_BACKENDS = 60;
/** The highest sums of each PICK kept beside its winner. */
export const TOP_ROWS = 10;
/** Backends kept for picks' top rows at most (beyond it, a PICK keeps its winner and counts). */
const MAX_KEPT = 2_000;

export interface BudgetedTimeline {
  timeline: RawTimeline;
  /** Per PICK, its counts over the whole pool (only when the pool was narrowed). */
  picks: WirePickFacts | null;
}

/** The timeline within the budget: narrowed to the backends people read when its states do not fit, then a prefix. */
export function budgetTimeline(t: RawTimeline, maxSteps = MAX_STEPS, maxCells = MAX_CELLS): BudgetedTimeline {
  // (A light timeline's light blocks already hold only part of their pools: narrowed, every view knows it.)
  if (t.cellBackend.length <= maxCells && !t.partial) return { timeline: shortenTimeline(t, maxSteps, maxCells), picks: null };
  const { keep, picks } = chooseBackends(t);
  return { timeline: shortenTimeline(narrow(t, keep), maxSteps, maxCells), picks };
}

// Which backends to keep, and every PICK's counts over its whole pool.
function chooseBackends(raw: RawTimeline): { keep: Uint8Array; picks: WirePickFacts } {
  const t = Timeline.fromRaw(raw);
  const keep = new Uint8Array(t.names.length);
  keep.fill(1, 0, Math.min(KEEP_BACKENDS, keep.length));
  let kept = Math.min(KEEP_BACKENDS, keep.length);
  const steps: number[] = [];
  for (let i = 0; i < t.length; i++) if (t.stepWinner[i] !== NOT_A_PICK) steps.push(i);
  const picks = pickFactsOf(t, steps, (id) => {
    if (keep[id] || kept >= MAX_KEPT) return;
    keep[id] = 1;
    kept++;
  });
  for (let i = 0; i < t.length; i++) if (t.stepWinner[i] >= 0 && !keep[t.stepWinner[i]]) keep[t.stepWinner[i]] = 1;
  return { keep, picks };
}

// The same steps with only the kept backends' states (and score changes).
function narrow(t: RawTimeline, keep: Uint8Array): RawTimeline {
  const cells = t.cellBackend.length;
  const newCell = new Int32Array(cells).fill(-1);
  let n = 0;
  for (let c = 0; c < cells; c++) if (keep[t.cellBackend[c]]) newCell[c] = n++;
  const cellBackend = new Uint32Array(n);
  const cellUp = new Uint8Array(n);
  const cellWeight = new Float64Array(n);
  const cellScore = new Float64Array(n);
  for (let c = 0; c < cells; c++) {
    const k = newCell[c];
    if (k < 0) continue;
    cellBackend[k] = t.cellBackend[c];
    cellUp[k] = t.cellUp[c];
    cellWeight[k] = t.cellWeight[c];
    cellScore[k] = t.cellScore[c];
  }
  // A block starts at its first kept cell (or where the next kept cell would go when it keeps none).
  const blocks = t.blockStart.length;
  const blockStart = new Uint32Array(blocks);
  for (let b = blocks - 1, next = n; b >= 0; b--) {
    const end = b + 1 < blocks ? t.blockStart[b + 1] : cells;
    let first = next;
    for (let c = t.blockStart[b]; c < end; c++) if (newCell[c] >= 0) {
      first = newCell[c];
      break;
    }
    blockStart[b] = next = first;
  }
  const scored = t.scoredSteps;
  const stepScoresEnd = new Uint32Array(scored);
  const changes: number[] = [];
  const values: number[] = [];
  for (let i = 0, k = 0; i < scored; i++) {
    for (; k < t.stepScoresEnd[i]; k++) {
      const c = newCell[t.scoreCell[k]];
      if (c < 0) continue;
      changes.push(c);
      values.push(t.scoreValue[k]);
    }
    stepScoresEnd[i] = changes.length;
  }
  return {
    ...t,
    blockStart,
    cellBackend,
    cellUp,
    cellWeight,
    cellScore,
    stepScoresEnd,
    scoreCell: Uint32Array.from(changes),
    scoreValue: Float64Array.from(values),
  };
}

/** The timeline's first steps, within the budget (the same object when it fits). */
export function shortenTimeline(t: RawTimeline, maxSteps = MAX_STEPS, maxCells = MAX_CELLS): RawTimeline {
  const steps = t.stepLine.length;
  const cellsUpTo = (k: number) => {
    // Cells used by steps [0, k): up to the end of the last one's block.
    if (k === 0) return 0;
    const block = t.stepBlock[k - 1];
    return block + 1 < t.blockStart.length ? t.blockStart[block + 1] : t.cellBackend.length;
  };
  let k = Math.min(steps, maxSteps);
  if (cellsUpTo(k) > maxCells) {
    // The most steps whose blocks fit (cells only grow with steps).
    let lo = 0;
    let hi = k;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (cellsUpTo(mid) <= maxCells) lo = mid;
      else hi = mid - 1;
    }
    k = lo;
  }
  if (k === steps) return t;
  const blocks = k === 0 ? 0 : t.stepBlock[k - 1] + 1;
  const cells = cellsUpTo(k);
  const scored = Math.min(t.scoredSteps, k);
  const changes = scored === 0 ? 0 : t.stepScoresEnd[scored - 1];
  return {
    names: t.names,
    stepLine: t.stepLine.slice(0, k),
    stepNow: t.stepNow.slice(0, k),
    stepWinner: t.stepWinner.slice(0, k),
    stepBlock: t.stepBlock.slice(0, k),
    blockStart: t.blockStart.slice(0, blocks),
    cellBackend: t.cellBackend.slice(0, cells),
    cellUp: t.cellUp.slice(0, cells),
    cellWeight: t.cellWeight.slice(0, cells),
    cellScore: t.cellScore.slice(0, cells),
    stepScoresEnd: t.stepScoresEnd.slice(0, scored),
    scoreCell: t.scoreCell.slice(0, changes),
    scoreValue: t.scoreValue.slice(0, changes),
    scoredSteps: scored,
    truncated: true,
  };
}
