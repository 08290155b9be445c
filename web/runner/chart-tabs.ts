// Tabs in the chart panel's heading: "Ramp" (the runner's own chart, legend,
// pick view and table) and one per view a host adds (shared/chart-tab.ts,
// e.g. Traffic). A tab's view is built the first time the tab is shown, so
// its code loads only then (or from when the pointer or the focus reaches
// the tab); it hears of every run, and works only while shown. WAI-ARIA
// tabs: arrow keys move between them.
import type { ChartTab, ChartTabView } from '../shared/chart-tab.js';
import { h, setText, uniqueId } from '../shared/dom.js';

/** The runner's own tab. */
export const RAMP_TAB = 'ramp';

interface Extra {
  tab: ChartTab;
  button: HTMLButtonElement;
  box: HTMLElement;
  view: ChartTabView | null;
  mounting: Promise<void> | null;
}

export interface ChartTabsOptions {
  documentRoot: Document | ShadowRoot;
  /** Level of the views' headings. */
  headingLevel: 2 | 3 | 4 | 5 | 6;
  /** The learner chose a tab (not called for {@link ChartTabs.show}). */
  onChoose?: (id: string) => void;
}

export class ChartTabs {
  readonly #ramp: HTMLButtonElement;
  readonly #rampParts: HTMLElement[];
  readonly #extras: Extra[];
  readonly #options: ChartTabsOptions;
  #shown = RAMP_TAB;
  #script = '';
  #locked: string | null = null;

  /** Puts the tabs in `panel`'s heading (its title kept for screen readers); `panel`'s other children, and the heading's tools, are the Ramp tab's. */
  constructor(panel: HTMLElement, tabs: readonly ChartTab[], options: ChartTabsOptions) {
    const doc = panel.ownerDocument;
    this.#options = options;
    const head = panel.querySelector('.ss-panel-head')!;
    // The Ramp tab's parts: the panel's other children and the heading's tools (its chart's SVG/PNG buttons).
    this.#rampParts = [
      ...Array.from(panel.children).filter((c): c is HTMLElement => c !== head),
      ...Array.from(head.querySelectorAll<HTMLElement>(':scope > .ss-panel-tools')),
    ];
    const make = (text: string, selected: boolean) =>
      h(doc, 'button', {
        class: 'ss-tab',
        text,
        attrs: { type: 'button', role: 'tab', 'aria-selected': String(selected), tabindex: selected ? '0' : '-1' },
      });
    this.#ramp = make('Ramp', true);
    this.#extras = tabs.map((tab) => {
      const box = h(doc, 'div', { class: `ss-tab-box ss-${tab.id}-box`, attrs: { role: 'tabpanel' } });
      box.hidden = true;
      panel.append(box);
      const button = make(tab.label, false);
      box.id = uniqueId(`ss-${tab.id}`);
      button.setAttribute('aria-controls', box.id);
      box.setAttribute('aria-labelledby', (button.id = uniqueId('ss-tab')));
      return { tab, button, box, view: null, mounting: null };
    });
    const buttons = [this.#ramp, ...this.#extras.map((e) => e.button)];
    const ids = [RAMP_TAB, ...tabs.map((t) => t.id)];
    buttons.forEach((button, i) => button.addEventListener('click', () => this.#choose(ids[i])));
    // A hand on its way to a tab gives its code a head start.
    for (const { tab, button } of this.#extras) {
      const prefetch = () => tab.prefetch?.();
      button.addEventListener('pointerenter', prefetch, { once: true });
      button.addEventListener('focus', prefetch, { once: true });
    }
    const list = h(doc, 'div', { class: 'ss-tabs', attrs: { role: 'tablist', 'aria-label': 'Chart' } }, ...buttons);
    list.addEventListener('keydown', (e) => {
      if (e.key !== 'ArrowLeft' && e.key !== 'ArrowRight') return;
      // (activeElement is the host inside a shadow root)
      const at = Math.max(0, buttons.findIndex((b) => b.matches(':focus')));
      const to = (at + (e.key === 'ArrowRight' ? 1 : buttons.length - 1)) % buttons.length;
      this.#choose(ids[to]);
      buttons[to].focus();
      e.preventDefault();
    });
    // The heading stays, for screen readers only: it names the panel's region (the section is
    // aria-labelledby it) and keeps the page's outline; the tabs take its place on screen.
    const title = head.firstElementChild!;
    title.textContent = 'Charts';
    title.classList.add('ss-sr-only');
    title.after(list);
  }

  /**
   * Keeps every tab but Ramp shut, saying why (`reason`; null opens them):
   * predict mode, where another view would draw what is still to be predicted.
   */
  lock(reason: string | null): void {
    this.#locked = reason;
    for (const e of this.#extras) {
      e.button.setAttribute('aria-disabled', String(reason !== null));
      if (reason) e.button.title = reason;
      else e.button.removeAttribute('title');
    }
    if (!reason) return;
    if (this.#shown !== RAMP_TAB) this.show(RAMP_TAB);
    // A view built before holds what it drew, hidden: gone, not only out of sight (it is built
    // again when its tab is next shown).
    for (const e of this.#extras) {
      e.box.replaceChildren();
      e.view = null;
      e.mounting = null;
    }
  }

  /** Shows a tab without telling the host (a page following its URL); unknown ids show Ramp, and so does a locked tab. */
  show(id: string): void {
    const extra = this.#locked === null ? (this.#extras.find((e) => e.tab.id === id) ?? null) : null;
    this.#shown = extra ? id : RAMP_TAB;
    this.#ramp.setAttribute('aria-selected', String(!extra));
    this.#ramp.tabIndex = extra ? -1 : 0;
    for (const part of this.#rampParts) part.hidden = extra !== null;
    for (const e of this.#extras) {
      const selected = e === extra;
      e.button.setAttribute('aria-selected', String(selected));
      e.button.tabIndex = selected ? 0 : -1;
      e.box.hidden = !selected;
      if (e.view) e.view.visible = selected;
    }
    if (extra && !extra.view) this.#mount(extra);
  }

  /** A run's script, for every view built so far (and those built later). */
  update(script: string): void {
    this.#script = script;
    for (const e of this.#extras) e.view?.update(script);
  }

  /** The view of tab `id`, once built. */
  view(id: string): ChartTabView | null {
    return this.#extras.find((e) => e.tab.id === id)?.view ?? null;
  }

  #choose(id: string): void {
    if (this.#locked !== null && id !== RAMP_TAB) return;
    this.show(id);
    this.#options.onChoose?.(id);
  }

  #mount(extra: Extra): void {
    if (extra.mounting) return;
    const doc = extra.box.ownerDocument;
    const note = h(doc, 'p', { class: 'ss-chart-note', text: `Loading the ${extra.tab.label} tab…` });
    extra.box.replaceChildren(note);
    const { documentRoot, headingLevel } = this.#options;
    const mounting = (extra.mounting = extra.tab.mount(extra.box, { documentRoot, headingLevel }).then(
      (view) => {
        if (extra.mounting !== mounting) return; // dropped meanwhile (lock)
        note.remove();
        extra.view = view;
        view.update(this.#script);
        view.visible = this.#shown === extra.tab.id;
      },
      (error: unknown) => {
        if (extra.mounting !== mounting) return;
        extra.mounting = null; // the next time the tab is shown tries again
        setText(note, `The ${extra.tab.label} tab failed to load: ${String(error)}`);
      },
    ));
  }
}
