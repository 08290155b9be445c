// An exercise's verdict: the learner's output against the expected lines,
// judged by their first difference (shared/first-difference.ts), and
// whether it is a difference in blanks only (hard to see).
import type { Diagnostic, OutputLine } from '../api/index.js';
import { firstDifference, type ListDifference } from '../shared/first-difference.js';

/** The first output line that differs (shared/first-difference.ts), as text. */
export type LineDifference = ListDifference<string>;

/** True when both lines exist and differ only in spaces and tabs (hard to see). */
export function differsOnlyInBlanks(d: LineDifference): boolean {
  if (d.expected === undefined || d.actual === undefined) return false;
  const squash = (s: string) => s.replace(/[ \t]+/g, ' ').trim();
  return squash(d.expected) === squash(d.actual);
}

/** An exercise's outcome after one run. */
export interface Verdict {
  pass: boolean;
  /** The first output line that differs from the expected output (null when the output matches). */
  difference: LineDifference | null;
  /** The script line that printed the differing actual line (or, when the output ended early, the last one printed). */
  sourceLine: number | null;
  /** The first rejected line: an exercise with one does not pass, even when the output matches. */
  rejected: Diagnostic | null;
}

/**
 * Judges a run against the expected output lines. An output `cut` at the
 * run's cap (RunResult.truncated) never passes, and only a difference
 * within its kept lines is one: where they stop, the output was cut, it
 * did not end.
 */
export function judge(expected: readonly string[], output: readonly OutputLine[], diagnostics: readonly Diagnostic[], cut = false): Verdict {
  const found = firstDifference(
    expected,
    output.map((o) => o.text),
  );
  const difference = cut && found && found.index >= output.length ? null : found;
  let sourceLine: number | null = null;
  if (difference) {
    const at = output[difference.index] ?? output[output.length - 1];
    sourceLine = at ? at.line : null;
  }
  const rejected = diagnostics[0] ?? null;
  return { pass: !cut && !difference && !rejected, difference, sourceLine, rejected };
}
