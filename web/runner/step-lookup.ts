// Between script lines, timeline steps and output rows: which step the
// learner is looking at from the editor's cursor, which row a step printed,
// and what an output row is (a PICK's winner, NONE, or WEIGHTS). Pure
// functions of one run's results.
import type { OutputLine, Timeline } from '../api/index.js';
import { NOT_A_PICK } from '../api/winners.js';

/** The last step at or before `line`: the state the learner is looking at (0 without a timeline). */
export function stepForLine(tl: Timeline | null, line: number): number {
  if (!tl) return 0;
  const after = tl.stepAtLine(line + 1);
  return after === -1 ? tl.length - 1 : Math.max(0, after - 1);
}

/** The first output row printed at or after `line` (binary search; rows are in line order). */
export function outputIndexAtLine(output: readonly OutputLine[], line: number): number {
  let lo = 0;
  let hi = output.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (output[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What output row `line` printed: its PICK's winner id, NO_WINNER for NONE, NOT_A_PICK for WEIGHTS (or no timeline). */
export function rowKind(tl: Timeline | null, line: number): number {
  if (!tl || line < 0) return NOT_A_PICK;
  const step = tl.stepAtLine(line);
  return step >= 0 && tl.stepLine[step] === line ? tl.stepWinner[step] : NOT_A_PICK;
}
