// The chart's text alternative: a table of the timeline (step, line, clock,
// each backend's weight and score, the pick), inside a <details> "Table". It is only
// built while open, and only a window of rows around the playhead, so a
// 10,000-step run does not put 10,000 rows in the page.
import type { Timeline } from '../api/index.js';
import { scoresAfter } from '../api/timeline.js';
import { formatClock } from './chart-model.js';
import { h, setText } from '../shared/dom.js';
import { MAX_SERIES } from '../shared/palette.js'; // backend columns
import { formatScore } from './pick-explain.js';
import { count, plural } from '../shared/format.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

const WINDOW = 200; // rows shown around the playhead

export class TimelineTable {
  readonly element: HTMLDetailsElement;
  readonly #doc: Document;
  readonly #caption: HTMLTableCaptionElement;
  readonly #table: HTMLTableElement;
  readonly #scroller: HTMLDivElement;
  #timeline: Timeline | null = null;
  #step = 0;
  #from = -1; // first row shown, -1 when not built
  #to = -1;
  #rows: HTMLTableRowElement[] = [];

  constructor(parent: HTMLElement) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#caption = h(doc, 'caption');
    this.#table = h(doc, 'table', { class: 'ss-table' });
    this.#scroller = h(
      doc,
      'div',
      { class: 'ss-table-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Timeline table' } },
      this.#table,
    );
    this.element = h(doc, 'details', { class: 'ss-table-details' }, h(doc, 'summary', { text: 'Table' }), this.#scroller);
    parent.append(this.element);
    this.element.addEventListener('toggle', () => this.#build());
  }

  setTimeline(t: Timeline | null): void {
    this.#timeline = t && t.length > 0 ? t : null;
    this.#from = -1;
    this.#build();
  }

  setStep(step: number): void {
    this.#step = step;
    if (!this.element.open || !this.#timeline) return;
    if (step < this.#from || step >= this.#to) this.#build();
    else this.#markCurrent();
  }

  #build(): void {
    const t = this.#timeline;
    const doc = this.#doc;
    if (!this.element.open) return;
    if (!t) {
      this.#table.replaceChildren(this.#caption);
      setText(this.#caption, 'No steps yet.');
      return;
    }
    const cols = Math.min(t.names.length, MAX_SERIES);
    const from = Math.max(0, Math.min(this.#step - WINDOW / 2, t.length - WINDOW));
    const to = Math.min(t.length, from + WINDOW);
    this.#from = from;
    this.#to = to;

    // Two header rows: each backend's name over its weight and score.
    const head = h(doc, 'tr');
    const sub = h(doc, 'tr');
    const colgroups: HTMLTableColElement[] = [h(doc, 'colgroup', { attrs: { span: '3' } })];
    for (const label of ['Step', 'Line', 'Clock (s)']) head.append(h(doc, 'th', { text: label, attrs: { scope: 'col', rowspan: '2' } }));
    for (let id = 0; id < cols; id++) {
      head.append(h(doc, 'th', { class: 'ss-table-name', text: t.names[id], attrs: { scope: 'colgroup', colspan: '2' } }));
      sub.append(h(doc, 'th', { text: 'weight', attrs: { scope: 'col' } }), h(doc, 'th', { text: 'score', attrs: { scope: 'col' } }));
      colgroups.push(h(doc, 'colgroup', { attrs: { span: '2' } }));
    }
    // The Pick column is pinned to the right edge (its cells alone: the second header row's last cell is a score's).
    head.append(h(doc, 'th', { class: 'ss-table-pick', text: 'Pick', attrs: { scope: 'col', rowspan: '2' } }));
    colgroups.push(h(doc, 'colgroup'));

    const body = h(doc, 'tbody');
    this.#rows = [];
    const weights = new Array<string>(cols);
    const scores = new Array<string>(cols);
    for (let i = from; i < to; i++) {
      weights.fill('–');
      scores.fill('–');
      const b = t.stepBlock[i];
      const start = t.blockStart[b];
      const end = b + 1 < t.blockStart.length ? t.blockStart[b + 1] : t.cellBackend.length;
      const s = scoresAfter(t, i);
      for (let c = start; c < end; c++) {
        const id = t.cellBackend[c];
        if (id >= cols) continue;
        weights[id] = t.cellUp[c] ? count(t.cellWeight[c]) : 'down';
        scores[id] = s ? formatScore(s[c - start]) : '?';
      }
      const w = t.stepWinner[i];
      const pick = w === NOT_A_PICK ? '' : w === NO_WINNER ? 'NONE' : t.names[w];
      const tr = h(doc, 'tr', {}, h(doc, 'th', { text: count(i + 1), attrs: { scope: 'row' } }));
      tr.append(h(doc, 'td', { text: String(t.stepLine[i]) }), h(doc, 'td', { text: formatClock(t.stepNow[i]) }));
      for (let id = 0; id < cols; id++) {
        tr.append(h(doc, 'td', { class: 'ss-table-w', text: weights[id] }), h(doc, 'td', { class: 'ss-table-s', text: scores[id] }));
      }
      tr.append(h(doc, 'td', { class: 'ss-table-pick', text: pick }));
      body.append(tr);
      this.#rows.push(tr);
    }
    const notes = [
      t.length > WINDOW
        ? `Steps ${count(from + 1)}–${count(to)} of ${count(t.length)}, around the playhead.`
        : `${plural(t.length, 'step')}.`,
      t.names.length > cols ? `First ${cols} of ${count(t.names.length)} backends.` : '',
      '“–”: not in the pool.',
      t.scoresTruncated ? `Scores stop after step ${count(t.scoredSteps)} (“?”): the run changed too many to keep.` : '',
    ];
    setText(
      this.#caption,
      `Timeline: weight and score of each backend after each step (a PICK changes the scores). ${notes.filter(Boolean).join(' ')}`,
    );
    this.#table.replaceChildren(this.#caption, ...colgroups, h(doc, 'thead', {}, head, sub), body);
    this.#markCurrent();
  }

  #markCurrent(): void {
    let current: HTMLTableRowElement | null = null;
    for (let r = 0; r < this.#rows.length; r++) {
      const row = this.#rows[r];
      if (this.#from + r === this.#step) {
        row.setAttribute('aria-current', 'true');
        current = row;
      } else if (row.hasAttribute('aria-current')) {
        row.removeAttribute('aria-current');
      }
    }
    if (current) this.#reveal(current);
  }

  // Scrolls the table (only the table, not the page) to show the row. This
  // reads layout, which is fine: it only happens while the table is open.
  #reveal(row: HTMLTableRowElement): void {
    const box = this.#scroller;
    const head = this.#table.tHead?.offsetHeight ?? 0;
    const top = row.offsetTop;
    if (top - head < box.scrollTop || top + row.offsetHeight > box.scrollTop + box.clientHeight) {
      box.scrollTop = Math.max(0, top - head - (box.clientHeight - head) / 2);
    }
  }
}
