// What the runner says about a run and a step, in words: the status line
// after a run, the output panel's count, and the playhead's readout. Pure
// functions of the engine's results.
import type { RunResult, Timeline } from '../api/index.js';
import { formatClock } from './chart-model.js';
import { count, plural } from '../shared/format.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

/**
 * How much text a run keeps, output and diagnostics together (the engine's
 * RunOptions::max_text_bytes): past it the script runs on, but what it
 * prints is dropped and RunResult.truncated is set.
 */
export const KEPT_TEXT = '64 MiB';

/** The status line after a run: its output, or its first rejected line; first of all, that the output was cut. */
export function runStatus(result: RunResult): { text: string; problem: boolean } {
  const problems = result.diagnostics.length;
  const lines = result.output.length;
  const first = result.diagnostics[0];
  const rejected = first ? `${plural(problems, 'rejected line')} · line ${first.line}: ${first.message}` : '';
  if (result.truncated) {
    const shown = lines
      ? `the first ${plural(lines, 'output line')} ${lines === 1 ? 'is' : 'are'} shown (printed up to script line ${result.output[lines - 1].line})`
      : 'no output line is shown';
    const before = rejected ? ` Before the cut: ${rejected}` : '';
    return { text: `Output cut at ${KEPT_TEXT}: ${shown}; the rest of the output, and any line rejected after the cut, is not.${before}`, problem: true };
  }
  return problems === 0
    ? { text: `Ran: ${plural(lines, 'output line')}, no problems.`, problem: false }
    : { text: rejected, problem: true };
}

/** The playhead's readout for `step`: where it is, and what a PICK chose. */
export function describeStep(tl: Timeline, step: number): string {
  const w = tl.stepWinner[step];
  const pick = w === NOT_A_PICK ? '' : ` · PICK → ${w === NO_WINNER ? 'NONE' : tl.names[w]}`;
  return `Step ${count(step + 1)} of ${count(tl.length)} · line ${tl.stepLine[step]} · now ${formatClock(tl.stepNow[step])} s${pick}`;
}
