// Predict mode's questions, and how far the page may show the run while
// one is asked. Pure functions of the script's lines and one run's results.
//
// Which lines are asked: every line that prints (WEIGHTS, PICK), unless the
// script marks some with `#?`: a comment line (the language's comments are
// whole lines) whose first token starts with `#?`. Then only the output line
// that comes next after a marker is asked; the other output lines are shown
// as they come, as givens. Text after `#?` is a hint shown with the
// question ("#? who wins the tie?").
//
// How far the page shows the run (the views' "horizon", a number of steps):
// while a PICK line is asked, up to the line before it (the weights and
// scores it works from are givens; its winner is the question); while a
// WEIGHTS line is asked, up to the last line whose output has been shown
// (the weights at the line asked are its answer, and the chart would draw
// them); once answered, up to that line; when every question is answered,
// all of it.
import type { OutputLine, Timeline } from '../api/index.js';
import { NOT_A_PICK } from '../api/winners.js';

/** The marker: a comment line whose first token starts with it asks the next output line. */
export const MARKER = '#?';

export interface Question {
  /** Which output line is asked (0-based). */
  index: number;
  /** Its script line (1-based). */
  line: number;
  /** The marker's text after `#?` (empty without one). */
  hint: string;
}

export interface Questions {
  questions: Question[];
  /** Script lines of markers that ask nothing: no line prints after them. */
  unused: number[];
}

/** A marker line's hint, or null when the line is not a marker (blanks are spaces and tabs, as in the language). */
export function markerHint(text: string): string | null {
  const t = text.replace(/^[ \t]+/, '');
  return t.startsWith(MARKER) ? t.slice(MARKER.length).trim() : null;
}

/**
 * The questions of a run: every output line, or (when any line of the
 * script is a marker) those that a marker precedes. `lines` yields the
 * script's lines in order (an editor's document, a split string).
 */
export function askedLines(lines: Iterable<string>, output: readonly OutputLine[]): Questions {
  const markers: Array<{ line: number; hint: string }> = [];
  let n = 0;
  for (const text of lines) {
    n++;
    // A cheap look first: most lines do not start with '#'.
    if (text.length < 2 || (text[0] !== '#' && text[0] !== ' ' && text[0] !== '\t')) continue;
    const hint = markerHint(text);
    if (hint !== null) markers.push({ line: n, hint });
  }
  if (markers.length === 0) return { questions: output.map((o, index) => ({ index, line: o.line, hint: '' })), unused: [] };
  const questions: Question[] = [];
  let m = 0;
  output.forEach((o, index) => {
    // The markers since the previous output line ask this one (the last one's hint is shown).
    let marked: { line: number; hint: string } | null = null;
    for (; m < markers.length && markers[m].line < o.line; m++) marked = markers[m];
    if (marked) questions.push({ index, line: o.line, hint: marked.hint });
  });
  const unused = markers.slice(m).map((k) => k.line);
  return { questions, unused };
}

/** Where predict mode stands: an output line asked, or answered (null: every question answered). */
export interface PredictAt {
  line: number;
  answered: boolean;
}

/**
 * How many steps of the run the views may show (see the header), or null for
 * all of them. `shown`: output lines shown (those before the question, or
 * through it once answered).
 */
export function revealedSteps(t: Timeline | null, output: readonly OutputLine[], shown: number, at: PredictAt | null): number | null {
  if (!at || !t) return null;
  const stepOf = (line: number) => {
    const step = t.stepAtLine(line);
    return step < 0 ? t.length : step; // a timeline cut before the line: all of it is before
  };
  const step = stepOf(at.line);
  if (at.answered) return Math.min(t.length, step + 1);
  const isPick = step < t.length && t.stepLine[step] === at.line && t.stepWinner[step] !== NOT_A_PICK;
  if (isPick) return step;
  // A WEIGHTS line: as far as the last output line shown.
  return shown > 0 ? Math.min(step, stepOf(output[shown - 1].line) + 1) : 0;
}
