// "Compare with my program": a learner who wrote their own balancer pastes
// what it printed for the script, and sees the first line where it differs
// from the engine (or that the two agree). Pasted text is read like the
// CLI's output: one line per output line, one final newline optional.
import type { OutputLine } from '../api/index.js';
import { h, setText, uniqueId } from '../runner/dom.js';
import { firstDifference } from './compare.js';
import { renderDifference } from './difference-view.js';
import { outputFileLines } from './text.js';

export class CompareBox {
  readonly element: HTMLDetailsElement;
  readonly #doc: Document;
  readonly #input: HTMLTextAreaElement;
  readonly #result: HTMLParagraphElement;
  readonly #details: HTMLDivElement;
  readonly #goToLine: (line: number) => void;
  #output: readonly OutputLine[] | null = null;

  constructor(doc: Document, goToLine: (line: number) => void) {
    this.#doc = doc;
    this.#goToLine = goToLine;
    const id = uniqueId('sse-compare');
    this.#input = h(doc, 'textarea', {
      class: 'sse-paste',
      attrs: { id, rows: '5', spellcheck: 'false', autocomplete: 'off', placeholder: 'a\na\na=5 b=1 c=1 d=0\n…' },
    });
    this.#input.addEventListener('input', () => this.#update());
    this.#result = h(doc, 'p', { class: 'sse-compare-result', attrs: { role: 'status' } });
    this.#details = h(doc, 'div');
    this.element = h(
      doc,
      'details',
      { class: 'sse-disclosure sse-compare' },
      h(doc, 'summary', { text: 'Compare with my program' }),
      h(doc, 'label', { class: 'sse-paste-label', text: 'Paste what your own program printed for this script:', attrs: { for: id } }),
      this.#input,
      this.#result,
      this.#details,
    );
    this.#update();
  }

  /** The engine's output for the current script (null before the first run). */
  setEngineOutput(output: readonly OutputLine[] | null): void {
    this.#output = output;
    this.#update();
  }

  /** What the box holds (for tests and the element's API). */
  get pasted(): string {
    return this.#input.value;
  }

  #update(): void {
    const doc = this.#doc;
    this.#details.replaceChildren();
    const text = this.#input.value;
    const engine = this.#output;
    this.element.dataset.match = '';
    if (text === '') return setText(this.#result, '');
    if (!engine) return setText(this.#result, 'Run the script first: the comparison is with its output.');
    const yours = outputFileLines(text);
    const d = firstDifference(
      engine.map((o) => o.text),
      yours,
    );
    if (!d) {
      this.element.dataset.match = 'yes';
      const n = engine.length;
      return setText(this.#result, `✓ Same output: all ${n} line${n === 1 ? '' : 's'} match.`);
    }
    this.element.dataset.match = 'no';
    const sourceLine = (engine[d.index] ?? engine[engine.length - 1])?.line ?? null;
    setText(this.#result, `✗ Output line ${d.index + 1} differs.`);
    this.#details.append(renderDifference(doc, d, sourceLine, { expected: 'Engine', actual: 'Your program' }, this.#goToLine));
  }
}
