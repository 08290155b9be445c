// The Examples menu: a <details> disclosure with one button per example, so
// it works with the keyboard (Enter/Space on the summary, Tab or the arrow
// keys through the items, Escape closes) without any ARIA menu emulation. The list opens
// under its button but never past the toolbar's edges: on a phone it would
// otherwise hang off the screen (and, in a course page's element, make the
// whole page scroll sideways).
import { h } from '../shared/dom.js';
import type { Example } from './examples.js';

export class ExamplesMenu {
  readonly element: HTMLDetailsElement;
  readonly #doc: Document;
  readonly #bar: HTMLElement;
  readonly #list: HTMLUListElement;
  // A press anywhere else closes the menu, as with any menu.
  readonly #onOutside = (e: Event) => {
    if (this.element.open && !e.composedPath().includes(this.element)) this.close();
  };

  constructor(parent: HTMLElement, examples: readonly Example[], onPick: (example: Example) => void) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#bar = parent;
    const summary = h(doc, 'summary', { class: 'ss-btn', text: 'Examples' });
    const list = (this.#list = h(doc, 'ul', { class: 'ss-menu-list', attrs: { 'aria-label': 'Examples' } }));
    for (const example of examples) {
      const button = h(
        doc,
        'button',
        { class: 'ss-menu-item', attrs: { type: 'button', 'data-example': example.id } },
        h(doc, 'span', { class: 'ss-menu-title', text: example.title }),
        h(doc, 'span', { class: 'ss-menu-summary', text: example.summary }),
      );
      button.addEventListener('click', () => {
        this.close();
        summary.focus();
        onPick(example);
      });
      list.append(h(doc, 'li', {}, button));
    }
    this.element = h(doc, 'details', { class: 'ss-menu' }, summary, list);
    parent.append(this.element);

    // Placed as the press opens it, before it is first drawn (the toggle
    // event comes a task later: a frame could show it misplaced), and again
    // on toggle for any other way of opening it.
    summary.addEventListener('click', () => {
      if (!this.element.open) this.#place();
    });
    this.element.addEventListener('toggle', () => {
      if (this.element.open) this.#place();
    });
    this.element.addEventListener('keydown', (e) => {
      if (e.key === 'Escape' && this.element.open) {
        e.preventDefault();
        this.close();
        summary.focus();
        return;
      }
      // Arrow keys, Home and End move between the items, as in any menu (Tab still works);
      // Down on the closed menu's button opens it at its first item.
      const items = [...this.#list.querySelectorAll<HTMLButtonElement>('.ss-menu-item')];
      const at = items.indexOf(e.target as HTMLButtonElement);
      const next =
        e.key === 'ArrowDown' ? (at + 1) % items.length
        : e.key === 'ArrowUp' ? (at <= 0 ? items.length - 1 : at - 1)
        : e.key === 'Home' && at >= 0 ? 0
        : e.key === 'End' && at >= 0 ? items.length - 1
        : -1;
      if (next < 0 || !items.length) return;
      e.preventDefault();
      if (!this.element.open) {
        this.#place();
        this.element.open = true;
      }
      items[next].focus();
    });
    doc.addEventListener('pointerdown', this.#onOutside);
  }

  // Up to 360 px wide, under the button, shifted left as far as needed to
  // end at the toolbar's right edge (CSSOM styles: allowed by a strict CSP).
  #place(): void {
    const bar = this.#bar.getBoundingClientRect();
    const menu = this.element.getBoundingClientRect();
    const width = Math.min(360, bar.width);
    const left = Math.max(bar.left - menu.left, Math.min(0, bar.right - width - menu.left));
    this.#list.style.setProperty('width', `${width}px`);
    this.#list.style.setProperty('left', `${left}px`);
  }

  close(): void {
    this.element.open = false;
  }

  destroy(): void {
    this.#doc.removeEventListener('pointerdown', this.#onOutside);
  }
}
