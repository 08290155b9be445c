// What the ramp chart draws, worked out from a Timeline in clock units (no
// pixels), so a resize only re-projects it. Pure functions: no DOM.
import type { Timeline } from '../api/index.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';
import { count } from '../shared/format.js';

/**
 * A stretch of the run in which the clock never goes back. The x axis lays
 * the stretches side by side in script order, so a clock that goes backwards
 * (NOW 10 after NOW 30) starts a new stretch after a marked jump instead of
 * drawing over what came before.
 */
export interface ClockStretch {
  /** First and last clock value (seconds) of the stretch. */
  from: number;
  to: number;
  /** Where it starts on the chart's x scale ("chart seconds", see `stepX`). */
  x0: number;
  /** The first step of the stretch. */
  firstStep: number;
}

export interface ChartModel {
  /** The x scale's domain, in chart seconds: a stretch's clock plus its offset. */
  xMin: number;
  xMax: number;
  /** Weight domain top (the largest effective weight, at least 1). */
  yMax: number;
  /** Each step's position on the x scale (its clock, shifted by its stretch's offset); never decreases. */
  stepX: Float64Array;
  /** The same for each pool snapshot (block); constant within a block. */
  blockX: Float64Array;
  /** The stretches in script order: one, unless the clock goes backwards. */
  stretches: ClockStretch[];
  /** Chart seconds between two stretches (the jump's width); 0 with one stretch. */
  gap: number;
  /**
   * Where each step goes on the pick lane. Steps that share a clock value
   * (a burst of PICKs at one instant) are laid side by side in script order,
   * step `stepRank[i]` of its burst, each taking `stepSlot[i]` x units
   * at most (its share of the gap to the next clock value). The chart caps
   * a slot at a few pixels, so a burst stays next to its clock.
   */
  stepRank: Uint32Array;
  stepSlot: Float64Array;
  /** The largest clock value reached. */
  maxNow: number;
  /** Number of PICK steps, and whether any answered NONE. */
  picks: number;
  hasNone: boolean;
}

/** The share of the gap to the next clock value that a burst may use. */
const SPREAD = 0.9;
/** A jump back in time takes this share of the chart. */
const JUMP_SHARE = 0.1;

export function buildChartModel(t: Timeline): ChartModel {
  const n = t.length;
  let maxNow = 0;
  let picks = 0;
  let hasNone = false;
  // Stretches: a new one wherever the clock goes back.
  const stretches: ClockStretch[] = [];
  for (let i = 0; i < n; i++) {
    const now = t.stepNow[i];
    if (now > maxNow) maxNow = now;
    if (i === 0 || now < t.stepNow[i - 1]) stretches.push({ from: i === 0 ? 0 : now, to: now, x0: 0, firstStep: i });
    else stretches[stretches.length - 1].to = now;
    const w = t.stepWinner[i];
    if (w !== NOT_A_PICK) picks++;
    if (w === NO_WINNER) hasNone = true;
  }
  let span = 0;
  for (const s of stretches) span += s.to - s.from;
  // The jumps share JUMP_SHARE of the chart each, 30 % of it at most.
  const jumps = stretches.length - 1;
  const share = Math.min(0.3, JUMP_SHARE * jumps);
  const gap = jumps > 0 ? Math.max((span * share) / (1 - share) / jumps, span > 0 ? 0 : 1) : 0;
  let x = 0;
  for (const s of stretches) {
    s.x0 = x;
    x += s.to - s.from + gap;
  }
  const stepX = new Float64Array(n);
  const blockX = new Float64Array(t.blockStart.length);
  for (let k = 0, i = 0; k < stretches.length; k++) {
    const s = stretches[k];
    const end = k + 1 < stretches.length ? stretches[k + 1].firstStep : n;
    for (; i < end; i++) {
      stepX[i] = s.x0 + t.stepNow[i] - s.from;
      blockX[t.stepBlock[i]] = stepX[i]; // every step of a block has the same clock
    }
  }
  let yMax = 1;
  for (let c = 0; c < t.cellWeight.length; c++) if (t.cellWeight[c] > yMax) yMax = t.cellWeight[c];

  // The x scale starts at 0; leave room after the last value so its weights
  // and picks are drawn over a visible stretch.
  const last = n > 0 ? stepX[n - 1] : 0;
  const xMin = 0;
  const xMax = last === 0 ? 1 : last + Math.max(1, Math.ceil(last * 0.08));
  const stepRank = new Uint32Array(n);
  const stepSlot = new Float64Array(n);
  spreadRuns(stepX, xMax, stepRank, stepSlot);
  return { xMin, xMax, yMax, stepX, blockX, stretches, gap, stepRank, stepSlot, maxNow, picks, hasNone };
}

/**
 * Predict mode's model of a run's first steps (`part`, timeline-prefix.ts)
 * on the whole run's clock axis (`full`), so nothing moves as lines are
 * revealed: the clocks are the script's NOW lines, not its output. The
 * weights' top, the picks and NONE are the part's own: the whole run's
 * would tell what is still to be predicted.
 */
export function revealedModel(full: ChartModel, part: Timeline): ChartModel {
  const own = buildChartModel(part);
  const n = part.length;
  return {
    ...own,
    xMin: full.xMin,
    xMax: full.xMax,
    stepX: full.stepX.subarray(0, n),
    blockX: full.blockX.subarray(0, part.blockStart.length),
    stretches: full.stretches.filter((s) => s.firstStep < n),
    gap: full.gap,
    stepRank: full.stepRank.subarray(0, n),
    stepSlot: full.stepSlot.subarray(0, n),
    maxNow: full.maxNow,
  };
}

/** Steps at one x position (a burst of PICKs at one instant) are runs: x never decreases. */
function spreadRuns(x: Float64Array, end: number, rank: Uint32Array, slot: Float64Array): void {
  const n = x.length;
  for (let a = 0; a < n; ) {
    let b = a + 1;
    while (b < n && x[b] === x[a]) b++;
    const next = b < n ? x[b] : end;
    const size = ((next - x[a]) * SPREAD) / (b - a);
    for (let i = a; i < b; i++) {
      rank[i] = i - a;
      slot[i] = size;
    }
    a = b;
  }
}

/** A clock value for people: whole seconds as they are, thousands separated (shared/format.ts count). */
export function formatClock(v: number): string {
  return count(Number.isInteger(v) ? v : Number(v.toFixed(1)));
}
