// An exercise's verdict after each run: pass, or fail with the first line
// that differs from the expected output (or the first rejected line), and
// the expected output itself to look at. In predict mode both wait until
// every line is revealed (hold): the expected output is the answers.
import { h, setText, uniqueId } from '../shared/dom.js';
import type { Verdict } from '../host/compare.js';
import { renderDifference } from '../host/difference-view.js';
import { plural } from '../shared/format.js';
import { KEPT_TEXT } from '../runner/run-words.js';

export class ExercisePanel {
  readonly element: HTMLElement;
  readonly #doc: Document;
  readonly #verdict: HTMLParagraphElement;
  readonly #details: HTMLDivElement;
  readonly #expected: readonly string[];
  readonly #expectedList: HTMLPreElement;
  readonly #show: HTMLDetailsElement;
  readonly #goToLine: (line: number) => void;

  constructor(doc: Document, expected: readonly string[], goToLine: (line: number) => void) {
    this.#doc = doc;
    this.#expected = expected;
    this.#goToLine = goToLine;
    const title = h(doc, 'span', { class: 'sse-label', text: 'Exercise', attrs: { id: uniqueId('sse-ex') } });
    this.#verdict = h(doc, 'p', { class: 'sse-verdict-text', attrs: { role: 'status' } });
    this.#details = h(doc, 'div', { class: 'sse-verdict-details' });
    const expectedList = (this.#expectedList = h(doc, 'pre', { class: 'sse-expected' }));
    const lines = expected.length;
    const show = (this.#show = h(
      doc,
      'details',
      { class: 'sse-disclosure' },
      h(doc, 'summary', { text: `Expected output (${plural(lines, 'line')})` }),
      expectedList,
    ));
    this.element = h(
      doc,
      'section',
      { class: 'sse-exercise', attrs: { 'aria-labelledby': title.id, 'data-verdict': 'pending' } },
      h(doc, 'div', { class: 'sse-verdict-head' }, title, this.#verdict),
      this.#details,
      show,
    );
    this.show(null);
  }

  /**
   * Predict mode, lines still held back: no verdict, and the expected output
   * (the answers) out of the page, not only out of sight, until `show`.
   */
  hold(): void {
    this.#details.replaceChildren();
    this.element.dataset.verdict = 'held';
    setText(this.#verdict, 'Predict every line first: the verdict and the expected output show once all are revealed.');
    this.#show.open = false;
    this.#show.hidden = true;
    this.#expectedList.textContent = '';
  }

  /** Shows a run's verdict, or (null) that there has been no run yet; `cut`: the run's output was cut at its cap. */
  show(verdict: Verdict | null, cut = false): void {
    const doc = this.#doc;
    this.#details.replaceChildren();
    this.#show.hidden = false;
    setText(this.#expectedList, this.#expected.join('\n') || '(no output)');
    if (!verdict) {
      this.element.dataset.verdict = 'pending';
      setText(this.#verdict, 'Run the script to check its output against the expected output.');
      return;
    }
    this.element.dataset.verdict = verdict.pass ? 'pass' : 'fail';
    const n = this.#expected.length;
    if (verdict.pass) {
      setText(this.#verdict, `✓ Passed: the output matches the expected ${plural(n, 'line')}.`);
      return;
    }
    if (cut) {
      const where = verdict.difference ? ` Within what was kept, output line ${verdict.difference.index + 1} is not the expected one.` : '';
      setText(this.#verdict, `✗ Not yet: the output passed ${KEPT_TEXT} and was cut, so it cannot be checked against the expected ${plural(n, 'line')}.${where}`);
    }
    if (verdict.difference) {
      if (!cut) setText(this.#verdict, `✗ Not yet: output line ${verdict.difference.index + 1} is not the expected one.`);
      this.#details.append(
        renderDifference(doc, verdict.difference, verdict.sourceLine, { expected: 'Expected', actual: 'Your script' }, this.#goToLine),
      );
    } else if (!cut) {
      setText(this.#verdict, '✗ Not yet: the output matches, but a line was rejected.');
    }
    const rejected = verdict.rejected;
    if (rejected) {
      const go = h(doc, 'button', { class: 'ss-btn sse-small', text: `Go to line ${rejected.line}`, attrs: { type: 'button' } });
      go.addEventListener('click', () => this.#goToLine(rejected.line));
      this.#details.append(
        h(doc, 'p', { class: 'sse-rejected' }, doc.createTextNode(`Line ${rejected.line} was rejected: ${rejected.message} `), go),
      );
    }
  }
}
