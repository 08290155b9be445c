// The top of the test results: a progress bar with one segment per test
// (filled in as results arrive), the counts, why the code could not run at
// all (a compile error, a Content-Security-Policy that forbids eval), and
// the mistakes the failing tests point to, across the whole run.
import { h, setText } from '../runner/dom.js';
import type { CompileError } from './client.js';
import type { RunDiagnosis } from './diagnosis.js';
import type { TestState } from './test-list.js';

export interface SummaryActions {
  goToCodeLine(line: number): void;
}

export class RunSummary {
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #actions: SummaryActions;
  readonly #bar: HTMLDivElement;
  readonly #counts: HTMLParagraphElement;
  readonly #banner: HTMLDivElement;
  readonly #diagnosis: HTMLDivElement;
  #segments: HTMLSpanElement[] = [];

  constructor(parent: HTMLElement, actions: SummaryActions) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#actions = actions;
    this.#bar = h(doc, 'div', { class: 'ss-impl-bar', attrs: { 'aria-hidden': 'true' } });
    this.#counts = h(doc, 'p', { class: 'ss-impl-counts', attrs: { role: 'status' } });
    this.#banner = h(doc, 'div', { class: 'ss-impl-banner', attrs: { role: 'alert' } });
    this.#banner.hidden = true;
    this.#diagnosis = h(doc, 'div', { class: 'ss-impl-diagnosis' });
    this.#diagnosis.hidden = true;
    this.element = h(doc, 'div', { class: 'ss-impl-summary-box' }, this.#bar, this.#counts, this.#banner, this.#diagnosis);
    parent.append(this.element);
  }

  /** `count` tests, all in `state`. */
  reset(count: number, state: TestState): void {
    this.#segments = Array.from({ length: count }, () => h(this.#doc, 'span', { class: 'ss-impl-seg' }));
    for (const s of this.#segments) s.dataset.state = state;
    this.#bar.replaceChildren(...this.#segments);
    this.#banner.hidden = true;
    this.#diagnosis.hidden = true;
  }

  setState(index: number, state: TestState): void {
    const s = this.#segments[index];
    if (s) s.dataset.state = state;
  }

  setCounts(text: string): void {
    setText(this.#counts, text);
  }

  /** Why nothing ran. `line`: where in the learner's code, when known. */
  showCompileError(error: CompileError, line: number | undefined): void {
    const doc = this.#doc;
    const title = error.kind === 'worker' ? 'The tests could not run' : 'Your code does not compile';
    const parts: Node[] = [
      h(doc, 'p', { class: 'ss-impl-banner-title', text: title }),
      h(doc, 'p', { class: 'ss-impl-banner-text', text: capitalize(error.message) }),
    ];
    if (line !== undefined) {
      const go = h(doc, 'button', { class: 'ss-btn ss-impl-go', text: `Go to line ${line}`, attrs: { type: 'button' } });
      go.addEventListener('click', () => this.#actions.goToCodeLine(line));
      parts.push(go);
    }
    this.#banner.dataset.kind = error.kind;
    this.#banner.replaceChildren(...parts);
    this.#banner.hidden = false;
    this.#diagnosis.hidden = true;
  }

  /** The mistakes the run points to (diagnosis.ts), most tests first. */
  showDiagnosis(run: RunDiagnosis['run']): void {
    const doc = this.#doc;
    this.#diagnosis.hidden = run.length === 0;
    if (!run.length) return;
    const list = h(doc, 'ul', { class: 'ss-impl-diagnosis-list' });
    for (const { mistake, tests } of run) {
      list.append(
        h(
          doc,
          'li',
          { attrs: { 'data-mistake': mistake.id } },
          h(doc, 'p', { class: 'ss-impl-mistake-title', text: mistake.title }),
          h(doc, 'p', { class: 'ss-impl-mistake-why', text: mistake.why }),
          h(doc, 'p', { class: 'ss-impl-diagnosis-tests', text: `Seen in ${plural(tests.length, 'test')}: ${tests.join(' · ')}` }),
        ),
      );
    }
    this.#diagnosis.replaceChildren(h(doc, 'p', { class: 'ss-impl-mistake-lead', text: 'Looks like:' }), list);
  }
}

export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
