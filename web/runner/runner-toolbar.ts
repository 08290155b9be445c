// The runner's toolbar: Run (Mod+Enter), Live (run again as you type), the
// Examples menu, the one line of status and "Show problems". The host may
// add its own controls before the status (Runner.addToolbarItems).
import { h, setText } from '../shared/dom.js';
import { modEnterButton } from '../shared/shortcut.js';
import { ExamplesMenu } from './examples-menu.js';
import type { Example } from './examples.js';

export interface RunnerToolbarOptions {
  /** The examples the menu offers ([] leaves the menu out). */
  examples: readonly Example[];
  /** Run was pressed. */
  onRun: () => void;
  /** Live was ticked (true) or unticked. */
  onLive: (live: boolean) => void;
  /** An example was chosen. */
  onExample: (example: Example) => void;
  /** "Show problems" was pressed. */
  onShowProblems: () => void;
}

export class RunnerToolbar {
  readonly element: HTMLDivElement;
  readonly #live: HTMLInputElement;
  readonly #status: HTMLDivElement;
  readonly #problems: HTMLButtonElement;
  readonly #menu: ExamplesMenu | null;

  constructor(doc: Document, options: RunnerToolbarOptions) {
    const toolbar = (this.element = h(doc, 'div', { class: 'ss-toolbar' }));
    const runButton = modEnterButton(doc, 'Run');
    runButton.addEventListener('click', options.onRun);
    this.#live = h(doc, 'input', { attrs: { type: 'checkbox' } });
    this.#live.checked = true;
    this.#live.addEventListener('change', () => options.onLive(this.#live.checked));
    const live = h(doc, 'label', { class: 'ss-check', attrs: { title: 'Run again as you type' } }, this.#live, doc.createTextNode('Live'));
    toolbar.append(runButton, live);
    this.#menu = options.examples.length ? new ExamplesMenu(toolbar, options.examples, options.onExample) : null;
    this.#status = h(doc, 'div', { class: 'ss-status', attrs: { role: 'status' } });
    this.#problems = h(doc, 'button', { class: 'ss-btn ss-problems', text: 'Show problems', attrs: { type: 'button' } });
    this.#problems.hidden = true;
    this.#problems.addEventListener('click', options.onShowProblems);
    toolbar.append(this.#status, this.#problems);
  }

  /** Whether Live is ticked. */
  get live(): boolean {
    return this.#live.checked;
  }

  /** The status line; `problem` colours it as one. */
  setStatus(text: string, problem = false): void {
    setText(this.#status, text);
    this.#status.classList.toggle('ss-status-problem', problem);
  }

  /** Shows "Show problems" while the last run rejected lines. */
  showProblemsButton(show: boolean): void {
    this.#problems.hidden = !show;
  }

  /** Adds controls after Run, Live and Examples (before the status). */
  addItems(...items: Node[]): void {
    this.#status.before(...items);
  }

  /** Puts `item` just before "Show problems" (the background run's progress bar). */
  addBeforeProblems(item: Node): void {
    this.#problems.before(item);
  }

  destroy(): void {
    this.#menu?.destroy();
  }
}
