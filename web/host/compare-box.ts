// "Compare with my program": a learner who wrote their own balancer pastes
// what it printed for the script, and sees the first line where it differs
// from the engine (or that the two agree), and, when the output is exactly
// what a classic mistake prints, that mistake, in the implement mode's words
// (the engine's catalogue, through the lab module, loaded on the first
// difference). A weight that is not a whole number comes first, as a problem
// to fix, as in `slowstart grade` (no classic mistake prints one). Pasted
// text is read like the CLI's output: one line per output line, one final
// newline optional. An engine output cut at the run's cap is not judged:
// its end is not the script's. While predict mode holds lines back, the
// box compares nothing (its difference would show the engine's line): it
// says so, and compares once every line is revealed (hold).
import type { Lab, Mistake, OutputLine, WeightProblem } from '../api/index.js';
import { h, setText, uniqueId } from '../shared/dom.js';
import { firstDifference } from '../shared/first-difference.js';
import { renderDifference } from './difference-view.js';
import { outputFileLines } from './text.js';
import { plural } from '../shared/format.js';
import { KEPT_TEXT } from '../runner/run-words.js';

/** What the box says while predict mode holds lines back (CompareBox.hold), on the page and in the element. */
export const PREDICT_HOLDS_COMPARE = 'Predict mode: the comparison opens once every line is revealed (it would show the engine’s output).';

export interface CompareBoxOptions {
  /** Loads the lab module, to name the mistake (none: the box only compares). */
  lab?: () => Promise<Pick<Lab, 'nameMistakes' | 'weightProblem'>>;
}

export class CompareBox {
  readonly element: HTMLDetailsElement;
  readonly #doc: Document;
  readonly #input: HTMLTextAreaElement;
  readonly #result: HTMLParagraphElement;
  readonly #details: HTMLDivElement;
  readonly #mistake: HTMLDivElement;
  readonly #goToLine: (line: number) => void;
  readonly #lab: CompareBoxOptions['lab'];
  #output: readonly OutputLine[] | null = null;
  #cut = false;
  #script = '';
  #version = 0;
  #held: string | null = null;

  constructor(doc: Document, goToLine: (line: number) => void, options: CompareBoxOptions = {}) {
    this.#doc = doc;
    this.#goToLine = goToLine;
    this.#lab = options.lab;
    const id = uniqueId('sse-compare');
    this.#input = h(doc, 'textarea', {
      class: 'sse-paste',
      attrs: { id, rows: '5', spellcheck: 'false', autocomplete: 'off', placeholder: 'a\na\na=5 b=1 c=1 d=0\n…' },
    });
    this.#input.addEventListener('input', () => this.#update());
    this.#result = h(doc, 'p', { class: 'sse-compare-result', attrs: { role: 'status' } });
    this.#details = h(doc, 'div');
    this.#mistake = h(doc, 'div', { class: 'sse-mistake', attrs: { role: 'note' } });
    this.#mistake.hidden = true;
    this.element = h(
      doc,
      'details',
      { class: 'sse-disclosure sse-compare' },
      h(doc, 'summary', { text: 'Compare with my program' }),
      h(doc, 'label', { class: 'sse-paste-label', text: 'Paste what your own program printed for this script:', attrs: { for: id } }),
      this.#input,
      this.#result,
      this.#details,
      this.#mistake,
    );
    this.#update();
  }

  /**
   * The engine's output for the current script (null before the first run),
   * the script, and whether the output was cut (RunResult.truncated).
   */
  setEngineOutput(output: readonly OutputLine[] | null, script = '', cut = false): void {
    this.#output = output;
    this.#script = script;
    this.#cut = cut;
    this.#update();
  }

  /**
   * Compares nothing, and says `reason`, until called with null (predict
   * mode: the engine's output is not the learner's to see yet).
   */
  hold(reason: string | null): void {
    if (reason === this.#held) return;
    this.#held = reason;
    this.#update();
  }

  /** What the box holds (for tests and the element's API). */
  get pasted(): string {
    return this.#input.value;
  }

  #update(): void {
    const doc = this.#doc;
    const version = ++this.#version;
    this.element.setAttribute('aria-busy', 'false');
    this.#details.replaceChildren();
    this.#mistake.replaceChildren();
    this.#mistake.hidden = true;
    const text = this.#input.value;
    const engine = this.#output;
    this.element.dataset.match = '';
    if (this.#held !== null) return setText(this.#result, this.#held);
    if (text === '') return setText(this.#result, '');
    if (!engine) return setText(this.#result, 'Run the script first: the comparison is with its output.');
    if (this.#cut) {
      return setText(
        this.#result,
        `The engine’s output for this script was cut at ${KEPT_TEXT} (the page keeps no more), so it cannot be compared: compare with what the CLI prints for it (slowstart script.txt > engine.txt).`,
      );
    }
    const yours = outputFileLines(text);
    const d = firstDifference(
      engine.map((o) => o.text),
      yours,
    );
    if (!d) {
      this.element.dataset.match = 'yes';
      const n = engine.length;
      return setText(this.#result, `✓ Same output: all ${plural(n, 'line')} match.`);
    }
    this.element.dataset.match = 'no';
    const sourceLine = (engine[d.index] ?? engine[engine.length - 1])?.line ?? null;
    setText(this.#result, `✗ Output line ${d.index + 1} differs.`);
    this.#details.append(renderDifference(doc, d, sourceLine, { expected: 'Engine', actual: 'Your program' }, this.#goToLine));
    void this.#name(version, yours);
  }

  // The mistakes whose output is exactly the pasted one, named once the lab
  // module is there (unless the paste or the script changed meanwhile).
  // The box is aria-busy while it looks.
  async #name(version: number, yours: string[]): Promise<void> {
    if (!this.#lab || !this.#script) return;
    this.element.setAttribute('aria-busy', 'true');
    let mistakes: Mistake[] = [];
    let problem: WeightProblem | null = null;
    try {
      const lab = await this.#lab();
      if (version !== this.#version) return;
      const stdout = yours.map((l) => `${l}\n`).join('');
      problem = lab.weightProblem(this.#script, stdout);
      if (!problem) mistakes = lab.nameMistakes(this.#script, stdout);
    } catch {
      mistakes = []; // the comparison stands on its own
    }
    if (version !== this.#version) return;
    this.element.setAttribute('aria-busy', 'false');
    const doc = this.#doc;
    if (problem) {
      this.#mistake.append(
        h(doc, 'p', { class: 'sse-mistake-lead', text: 'Fix this first:' }),
        h(
          doc,
          'div',
          { attrs: { 'data-problem': 'weight' } },
          h(doc, 'p', { class: 'sse-mistake-title', text: `Output line ${problem.outputLine} has the weight “${problem.weight}”: a weight is a whole number.` }),
          h(doc, 'p', {
            class: 'sse-mistake-why',
            text: 'Weights are computed in whole numbers, the division last and rounded down; a fraction (or NaN) means a division in floating point that was never rounded.',
          }),
        ),
      );
      this.#mistake.hidden = false;
      return;
    }
    if (!mistakes.length) return;
    this.#mistake.append(
      h(doc, 'p', { class: 'sse-mistake-lead', text: mistakes.length > 1 ? 'Looks like one of these:' : 'Looks like:' }),
    );
    for (const m of mistakes) {
      this.#mistake.append(
        h(
          doc,
          'div',
          { attrs: { 'data-mistake': m.id } },
          h(doc, 'p', { class: 'sse-mistake-title', text: m.title }),
          h(doc, 'p', { class: 'sse-mistake-why', text: m.why }),
        ),
      );
    }
    this.#mistake.hidden = false;
  }
}
