// Comparing two outputs line by line, the way a learner reads them: the
// first line that differs is the one worth looking at (every later line
// usually differs because of it).
import type { Diagnostic, OutputLine } from '../api/index.js';

export interface LineDifference {
  /** 0-based index of the first output line that differs. */
  index: number;
  /** The expected line there; undefined when the expected output ended before. */
  expected: string | undefined;
  /** The actual line there; undefined when the actual output ended before. */
  actual: string | undefined;
}

/** The first line where the two differ, or null when they are equal. */
export function firstDifference(expected: readonly string[], actual: readonly string[]): LineDifference | null {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    if (expected[i] !== actual[i]) return { index: i, expected: expected[i], actual: actual[i] };
  }
  return null;
}

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

/** Judges a run against the expected output lines. */
export function judge(expected: readonly string[], output: readonly OutputLine[], diagnostics: readonly Diagnostic[]): Verdict {
  const difference = firstDifference(
    expected,
    output.map((o) => o.text),
  );
  let sourceLine: number | null = null;
  if (difference) {
    const at = output[difference.index] ?? output[output.length - 1];
    sourceLine = at ? at.line : null;
  }
  const rejected = diagnostics[0] ?? null;
  return { pass: !difference && !rejected, difference, sourceLine, rejected };
}
