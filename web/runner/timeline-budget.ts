// How much of a run's timeline the runner draws. The engine records up to a
// million steps and four million backend states (timeline.hpp); building a
// chart, a legend and a table from that many takes the page half a second
// or more in one go. A chart is a few hundred pixels wide, so a run made in
// the background keeps the first MAX_STEPS steps and MAX_CELLS states (a
// prefix, flagged `truncated`, which the chart already says), cut in the
// worker so that only that much crosses to the page.
import type { RawTimeline } from '../wasm/engine.mjs';

export const MAX_STEPS = 100_000;
export const MAX_CELLS = 200_000;

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
