// What the ramp chart draws, worked out from a Timeline in clock units (no
// pixels), so a resize only re-projects it. Pure functions: no DOM.
import type { Timeline } from '../api/index.js';

export interface ChartModel {
  /** Clock domain shown on the x axis (seconds). */
  xMin: number;
  xMax: number;
  /** Weight domain top (the largest effective weight, at least 1). */
  yMax: number;
  /** Clock of each pool snapshot (block); constant within a block. */
  blockNow: Float64Array;
  /**
   * Where each step goes on the pick lane. Steps that share a clock value
   * (a burst of PICKs at one instant) are laid side by side in script order,
   * step `stepRank[i]` of its burst, each taking `stepSlot[i]` clock units
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

export function buildChartModel(t: Timeline): ChartModel {
  const n = t.length;
  const blockNow = new Float64Array(t.blockStart.length);
  let maxNow = 0;
  let monotonic = true;
  let picks = 0;
  let hasNone = false;
  for (let i = 0; i < n; i++) {
    const now = t.stepNow[i];
    blockNow[t.stepBlock[i]] = now; // every step of a block has the same clock
    if (now > maxNow) maxNow = now;
    if (i > 0 && now < t.stepNow[i - 1]) monotonic = false;
    const w = t.stepWinner[i];
    if (w !== -2) picks++;
    if (w === -1) hasNone = true;
  }
  let yMax = 1;
  for (let c = 0; c < t.cellWeight.length; c++) if (t.cellWeight[c] > yMax) yMax = t.cellWeight[c];

  // The clock starts at 0; leave room after the last value so its weights
  // and picks are drawn over a visible stretch.
  const xMin = 0;
  const xMax = maxNow === 0 ? 1 : maxNow + Math.max(1, Math.ceil(maxNow * 0.08));
  const stepRank = new Uint32Array(n);
  const stepSlot = new Float64Array(n);
  if (monotonic) spreadRuns(t.stepNow, xMax, stepRank, stepSlot);
  else spreadAnyOrder(t.stepNow, xMax, stepRank, stepSlot);
  return { xMin, xMax, yMax, blockNow, stepRank, stepSlot, maxNow, picks, hasNone };
}

/** The common case: the clock never goes back, so equal clocks are runs. */
function spreadRuns(now: Float64Array, end: number, rank: Uint32Array, slot: Float64Array): void {
  const n = now.length;
  for (let a = 0; a < n; ) {
    let b = a + 1;
    while (b < n && now[b] === now[a]) b++;
    const next = b < n ? now[b] : end;
    const size = ((next - now[a]) * SPREAD) / (b - a);
    for (let i = a; i < b; i++) {
      rank[i] = i - a;
      slot[i] = size;
    }
    a = b;
  }
}

/** The clock went backwards somewhere: group by value over the whole run. */
function spreadAnyOrder(now: Float64Array, end: number, rank: Uint32Array, slot: Float64Array): void {
  const n = now.length;
  const count = new Map<number, number>();
  for (let i = 0; i < n; i++) count.set(now[i], (count.get(now[i]) ?? 0) + 1);
  const sorted = [...count.keys()].sort((p, q) => p - q);
  const next = new Map<number, number>();
  for (let k = 0; k < sorted.length; k++) next.set(sorted[k], k + 1 < sorted.length ? sorted[k + 1] : end);
  const seen = new Map<number, number>();
  for (let i = 0; i < n; i++) {
    const v = now[i];
    const k = seen.get(v) ?? 0;
    seen.set(v, k + 1);
    rank[i] = k;
    slot[i] = ((next.get(v)! - v) * SPREAD) / count.get(v)!;
  }
}

/** Round tick values from `min` to `max`, about `count` of them; integers only. */
export function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min;
  if (!(span > 0)) return [min];
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = Math.max(1, (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag);
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) ticks.push(v);
  return ticks;
}

/** Compact tick labels: 950, 12k, 1.5M. */
export function formatTick(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e9) return `${trim(v / 1e9)}G`;
  if (abs >= 1e6) return `${trim(v / 1e6)}M`;
  if (abs >= 1e4) return `${trim(v / 1e3)}k`;
  return String(v);
}

function trim(v: number): string {
  return String(Math.round(v * 10) / 10);
}

/** A clock value for people: whole seconds as they are. */
export function formatClock(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}
