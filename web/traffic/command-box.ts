// A run's command line under its charts: "Copy as command" puts on the
// clipboard the shell lines that reproduce the run (simulate-command.ts:
// the script and `slowstart simulate` with the run's options), and a
// disclosure shows them, so a learner sees how to get the same numbers
// from the CLI (and a colleague can paste them).
import { h, setText } from '../shared/dom.js';
import { copyText } from '../shared/exports.js';
import { simulateCommand } from './simulate-command.js';

const COPY = 'Copy as command';

export class CommandBox {
  readonly element: HTMLElement;
  readonly #code: HTMLElement;
  readonly #copy: HTMLButtonElement;
  #text = '';

  /** `name`: the run's, for the button's accessible name ("Copy No slow start as command"). */
  constructor(doc: Document, name: string) {
    this.#copy = h(doc, 'button', { class: 'ss-btn ss-command-copy', text: COPY, attrs: { type: 'button' } });
    this.#code = h(doc, 'code');
    const shown = h(doc, 'details', { class: 'ss-command-lines' }, h(doc, 'summary', { text: 'Command line' }), h(doc, 'pre', { class: 'ss-command-text', attrs: { tabindex: '0' } }, this.#code));
    this.element = h(doc, 'div', { class: 'ss-command' }, this.#copy, shown);
    this.name = name;
    this.#copy.addEventListener('click', async () => {
      if (!this.#text) return;
      setText(this.#copy, (await copyText(doc, this.#text)) ? 'Copied' : 'Copy not allowed: select the command line');
      if (!this.#copy.textContent!.startsWith('Copied')) shown.open = true;
      doc.defaultView!.setTimeout(() => setText(this.#copy, COPY), 1500);
    });
    this.element.hidden = true;
  }

  set name(name: string) {
    this.#copy.setAttribute('aria-label', `Copy ${name} as a command`);
  }

  /** The run: its script and its `slowstart simulate` arguments. */
  set(script: string, args: readonly string[]): void {
    this.#text = simulateCommand(script, args);
    setText(this.#code, this.#text);
    this.element.hidden = false;
  }

  /** The lines shown and copied. */
  get text(): string {
    return this.#text;
  }
}
