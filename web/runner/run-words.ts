// What the runner says about a run and a step, in words: the status line
// after a run, the output panel's count, and the playhead's readout. Pure
// functions of the engine's results.
import type { RunResult, Timeline } from '../api/index.js';
import { formatClock } from './chart-model.js';
import { plural } from '../shared/format.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

/** The status line after a run: its output, or its first rejected line. */
export function runStatus(result: RunResult): { text: string; problem: boolean } {
  const problems = result.diagnostics.length;
  const lines = result.output.length;
  const first = result.diagnostics[0];
  return problems === 0
    ? { text: `Ran: ${plural(lines, 'output line')}, no problems.`, problem: false }
    : { text: `${plural(problems, 'rejected line')} · line ${first.line}: ${first.message}`, problem: true };
}

/** The playhead's readout for `step`: where it is, and what a PICK chose. */
export function describeStep(tl: Timeline, step: number): string {
  const w = tl.stepWinner[step];
  const pick = w === NOT_A_PICK ? '' : ` · PICK → ${w === NO_WINNER ? 'NONE' : tl.names[w]}`;
  return `Step ${step + 1} of ${tl.length} · line ${tl.stepLine[step]} · now ${formatClock(tl.stepNow[step])} s${pick}`;
}
