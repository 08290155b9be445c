// The output list: every WEIGHTS and PICK line with the source line that
// printed it. Virtualized: only the rows in view (plus a few) exist in the
// DOM, recycled on scroll, so 10,000 or 1,000,000 lines cost the same. A
// line too long for the column wraps (at spaces) onto more lines, so a
// WEIGHTS line can be read whole; output-wrap.ts works out the heights.
// It is a listbox: arrow keys, Page Up/Down, Home/End select a row; Enter
// jumps to its line in the editor.
import { linesAsParts } from '../shared/exports.js';
import type { OutputLine } from '../api/index.js';
import { h, setText, uniqueId } from '../shared/dom.js';
import { MAX_LINES, ROW_HEIGHT, RowLayout, WrapMemo, wrappedLines } from './output-wrap.js';
import { NONE_CLASS, seriesClasses } from '../shared/palette.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

/** Winner id of a PICK row, NO_WINNER for NONE, NOT_A_PICK for a WEIGHTS row. */
export type RowKind = (index: number) => number;

export interface OutputViewOptions {
  /** Accessible name of the list. */
  label: string;
  /** The box is only as tall as its lines, up to its usual height (CSS --ss-output-fit). */
  fitLines?: boolean;
  /** The pointer is over the row at this index, or left the list (null). */
  onHover(index: number | null): void;
  /** The user selected a row (click or keys). */
  onSelect(index: number): void;
  /** Enter or double click on a row. */
  onActivate(index: number): void;
}

const OVERSCAN = 6;
// Browsers cap an element's height (Chromium near 16.7M px); past this the
// scroll position is scaled instead of mapped one to one.
const MAX_SCROLL_HEIGHT = 8_000_000;

interface Row {
  el: HTMLDivElement;
  line: HTMLSpanElement;
  swatch: HTMLSpanElement;
  text: HTMLSpanElement;
  index: number;
  /** What the row shows was filled for: this index in this version of the lines. */
  filled: string;
  /** Where it is (its translateY, px), NaN when out of use. */
  y: number;
}

export class OutputView {
  readonly element: HTMLDivElement;
  #allSelected = false; // Ctrl+A selected the output (a copy then takes every line)
  #selecting = false; // the selectionchange that Ctrl+A itself causes
  readonly #doc: Document;
  readonly #spacer: HTMLDivElement;
  readonly #empty: HTMLParagraphElement;
  readonly #idPrefix = uniqueId('ss-out');
  readonly #options: OutputViewOptions;
  // An invisible row that measures the text column: its width (the resize
  // observer) and a monospace character's width.
  readonly #probeLine: HTMLSpanElement;
  readonly #probeChars: HTMLSpanElement;
  #cols = 0; // characters that fit on a row's line (0: not measured yet)
  #layout = new RowLayout([], 0);
  readonly #wraps = new WrapMemo(); // what earlier runs' lines took at this width
  #rows: Row[] = [];
  #lines: readonly OutputLine[] = [];
  #kind: RowKind = () => NOT_A_PICK;
  #current = -1;
  #linkedLine: number | null = null;
  #frame = 0;
  #version = 0; // bumped when the lines, their kinds or the layout change: rows filled before are filled again
  // Layout values kept from events, so updating the list never forces the
  // browser to lay out the page in the middle of a run.
  #viewH = 0;
  #scrollTop = 0;

  constructor(parent: HTMLElement, options: OutputViewOptions) {
    this.#doc = parent.ownerDocument;
    this.#options = options;
    const doc = this.#doc;
    this.#spacer = h(doc, 'div', { class: 'ss-out-spacer' });
    this.#empty = h(doc, 'p', { class: 'ss-out-empty', text: 'No output yet: WEIGHTS and PICK lines print here.' });
    this.element = h(doc, 'div', {
      class: 'ss-output',
      attrs: { role: 'listbox', tabindex: '0', 'aria-label': options.label },
    });
    this.#probeLine = h(doc, 'span', { class: 'ss-probe-line', text: '0000' });
    this.#probeChars = h(doc, 'span', { text: '0'.repeat(40) });
    const probeText = h(doc, 'span', { class: 'ss-probe-text' }, this.#probeChars);
    const probe = h(doc, 'div', { class: 'ss-out-probe', attrs: { 'aria-hidden': 'true' } }, this.#probeLine, h(doc, 'span', { class: 'ss-swatch' }), probeText);
    this.element.append(probe, this.#spacer, this.#empty);
    parent.append(this.element);
    // Read in the observer's callback (after layout), never in the middle of a run.
    new ResizeObserver((entries) => {
      const width = entries[entries.length - 1].contentRect.width;
      const charW = this.#probeChars.getBoundingClientRect().width / 40;
      const cols = charW > 0 ? Math.floor(width / charW) : 0;
      if (cols !== this.#cols) {
        this.#cols = cols;
        this.#relayout();
      }
    }).observe(probeText);

    this.element.addEventListener('scroll', () => {
      this.#scrollTop = this.element.scrollTop;
      this.#schedule();
    });
    this.element.addEventListener('keydown', (e) => this.#onKey(e));
    // Ctrl+A selects the output, not the page; copying it then gives the whole output as plain
    // text (the list draws only the rows in view, and its line numbers are not part of it).
    this.element.addEventListener('copy', (e) => {
      const sel = (this.element.getRootNode() as Document).getSelection?.() ?? doc.getSelection();
      if (!this.#allSelected || !sel || sel.isCollapsed) return;
      e.preventDefault();
      e.clipboardData?.setData('text/plain', linesAsParts(this.#lines).join(''));
    });
    doc.addEventListener('selectionchange', () => {
      if (this.#selecting) this.#selecting = false;
      else this.#allSelected = false;
    });
    this.element.addEventListener('click', (e) => {
      const index = this.#rowIndexOf(e.target);
      if (index !== null) options.onSelect(index);
    });
    this.element.addEventListener('dblclick', (e) => {
      const index = this.#rowIndexOf(e.target);
      if (index !== null) options.onActivate(index);
    });
    this.element.addEventListener('pointerover', (e) => options.onHover(this.#rowIndexOf(e.target)));
    this.element.addEventListener('pointerleave', () => options.onHover(null));
    new ResizeObserver((entries) => {
      this.#viewH = entries[entries.length - 1].contentRect.height;
      this.#schedule();
    }).observe(this.element);
  }

  get length(): number {
    return this.#lines.length;
  }

  /** New output. `kind` says which rows are picks (and who won) for their swatch. */
  setOutput(lines: readonly OutputLine[], kind: RowKind): void {
    this.#lines = lines;
    this.#kind = kind;
    this.#current = Math.min(this.#current, lines.length - 1);
    this.#empty.hidden = lines.length > 0;
    // The line numbers' column grows with their digits: the probe follows, so
    // the text column is measured again when it changes.
    const last = lines.length ? lines[lines.length - 1].line : 0;
    setText(this.#probeLine, '0'.repeat(Math.max(4, String(last).length)));
    this.#relayout();
  }

  // Row heights for the current lines and width, then the spacer and the rows.
  #relayout(): void {
    this.#version++;
    this.#layout = new RowLayout(this.#lines, this.#cols, this.#wraps);
    const height = Math.min(this.#layout.height, MAX_SCROLL_HEIGHT);
    this.#spacer.style.height = `${height}px`;
    // At least three rows, so "No output yet" and a line or two read as a box.
    if (this.#options.fitLines) this.element.style.setProperty('--ss-output-fit', `${Math.max(3 * ROW_HEIGHT, height) + 2}px`);
    // A shorter list pulls the scroll position up; the browser will clamp it the same way.
    this.#scrollTop = Math.max(0, Math.min(this.#scrollTop, height - this.#viewH));
    this.render();
  }

  /**
   * The playhead's row (-1 when its step printed nothing); `reveal` is a
   * row to bring into view if it is not (null: do not scroll).
   */
  setCurrent(index: number, reveal: number | null): void {
    this.#current = index;
    if (reveal !== null) this.reveal(reveal);
    this.render();
  }

  /**
   * Scrolls row `index` into view if it is not, and draws nothing yet. A
   * scroll position is set against the page's layout: set while the page
   * is laid out (at the start of a frame, before any other write), it costs
   * no layout; set after other writes, it lays them out first (PL-35).
   */
  reveal(index: number): void {
    if (index >= 0 && index < this.#lines.length) this.#scrollToRow(index);
  }

  /** Highlights the rows printed by this source line (null clears). */
  setLinkedLine(line: number | null): void {
    if (line === this.#linkedLine) return;
    this.#linkedLine = line;
    this.render();
  }

  /** Draws the visible rows now (also called on scroll and resize). */
  render(): void {
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    const n = this.#lines.length;
    const viewH = this.#viewH;
    const { first, offset } = this.#window();
    const lastInView = this.#layout.indexAt(this.#scrollTop - offset + viewH);
    const count = Math.min(n - first, lastInView - first + 1 + OVERSCAN);
    this.#placeRows(first, count);
    for (let r = 0; r < this.#rows.length; r++) {
      const row = this.#rows[r];
      if (r >= count) {
        if (row.index >= 0) this.#clear(row);
        continue;
      }
      this.#fill(row, first + r, offset);
    }
    // Point assistive tech at the current row only while it exists.
    const current = this.#current;
    if (current >= first && current < first + count) {
      this.element.setAttribute('aria-activedescendant', `${this.#idPrefix}-${current}`);
    } else {
      this.element.removeAttribute('aria-activedescendant');
    }
  }

  // Gives the rows in view (first .. first + count - 1) the DOM rows that
  // show those lines already, so a scroll fills only the rows that came into
  // view: a row keeps its line while that line stays in the window, and the
  // rows that left it are reused for the lines that entered (PL-33; before,
  // row r always showed line first + r, and a scroll of one line filled every
  // row again). #rows ends up in the lines' order, and so does the DOM (a
  // screen reader, a selection and a copy read the rows in document order):
  // only the rows that changed places are moved.
  #placeRows(first: number, count: number): void {
    const old = this.#rows;
    while (old.length < count) old.push(this.#makeRow());
    const kept = new Map<number, Row>();
    const free: Row[] = [];
    for (const row of old) {
      if (row.index >= first && row.index < first + count && !kept.has(row.index)) kept.set(row.index, row);
      else free.push(row);
    }
    if (kept.size === count && old.slice(0, count).every((row, r) => row.index === first + r)) return; // nothing moved
    const rows: Row[] = [];
    for (let r = 0; r < count; r++) rows.push(kept.get(first + r) ?? free.shift()!);
    rows.push(...free); // out of use: after the rows in view
    let before: Element | null = null;
    for (const row of rows) {
      const at: Element | null = before ? before.nextElementSibling : this.#spacer.firstElementChild;
      if (at !== row.el) this.#spacer.insertBefore(row.el, at);
      before = row.el;
    }
    this.#rows = rows;
  }

  #window(): { first: number; offset: number } {
    const top = this.#scrollTop;
    const virtualTop = top * this.#ratio();
    const first = Math.max(0, this.#layout.indexAt(virtualTop) - OVERSCAN);
    // Row i sits at layout.top(i) in the virtual list; shift by the scaled part.
    return { first, offset: top - virtualTop };
  }

  // 1 unless the list is taller than the browser allows: then the scroll
  // position maps onto the virtual list at this ratio.
  #ratio(): number {
    const fullH = this.#layout.height;
    const viewH = this.#viewH;
    return fullH > MAX_SCROLL_HEIGHT ? (fullH - viewH) / (MAX_SCROLL_HEIGHT - viewH) : 1;
  }

  #fill(row: Row, index: number, offset: number): void {
    const item = this.#lines[index];
    row.el.hidden = false;
    // Its place: the same for a row kept across a scroll, unless the list is
    // taller than the browser allows (the scaled part moves with the scroll).
    const y = this.#layout.top(index) + offset;
    if (y !== row.y) row.el.style.transform = `translateY(${(row.y = y)}px)`;
    // A row that shows this line already (a step of a run playing moves the
    // current row, not the rows; a scroll keeps the rows still in view) only
    // has its selection and link marks set.
    const filled = `${this.#version}:${index}`;
    if (row.filled === filled) {
      const selected = index === this.#current ? 'true' : 'false';
      if (row.el.getAttribute('aria-selected') !== selected) row.el.setAttribute('aria-selected', selected);
      const linked = item.line === this.#linkedLine;
      if (row.el.classList.contains('ss-linked') !== linked) row.el.classList.toggle('ss-linked', linked);
      return;
    }
    row.filled = filled;
    row.index = index;
    row.el.id = `${this.#idPrefix}-${index}`;
    const lines = this.#layout.lines(index);
    const height = `${this.#layout.rowHeight(index)}px`;
    if (row.el.style.height !== height) row.el.style.height = height;
    row.el.setAttribute('aria-posinset', String(index + 1));
    row.el.setAttribute('aria-setsize', String(this.#lines.length));
    const selected = index === this.#current;
    row.el.setAttribute('aria-selected', selected ? 'true' : 'false');
    row.el.classList.toggle('ss-linked', item.line === this.#linkedLine);
    setText(row.line, String(item.line));
    const winner = this.#kind(index);
    const swatchClass =
      winner >= 0 ? `ss-swatch ${seriesClasses(winner)}` : winner === NO_WINNER ? `ss-swatch ${NONE_CLASS}` : 'ss-swatch ss-blank';
    if (row.swatch.getAttribute('class') !== swatchClass) row.swatch.setAttribute('class', swatchClass);
    // An empty WEIGHTS line (empty pool) still gets a visible row.
    setText(row.text, item.text === '' ? '(empty pool)' : lines < MAX_LINES ? item.text : this.#cut(item.text));
    row.text.classList.toggle('ss-muted', item.text === '');
    const label = `line ${item.line}: ${item.text === '' ? '(empty pool)' : item.text}`;
    row.el.title = label;
    row.el.setAttribute('aria-label', label);
  }

  // A row out of use keeps nothing of the line it showed: hidden is not
  // gone (a page without its styles, or predict mode, would still read it).
  #clear(row: Row): void {
    row.el.hidden = true;
    row.index = -1;
    row.filled = ''; // filled again in full when it shows a line (its text and index are gone)
    row.y = Number.NaN;
    row.el.removeAttribute('id');
    row.el.removeAttribute('title');
    row.el.removeAttribute('aria-label');
    row.el.removeAttribute('aria-posinset'); // a row moved out of use keeps no place in the list either
    row.el.removeAttribute('aria-setsize');
    row.el.removeAttribute('aria-selected');
    setText(row.line, '');
    setText(row.text, '');
  }

  // A line longer than MAX_LINES rows: as much as fits, and how much is left
  // (the whole line is in the row's tooltip, and the CLI prints it all).
  #cut(text: string): string {
    if (wrappedLines(text, this.#cols) <= MAX_LINES) return text;
    const keep = Math.max(0, (MAX_LINES - 1) * this.#cols - 2);
    return `${text.slice(0, keep)}… (${(text.length - keep).toLocaleString('en-US')} more characters)`;
  }

  #makeRow(): Row {
    const doc = this.#doc;
    const line = h(doc, 'span', { class: 'ss-out-line' });
    const swatch = h(doc, 'span', { class: 'ss-swatch', attrs: { 'aria-hidden': 'true' } });
    const text = h(doc, 'span', { class: 'ss-out-text' });
    const el = h(doc, 'div', { class: 'ss-out-row', attrs: { role: 'option' } }, line, swatch, text);
    this.#spacer.append(el);
    return { el, line, swatch, text, index: -1, filled: '', y: Number.NaN };
  }

  #rowIndexOf(target: EventTarget | null): number | null {
    const el = target instanceof Element ? target.closest('.ss-out-row') : null;
    const row = this.#rows.find((r) => r.el === el);
    return row && !row.el.hidden ? row.index : null;
  }

  #scrollToRow(index: number): void {
    const viewH = this.#viewH;
    const fullH = this.#layout.height;
    const top = this.#layout.top(index) / this.#ratio();
    const rowH = this.#layout.rowHeight(index);
    const visibleTop = this.#scrollTop;
    if (top < visibleTop || top + rowH > visibleTop + viewH) {
      const maxTop = Math.max(0, Math.min(fullH, MAX_SCROLL_HEIGHT) - viewH);
      this.#scrollTop = Math.min(maxTop, Math.max(0, top - viewH / 2 + rowH / 2));
      this.element.scrollTop = this.#scrollTop;
    }
  }

  #onKey(e: KeyboardEvent): void {
    const n = this.#lines.length;
    if (n === 0) return;
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'a') {
      e.preventDefault();
      const sel = this.element.ownerDocument.getSelection();
      this.#selecting = true;
      this.#allSelected = true;
      sel?.selectAllChildren(this.element);
      return;
    }
    const page = Math.max(1, Math.floor(this.#viewH / ROW_HEIGHT) - 1);
    const at = this.#current < 0 ? -1 : this.#current;
    let next: number;
    switch (e.key) {
      case 'ArrowDown':
        next = at + 1;
        break;
      case 'ArrowUp':
        next = at < 0 ? n - 1 : at - 1;
        break;
      case 'PageDown':
        next = at + page;
        break;
      case 'PageUp':
        next = at - page;
        break;
      case 'Home':
        next = 0;
        break;
      case 'End':
        next = n - 1;
        break;
      case 'Enter':
        if (at >= 0) this.#options.onActivate(at);
        e.preventDefault();
        return;
      default:
        return;
    }
    e.preventDefault();
    next = Math.max(0, Math.min(n - 1, next));
    this.#options.onSelect(next);
  }

  #schedule(): void {
    if (this.#frame) return;
    this.#frame = requestAnimationFrame(() => this.render());
  }
}
