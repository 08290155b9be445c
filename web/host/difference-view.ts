// Shows one line difference: which output line, which script line printed
// it (with a button that puts the cursor there), and the two versions one
// above the other so the eye can compare them character by character.
import { h } from '../shared/dom.js';
import { count } from '../shared/format.js';
import { differsOnlyInBlanks, type LineDifference } from './compare.js';

export interface DifferenceLabels {
  /** What the expected side is called ("Expected", "Engine"). */
  expected: string;
  /** What the actual side is called ("Your script", "Your program"). */
  actual: string;
}

/** Length of the common start of two strings, never splitting a surrogate pair. */
function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (i > 0 && i < a.length && /[\uD800-\uDBFF]/.test(a[i - 1])) i--;
  return i;
}

/** How much of a long line is shown before the first difference, and from it. */
const SHOWN_BEFORE = 60;
const SHOWN_FROM = 200;

/** `text` cut to `start`..`end` (never inside a surrogate pair), with what is left out said. */
function excerpt(text: string, start: number, end: number): string {
  end = Math.min(end, text.length);
  if (start > 0 && /[\uDC00-\uDFFF]/.test(text[start])) start--;
  if (end < text.length && /[\uD800-\uDBFF]/.test(text[end - 1])) end++;
  const before = start > 0 ? `(${count(start)} more characters) …` : '';
  const after = end < text.length ? `… (${count(text.length - end)} more characters)` : '';
  return `${before}${text.slice(start, end)}${after}`;
}

/**
 * One side of the difference: the line as text, with the part from the
 * first character that differs from the other side marked; or why there
 * is no line. Of a long line (a WEIGHTS line of a big pool) only the
 * characters around the first difference are shown.
 */
function lineCell(doc: Document, line: string | undefined, other: string | undefined): HTMLElement {
  if (line === undefined) return h(doc, 'span', { class: 'sse-absent', text: '(no line here: the output has ended)' });
  if (line === '') return h(doc, 'span', { class: 'sse-absent', text: '(an empty line)' });
  const same = other === undefined ? 0 : commonPrefix(line, other);
  const code = h(doc, 'code', { class: 'sse-line', text: excerpt(line.slice(0, same), Math.max(0, same - SHOWN_BEFORE), same) });
  if (same < line.length) code.append(h(doc, 'mark', { class: 'sse-from-here', text: excerpt(line.slice(same), 0, SHOWN_FROM) }));
  return code;
}

export function renderDifference(
  doc: Document,
  d: LineDifference,
  sourceLine: number | null,
  labels: DifferenceLabels,
  goToLine: (line: number) => void,
): HTMLElement {
  const box = h(doc, 'div', { class: 'sse-diff' });
  const where = h(doc, 'p', { class: 'sse-diff-where' });
  where.append(doc.createTextNode(`Output line ${d.index + 1}`));
  if (sourceLine !== null) {
    const printed = d.actual === undefined && d.expected !== undefined ? 'after the last line printed, by script line' : 'printed by script line';
    where.append(doc.createTextNode(` (${printed} ${sourceLine}) `));
    const go = h(doc, 'button', { class: 'ss-btn sse-small', text: `Go to line ${sourceLine}`, attrs: { type: 'button' } });
    go.addEventListener('click', () => goToLine(sourceLine));
    where.append(go);
  }
  const lines = h(
    doc,
    'dl',
    { class: 'sse-diff-lines' },
    h(doc, 'dt', { text: labels.expected }),
    h(doc, 'dd', {}, lineCell(doc, d.expected, d.actual)),
    h(doc, 'dt', { text: labels.actual }),
    h(doc, 'dd', {}, lineCell(doc, d.actual, d.expected)),
  );
  box.append(where, lines);
  if (differsOnlyInBlanks(d)) box.append(h(doc, 'p', { class: 'sse-diff-note', text: 'They differ only in spaces or tabs.' }));
  return box;
}
