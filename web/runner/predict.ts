// Predict, then reveal (#26 item 2): the output and the chart after the line
// in question are hidden; the learner types what each WEIGHTS or PICK line
// will print before it shows. A right answer says so; a wrong one is
// answered with the pick panel's explanation of that very line (which
// score, which tie, which weight), since the playhead moves there. Each
// answer goes out as a `slowstart-predict` event (line, prediction, truth),
// so a course page can score them. Retrieval beats re-reading.
import type { OutputLine } from '../api/index.js';
import { h, setText } from '../shared/dom.js';

export interface PredictDetail {
  /** The script line (1-based) whose output was predicted. */
  line: number;
  /** What the learner typed (trimmed). */
  prediction: string;
  /** What the line prints. */
  truth: string;
  /** Equal, spaces aside. */
  correct: boolean;
  /** Which question (0-based) of `total`. */
  index: number;
  total: number;
}

export interface PredictHost {
  /** Shows the first `count` output lines and puts the playhead on the step of `line` (or, `before`, the step before it). */
  reveal(count: number, line: number, before: boolean): void;
  /** The script's text of a line (to ask about it). */
  lineText(line: number): string;
  /** The pick panel's sentence for the step under the playhead (after reveal). */
  explanation(): string;
  /** The event, from the runner's root (it bubbles out of an element's shadow root). */
  emit(detail: PredictDetail): void;
}

/** Spaces do not matter; everything else does (names are case-sensitive). */
export function samePrediction(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().split(/\s+/).join(' ');
  return norm(a) === norm(b);
}

export class PredictPanel {
  readonly element: HTMLElement;
  readonly #host: PredictHost;
  readonly #question: HTMLElement;
  readonly #input: HTMLInputElement;
  readonly #check: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #feedback: HTMLElement;
  readonly #score: HTMLElement;
  #output: readonly OutputLine[] = [];
  #index = 0;
  #right = 0;
  #answered = false;

  constructor(doc: Document, host: PredictHost) {
    this.#host = host;
    this.#question = h(doc, 'p', { class: 'ss-predict-q' });
    this.#input = h(doc, 'input', { class: 'ss-predict-input', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false' } });
    this.#check = h(doc, 'button', { class: 'ss-btn ss-primary', text: 'Check', attrs: { type: 'button' } });
    this.#next = h(doc, 'button', { class: 'ss-btn', text: 'Next line', attrs: { type: 'button' } });
    this.#feedback = h(doc, 'p', { class: 'ss-predict-feedback', attrs: { 'aria-live': 'polite' } });
    this.#score = h(doc, 'span', { class: 'ss-predict-score' });
    const form = h(doc, 'div', { class: 'ss-predict-row' }, this.#input, this.#check, this.#next);
    this.element = h(
      doc,
      'section',
      { class: 'ss-predict', attrs: { 'aria-label': 'Predict, then reveal' } },
      h(doc, 'div', { class: 'ss-predict-head' }, h(doc, 'strong', { text: 'Predict, then reveal' }), this.#score),
      this.#question,
      form,
      this.#feedback,
    );
    this.#check.addEventListener('click', () => this.#answer());
    this.#next.addEventListener('click', () => this.#ask(this.#index + 1));
    this.#input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      if (this.#answered) this.#ask(this.#index + 1);
      else this.#answer();
    });
  }

  /** A new run: from its first output line. */
  start(output: readonly OutputLine[]): void {
    this.#output = output;
    this.#right = 0;
    this.#ask(0);
  }

  #ask(index: number): void {
    const out = this.#output;
    this.#index = index;
    this.#answered = false;
    this.#next.hidden = true;
    setText(this.#feedback, '');
    this.#feedback.removeAttribute('data-verdict');
    setText(this.#score, out.length ? `${Math.min(index, out.length)} of ${out.length} · ${this.#right} right` : '');
    if (index >= out.length) {
      this.#host.reveal(out.length, out.length ? out[out.length - 1].line : 1, false);
      setText(
        this.#question,
        out.length ? `All ${out.length} lines revealed: ${this.#right} of ${out.length} predicted right. Edit the script to try again.` : 'This script prints nothing: add a WEIGHTS or PICK line.',
      );
      this.#input.hidden = this.#check.hidden = true;
      return;
    }
    this.#input.hidden = this.#check.hidden = false;
    const line = out[index].line;
    this.#host.reveal(index, line, true);
    const command = this.#host.lineText(line).trim();
    setText(this.#question, `Line ${line}: ${command}. What does it print?`);
    this.#input.value = '';
    this.#input.setAttribute('aria-label', `What line ${line} prints`);
  }

  #answer(): void {
    if (this.#answered || this.#index >= this.#output.length) return;
    const { line, text: truth } = this.#output[this.#index];
    const prediction = this.#input.value.trim();
    const correct = samePrediction(prediction, truth);
    this.#answered = true;
    if (correct) this.#right++;
    this.#host.reveal(this.#index + 1, line, false);
    const why = correct ? '' : ` ${this.#host.explanation()}`;
    setText(this.#feedback, correct ? `Right: line ${line} prints “${truth}”.` : `Not quite: line ${line} prints “${truth}”${prediction ? `, not “${prediction}”` : ''}.${why}`);
    this.#feedback.dataset.verdict = correct ? 'right' : 'wrong';
    setText(this.#score, `${this.#index + 1} of ${this.#output.length} · ${this.#right} right`);
    this.#next.hidden = false;
    setText(this.#next, this.#index + 1 < this.#output.length ? 'Next line' : 'Finish');
    this.#host.emit({ line, prediction, truth, correct, index: this.#index, total: this.#output.length });
  }
}

export const PREDICT_CSS = /* css */ `
.ss-predict { margin: 0 0 10px; padding: 8px 12px; border: 1px solid var(--ss-border); border-left: 4px solid var(--ss-accent); border-radius: 8px; background: var(--ss-panel); }
.ss-predict-head { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
.ss-predict-score { font-size: 12.5px; color: var(--ss-muted); }
.ss-predict-q { margin: 4px 0 6px; font-family: var(--ss-mono); font-size: 13.5px; overflow-wrap: anywhere; }
.ss-predict-row { display: flex; flex-wrap: wrap; gap: 6px; }
.ss-predict-input { flex: 1 1 12em; min-width: 0; min-height: 32px; padding: 2px 8px; font: 14px var(--ss-mono); color: var(--ss-fg); background: var(--ss-editor-bg); border: 1px solid var(--ss-border); border-radius: 6px; }
.ss-predict-feedback { margin: 6px 0 0; max-width: 75ch; }
.ss-predict-feedback:empty { display: none; }
.ss-predict-feedback[data-verdict="right"] { color: var(--ss-ok, inherit); font-weight: 600; }
.ss-predict-feedback[data-verdict="wrong"]::first-line { font-weight: 600; }
.ss-predicting .ss-transport, .ss-predicting .ss-table-details, .ss-predicting .ss-legend, .ss-predicting .ss-pe-navs { display: none; }
`;
