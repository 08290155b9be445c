// "Your earlier versions (n)": a disclosure listing a learner's earlier
// versions, newest first, each with Restore. The runner's saved work
// (host/script-actions.ts) and the implement mode (implement/view.ts) both
// show one; each says what a version is and what Restore does.
import { h, setText } from './dom.js';

export interface VersionsListOptions {
  /** Classes of the <details>, its list, and the Restore buttons. */
  classes: { details: string; list: string; button: string };
  /** Restore version `index` (newest first). */
  onRestore(index: number): void;
}

export class VersionsList {
  readonly element: HTMLDetailsElement;
  readonly #doc: Document;
  readonly #summary: HTMLElement;
  readonly #list: HTMLOListElement;
  readonly #options: VersionsListOptions;

  constructor(doc: Document, options: VersionsListOptions) {
    this.#doc = doc;
    this.#options = options;
    this.#summary = h(doc, 'summary');
    this.#list = h(doc, 'ol', { class: options.classes.list });
    this.element = h(doc, 'details', { class: options.classes.details }, this.#summary, this.#list);
    this.element.hidden = true;
  }

  /** One description per version, newest first (hidden when there are none). */
  set(descriptions: readonly string[]): void {
    const doc = this.#doc;
    this.element.hidden = descriptions.length === 0;
    setText(this.#summary, `Your earlier versions (${descriptions.length})`);
    this.#list.replaceChildren(
      ...descriptions.map((text, i) => {
        const restore = h(doc, 'button', { class: this.#options.classes.button, text: 'Restore', attrs: { type: 'button' } });
        restore.addEventListener('click', () => this.#options.onRestore(i));
        return h(doc, 'li', {}, h(doc, 'span', { text }), doc.createTextNode(' '), restore);
      }),
    );
  }
}

/** When something was kept: "today at 14:02", "on 3 Dec at 14:02", or "from an earlier visit" (time unknown). */
export function whenKept(at: number): string {
  if (!at) return 'from an earlier visit';
  const date = new Date(at);
  const time = date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  if (date.toDateString() === new Date().toDateString()) return `today at ${time}`;
  return `on ${date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} at ${time}`;
}
