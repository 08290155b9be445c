// The chart's legend: each backend's colour (and dash), name, its weight and
// score at the playhead, and its pick count and share over the whole run.
import type { Timeline } from '../api/index.js';
import { scoresAfter } from '../api/timeline.js';
import { h, setText, svg } from '../shared/dom.js';
import { morphChildren } from '../shared/morph.js';
import { count, plural } from '../shared/format.js';
import { formatScore } from './pick-explain.js';
import { MAX_SERIES, NONE_CLASS, seriesClasses } from '../shared/palette.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

interface Entry {
  weight: HTMLSpanElement;
}

export class Legend {
  readonly element: HTMLUListElement;
  readonly #doc: Document;
  readonly #max: number;
  #timeline: Timeline | null = null;
  #entries: Entry[] = [];
  // What the items are (the backends shown, NONE, the "more" line) and
  // each item's pick count, in order: an edit that leaves the items as they
  // were only sets the counts that changed.
  #items = '';
  #picks: HTMLSpanElement[] = [];

  /** `max` entries at most (the chart draws the same number of series). */
  constructor(parent: HTMLElement, max = MAX_SERIES) {
    this.#doc = parent.ownerDocument;
    this.#max = max;
    this.element = h(this.#doc, 'ul', { class: 'ss-legend', attrs: { 'aria-label': 'Backends: weight and score now, picks' } });
    parent.append(this.element);
  }

  setTimeline(t: Timeline | null): void {
    this.#timeline = t;
    const doc = this.#doc;
    if (!t || t.length === 0) {
      this.#entries = [];
      this.#items = '';
      this.#picks = [];
      this.element.replaceChildren();
      return;
    }
    const counts = new Uint32Array(t.names.length);
    let none = 0;
    let picks = 0;
    for (let i = 0; i < t.length; i++) {
      const w = t.stepWinner[i];
      if (w === NOT_A_PICK) continue;
      picks++;
      if (w === NO_WINNER) none++;
      else counts[w]++;
    }
    const share = (n: number) => (picks === 0 ? '' : ` · ${Math.round((100 * n) / picks)}%`);
    const shown = Math.min(t.names.length, this.#max);
    const texts = Array.from({ length: shown }, (_, id) => `${plural(counts[id], 'pick')}${share(counts[id])}`);
    if (none > 0) texts.push(`${plural(none, 'pick')}${share(none)}`);
    const itemsNow = `${t.names.slice(0, shown).join('\n')}\n${none > 0}\n${t.names.length}`;
    if (itemsNow === this.#items) {
      texts.forEach((text, k) => setText(this.#picks[k], text));
      return;
    }
    this.#items = itemsNow;
    const items = h(doc, 'ul');
    // The weights say what they said (setStep brings them up to date), so keeping them changes nothing.
    const said = this.#entries.map((e) => e.weight.textContent ?? '');
    for (let id = 0; id < shown; id++) {
      const weight = h(doc, 'span', { class: 'ss-legend-weight', text: said[id] ?? '' });
      items.append(this.#item(seriesClasses(id), t.names[id], weight, texts[id]));
    }
    if (none > 0) items.append(this.#item(NONE_CLASS, 'NONE', null, texts[shown]));
    if (t.names.length > shown) {
      items.append(h(doc, 'li', { class: 'ss-legend-more', text: `and ${count(t.names.length - shown)} more backends (see the Table)` }));
    }
    // Only what changed is touched (an edit changes a count or two, rarely the backends).
    morphChildren(this.element, items);
    this.#entries = [...this.element.querySelectorAll<HTMLSpanElement>('.ss-legend-weight')].map((weight) => ({ weight }));
    this.#picks = [...this.element.querySelectorAll<HTMLSpanElement>('.ss-legend-picks')];
  }

  /** Shows each backend's weight and score after `step` (or "down", or "–" when out of the pool). */
  setStep(step: number): void {
    const t = this.#timeline;
    if (!t || step < 0 || step >= t.length) return;
    const text = new Array<string>(this.#entries.length).fill('–');
    const b = t.stepBlock[step];
    const start = t.blockStart[b];
    const end = b + 1 < t.blockStart.length ? t.blockStart[b + 1] : t.cellBackend.length;
    const scores = scoresAfter(t, step);
    for (let c = start; c < end; c++) {
      const id = t.cellBackend[c];
      if (id >= text.length) continue;
      const score = scores ? ` · score ${formatScore(scores[c - start])}` : '';
      text[id] = `${t.cellUp[c] ? `w ${count(t.cellWeight[c])}` : 'down'}${score}`;
    }
    for (let id = 0; id < this.#entries.length; id++) setText(this.#entries[id].weight, text[id]);
  }

  #item(cls: string, name: string, weight: HTMLSpanElement | null, picks: string): HTMLLIElement {
    const doc = this.#doc;
    const swatch = svg(doc, 'svg', { class: 'ss-legend-swatch', attrs: { viewBox: '0 0 22 10', width: '22', height: '10', 'aria-hidden': 'true' } });
    swatch.append(svg(doc, 'line', { class: `ss-line ${cls}`, attrs: { x1: '1', x2: '21', y1: '5', y2: '5' } }));
    const li = h(doc, 'li', { class: 'ss-legend-item' }, swatch, h(doc, 'span', { class: 'ss-legend-name', text: name }));
    if (weight) li.append(weight);
    li.append(h(doc, 'span', { class: 'ss-legend-picks', text: picks }));
    return li;
  }
}
