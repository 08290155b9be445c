// Predict, then reveal (#26 item 2, #34 item 1): the learner types what a
// WEIGHTS or PICK line will print before it shows. Which lines are asked,
// and how far the page shows the run meanwhile, are predict-questions.ts's;
// the runner gives its views only that much (timeline-prefix.ts), so nothing
// in the page holds a line's output before it is answered. A right answer
// says so; a wrong one opens that line's explanation and brings it into view
// (the pick panel for a PICK; for WEIGHTS, which weights were wrong and the
// rule). Each answer goes out as a `slowstart-predict` event (line,
// prediction, truth), so a course page can score them. Retrieval beats
// re-reading.
//
// The keyboard: Enter checks what is typed. After a reveal the box is
// emptied for the next line: Enter there (with nothing typed) goes on to the
// next line, and typing goes on to it at the first key, keeping what is
// typed, so Enter then checks it. Nothing typed is ever dropped.
import type { OutputLine } from '../api/index.js';
import { h, setText } from '../shared/dom.js';
import { plural } from '../shared/format.js';
import type { PredictAt, Question, Questions } from './predict-questions.js';
import { samePrediction, WEIGHTS_RULE, weightsDifference } from './predict-words.js';

export { samePrediction } from './predict-words.js';

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
  /** How many lines are asked in this run (every WEIGHTS and PICK line, or those marked `#?`). */
  total: number;
}

export interface PredictHost {
  /**
   * Shows the first `shown` output lines, and the run as far as `at` allows
   * (predict-questions.ts revealedSteps): while `at` is asked, up to before
   * it; once answered, up to it; null, all of it.
   */
  reveal(shown: number, at: PredictAt | null): void;
  /** The script's text of a line (to ask about it). */
  lineText(line: number): string;
  /** After a wrong answer to a PICK: opens that pick's explanation, brings it into view, and returns its sentence. */
  explainPick(): string;
  /** The event, from the runner's root (it bubbles out of an element's shadow root). */
  emit(detail: PredictDetail): void;
}

export class PredictPanel {
  readonly element: HTMLElement;
  readonly #host: PredictHost;
  readonly #question: HTMLElement;
  readonly #hint: HTMLElement;
  readonly #row: HTMLElement;
  readonly #input: HTMLInputElement;
  readonly #check: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #again: HTMLButtonElement;
  readonly #feedback: HTMLElement;
  readonly #score: HTMLElement;
  readonly #note: HTMLElement;
  #output: readonly OutputLine[] = [];
  #questions: Question[] = [];
  #at = 0; // the question asked (or just answered)
  #right = 0;
  #answered = false;
  #started = false;

  constructor(doc: Document, host: PredictHost) {
    this.#host = host;
    this.#question = h(doc, 'p', { class: 'ss-predict-q' });
    this.#hint = h(doc, 'p', { class: 'ss-predict-hint' });
    this.#input = h(doc, 'input', { class: 'ss-predict-input', attrs: { type: 'text', autocomplete: 'off', spellcheck: 'false', 'aria-label': 'Your prediction' } });
    this.#check = h(doc, 'button', { class: 'ss-btn ss-primary', text: 'Check', attrs: { type: 'button' } });
    this.#next = h(doc, 'button', { class: 'ss-btn', text: 'Next line', attrs: { type: 'button' } });
    this.#again = h(doc, 'button', { class: 'ss-btn', text: 'Start again', attrs: { type: 'button' } });
    this.#feedback = h(doc, 'p', { class: 'ss-predict-feedback', attrs: { 'aria-live': 'polite' } });
    this.#score = h(doc, 'span', { class: 'ss-predict-score' });
    this.#note = h(doc, 'p', { class: 'ss-predict-note' });
    this.#row = h(doc, 'div', { class: 'ss-predict-row' }, this.#input, this.#check, this.#next, this.#again);
    this.element = h(
      doc,
      'section',
      { class: 'ss-predict', attrs: { 'aria-label': 'Predict, then reveal' } },
      h(doc, 'div', { class: 'ss-predict-head' }, h(doc, 'strong', { text: 'Predict, then reveal' }), this.#score),
      this.#question,
      this.#hint,
      this.#row,
      this.#feedback,
      this.#note,
    );
    this.#check.addEventListener('click', () => this.#answer());
    this.#next.addEventListener('click', () => this.#ask(this.#at + 1, false, true));
    this.#again.addEventListener('click', () => {
      this.#right = 0;
      this.#ask(0, false, true);
      this.#input.focus();
    });
    this.#input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      e.preventDefault();
      if (!this.#answered) this.#answer();
      else if (this.#input.value.trim() === '') this.#ask(this.#at + 1, false, true);
    });
    // Typing after a reveal answers the next line: go on to it, keeping the text.
    this.#input.addEventListener('input', () => {
      if (this.#answered && this.#input.value !== '' && this.#at + 1 < this.#questions.length) this.#ask(this.#at + 1, true);
    });
    this.#waiting();
  }

  /** True once every question of the run is answered (or the run asks none): the whole run may show. */
  get complete(): boolean {
    return this.#started && this.#at >= this.#questions.length;
  }

  /** A new run: its output, and which of its lines are asked. */
  start(output: readonly OutputLine[], asked: Questions): void {
    this.#output = output;
    this.#questions = asked.questions;
    this.#started = true;
    this.#right = 0;
    setText(
      this.#note,
      asked.unused.length
        ? `${asked.unused.length === 1 ? `The #? on line ${asked.unused[0]} asks` : `The #? on lines ${asked.unused.join(', ')} ask`} nothing: no line prints after ${asked.unused.length === 1 ? 'it' : 'them'}.`
        : '',
    );
    this.#ask(0);
  }

  /** Before the first run (an element without `autorun`): what will happen. */
  #waiting(): void {
    this.#started = false;
    setText(this.#question, 'Run the script to start: before each WEIGHTS or PICK line’s output shows, you type what it prints.');
    setText(this.#score, '');
    setText(this.#hint, '');
    this.#row.hidden = true;
  }

  #ask(index: number, keepInput = false, scroll = false): void {
    const questions = this.#questions;
    this.#at = Math.min(index, questions.length);
    this.#answered = false;
    this.#showScore();
    setText(this.#feedback, '');
    this.#feedback.removeAttribute('data-verdict');
    if (this.#at >= questions.length) return this.#finish();
    this.#row.hidden = false;
    this.#input.hidden = this.#check.hidden = false;
    this.#next.hidden = this.#again.hidden = true;
    const { index: out, line, hint } = questions[this.#at];
    this.#host.reveal(out, { line, answered: false });
    setText(this.#question, `Line ${line}: ${this.#host.lineText(line).trim()}. What does it print?`);
    setText(this.#hint, hint);
    if (!keepInput) this.#input.value = '';
    this.#input.placeholder = '';
    this.#input.setAttribute('aria-label', `What line ${line} prints`);
    // Back to the question (a wrong answer scrolled to its explanation); not on a new run (the learner is typing in the editor).
    if (scroll) this.element.scrollIntoView({ block: 'nearest' });
  }

  #answer(): void {
    if (this.#answered || this.#at >= this.#questions.length) return;
    const asked = this.#at;
    const { index: out, line } = this.#questions[asked];
    const truth = this.#output[out].text;
    const prediction = this.#input.value.trim();
    const correct = samePrediction(prediction, truth);
    this.#answered = true;
    if (correct) this.#right++;
    const last = asked + 1 >= this.#questions.length;
    // The last answer completes the run (all of it shows); the playhead stays on the line answered.
    if (last) this.#at = this.#questions.length;
    this.#host.reveal(last ? this.#output.length : out + 1, { line, answered: true });
    let why = '';
    if (!correct) {
      const weights = /^[ \t]*WEIGHTS\b/.test(this.#host.lineText(line));
      why = weights ? `${weightsDifference(prediction, truth)} ${WEIGHTS_RULE}`.trim() : this.#host.explainPick();
    }
    setText(this.#feedback, correct ? `Right: line ${line} prints “${truth}”.` : `Not quite: line ${line} prints “${truth}”${prediction ? `, not “${prediction}”` : ''}.${why ? ` ${why}` : ''}`);
    this.#feedback.dataset.verdict = correct ? 'right' : 'wrong';
    if (last) this.#finish(true);
    else {
      this.#showScore(asked + 1);
      this.#next.hidden = false;
      this.#input.value = '';
      this.#input.placeholder = 'Enter: next line (or type its answer)';
    }
    if (!correct && !/^[ \t]*PICK\b/.test(this.#host.lineText(line))) this.#feedback.scrollIntoView({ block: 'nearest' });
    this.#host.emit({ line, prediction, truth, correct, index: asked, total: this.#questions.length });
  }

  // Every question answered (`justAnswered`: the last one, whose feedback stays), or none to ask.
  #finish(justAnswered = false): void {
    const total = this.#questions.length;
    if (!justAnswered) this.#host.reveal(this.#output.length, null);
    const focused = this.#input.matches(':focus');
    this.#input.hidden = this.#check.hidden = this.#next.hidden = true;
    this.#again.hidden = total === 0;
    this.#row.hidden = total === 0;
    setText(this.#hint, '');
    setText(
      this.#question,
      total
        ? `All ${plural(total, 'line')} answered: ${this.#right} of ${total} right. The whole run shows now.`
        : this.#output.length
          ? 'No line is asked: no #? marker is followed by a line that prints. The whole run shows.'
          : 'This script prints nothing: add a WEIGHTS or PICK line to be asked about it.',
    );
    this.#showScore();
    if (focused) this.#again.focus(); // the box the focus was in is gone
  }

  #showScore(answered = this.#at): void {
    const total = this.#questions.length;
    setText(this.#score, total ? `${Math.min(answered, total)} of ${total} answered · ${this.#right} right` : '');
  }
}

export const PREDICT_CSS = /* css */ `
.ss-predict { margin: 0 0 10px; padding: 8px 12px; border: 1px solid var(--ss-border); border-left: 4px solid var(--ss-accent); border-radius: 8px; background: var(--ss-panel); scroll-margin: 8px; }
.ss-predict-head { display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: baseline; }
.ss-predict-score { font-size: 12.5px; color: var(--ss-muted); }
.ss-predict-q { margin: 4px 0 6px; font-family: var(--ss-mono); font-size: 13.5px; overflow-wrap: anywhere; }
.ss-predict-hint { margin: -2px 0 6px; font-style: italic; }
.ss-predict-hint:empty, .ss-predict-note:empty { display: none; }
.ss-predict-note { margin: 6px 0 0; font-size: 12.5px; color: var(--ss-muted); }
.ss-predict-row { display: flex; flex-wrap: wrap; gap: 6px; }
.ss-predict-row[hidden] { display: none; }
.ss-predict-input { flex: 1 1 12em; min-width: 0; min-height: 32px; padding: 2px 8px; font: 14px var(--ss-mono); color: var(--ss-fg); background: var(--ss-editor-bg); border: 1px solid var(--ss-border); border-radius: 6px; }
.ss-predict-input::placeholder { color: var(--ss-muted); font-family: var(--ss-font); font-size: 13px; }
.ss-predict-feedback { margin: 6px 0 0; max-width: 75ch; scroll-margin: 8px; }
.ss-predict-feedback:empty { display: none; }
.ss-predict-feedback[data-verdict="right"] { color: var(--ss-ok, inherit); font-weight: 600; }
.ss-predict-feedback[data-verdict="wrong"]::first-line { font-weight: 600; }
.ss-predicting .ss-transport { display: none; }
`;
