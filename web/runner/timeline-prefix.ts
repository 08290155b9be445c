// The first steps of a run as a Timeline of their own: what predict mode
// gives the chart, the legend, the Table, the pick panel and the playhead,
// so that nothing past the line in question is in the page at all (not
// drawn faint, not hidden by CSS, not in a <title> or a cell): the views
// cannot show, export or leak what they were never given. Views of the
// same arrays (subarray), so a prefix costs no copy.
import { Timeline } from '../api/index.js';

/** Steps 0 … steps − 1 of `t` (clamped to its length); 0 steps gives an empty timeline (length 0). */
export function timelinePrefix(t: Timeline, steps: number): Timeline {
  const n = Math.max(0, Math.min(t.length, Math.floor(steps)));
  if (n === t.length) return t;
  // The blocks (pool snapshots) the kept steps refer to; blocks are numbered in step order.
  const blocks = n > 0 ? t.stepBlock[n - 1] + 1 : 0;
  const cells = blocks < t.blockStart.length ? t.blockStart[blocks] : t.cellBackend.length;
  // Scores may stop before the last step (Timeline.scoredSteps): the change list ends where they do.
  const scored = Math.min(n, t.stepScoresEnd.length);
  const changes = scored > 0 ? t.stepScoresEnd[scored - 1] : 0;
  return Timeline.fromRaw({
    // The names are the script's (every POOL and ADD), not the run's output: kept whole, so the
    // chart's rows and colours stay where they are as lines are revealed.
    names: [...t.names],
    stepLine: t.stepLine.subarray(0, n),
    stepNow: t.stepNow.subarray(0, n),
    stepWinner: t.stepWinner.subarray(0, n),
    stepBlock: t.stepBlock.subarray(0, n),
    blockStart: t.blockStart.subarray(0, blocks),
    cellBackend: t.cellBackend.subarray(0, cells),
    cellUp: t.cellUp.subarray(0, cells),
    cellWeight: t.cellWeight.subarray(0, cells),
    cellScore: t.cellScore.subarray(0, cells),
    stepScoresEnd: t.stepScoresEnd.subarray(0, scored),
    scoreCell: t.scoreCell.subarray(0, changes),
    scoreValue: t.scoreValue.subarray(0, changes),
    scoredSteps: Math.min(t.scoredSteps, n),
    truncated: false,
  });
}
