// Line numbers drawn as one block of text, not as CodeMirror's gutter.
//
// CodeMirror's line-number gutter is one element a line, each given its
// line's height in an inline style, set again once CodeMirror has measured
// the lines it drew. When the editor draws a viewport anew (a replay's jump
// back to the script's top), that gutter was about a third of the draw's CPU
// on a slow machine (PL-43: 8.0-9.1 ms with it, 5.0-6.2 without). Here the
// column is an empty gutter (no element a line: it keeps the room, the
// background and the border, and stays where the gutter was), and the
// numbers are drawn over it by a CodeMirror layer: one element holding the
// numbers of the lines in view as lines of text, one number a row (a line
// that wraps over three rows is its number and two empty rows), placed from
// CodeMirror's height map with no layout read, and the cursor's line in an
// element of its own that stands out. So a viewport drawn anew costs the
// number column two elements and one text, not two elements a line (PL-46).
// Like CodeMirror's gutters, the layer is hidden from assistive technology
// (aria-hidden) and never selected or copied.
import type { Extension } from '@codemirror/state';
import { EditorView, gutter, layer, type LayerMarker, type ViewUpdate } from '@codemirror/view';

// The number column: the widest number (at least 20 px, as CodeMirror's
// line-number gutter), 5 px before it and 3 px after.
const COLUMN = 'calc(var(--ss-ln-w) + 8px)';

/** The numbers of a run of lines in view that lie one under the other: a text, one row a line height. */
class NumberRun implements LayerMarker {
  constructor(
    readonly top: number,
    readonly rowHeight: number,
    readonly text: string,
    readonly active: boolean,
  ) {}

  eq(other: LayerMarker): boolean {
    return other instanceof NumberRun && other.top === this.top && other.rowHeight === this.rowHeight && other.text === this.text && other.active === this.active;
  }

  draw(): HTMLElement {
    const el = document.createElement('div');
    this.#set(el);
    return el;
  }

  update(dom: HTMLElement, old: LayerMarker): boolean {
    if (!(old instanceof NumberRun) || old.active !== this.active) return false;
    this.#set(dom, old);
    return true;
  }

  #set(el: HTMLElement, old?: NumberRun): void {
    // CSSOM, not a style attribute: a strict Content-Security-Policy allows it.
    if (!old) el.className = this.active ? 'ss-ln-run ss-ln-active' : 'ss-ln-run';
    if (old?.top !== this.top) el.style.top = `${this.top}px`;
    if (old?.rowHeight !== this.rowHeight) el.style.lineHeight = `${this.rowHeight}px`;
    if (old?.text !== this.text) el.textContent = this.text;
  }
}

/**
 * The runs of numbers for the lines in CodeMirror's viewport (its height
 * map: no layout read), and one for each line a cursor is on, drawn after
 * them (over them). A run ends where a line does not start where the rows
 * before it end (more than half a pixel off).
 */
export function numberRuns(view: EditorView): NumberRun[] {
  const doc = view.state.doc;
  const row = view.defaultLineHeight;
  const pad = view.documentPadding.top;
  const runs: NumberRun[] = [];
  if (!(row > 0)) return runs;
  let start = 0;
  let rows = 0;
  let text = '';
  for (const block of view.viewportLineBlocks) {
    const top = block.top + pad;
    if (text && Math.abs(top - (start + rows * row)) > 0.5) {
      runs.push(new NumberRun(start, row, text, false));
      text = '';
    }
    if (!text) {
      start = top;
      rows = 0;
    }
    const n = Math.max(1, Math.round(block.height / row));
    text += String(doc.lineAt(block.from).number) + '\n'.repeat(n);
    rows += n;
  }
  if (text) runs.push(new NumberRun(start, row, text, false));
  const { from, to } = view.viewport;
  let last = -1;
  for (const range of view.state.selection.ranges) {
    if (range.head < from || range.head > to) continue;
    const line = doc.lineAt(range.head);
    if (line.number === last) continue;
    last = line.number;
    const block = view.lineBlockAt(line.from);
    const n = Math.max(1, Math.round(block.height / row));
    runs.push(new NumberRun(block.top + pad, row, String(line.number) + '\n'.repeat(n), true));
  }
  return runs;
}

const numbers = layer({
  above: true,
  class: 'ss-ln-layer',
  updateOnDocViewUpdate: false,
  update: (u: ViewUpdate) => u.docChanged || u.viewportChanged || u.geometryChanged || u.selectionSet,
  markers: numberRuns,
});

// The room for the numbers: a gutter with no markers (so no element a line), as wide as the column.
const room = gutter({ class: 'ss-ln-room' });

// The column's width as a class on the editor, one for each count of
// digits in the last line's number: a style attribute would break a strict
// Content-Security-Policy.
const width = EditorView.editorAttributes.compute(['doc'], (state) => ({ class: `ss-ln${Math.min(7, String(state.doc.lines).length)}` }));

const widths: Record<string, { '--ss-ln-w': string }> = {};
for (let d = 1; d <= 7; d++) widths[`&.ss-ln${d}`] = { '--ss-ln-w': `max(20px, ${d}ch)` };

const theme = EditorView.theme({
  ...widths,
  '.ss-ln-room': { width: COLUMN },
  // Over the gutters (z-index 200), which paint the column's background.
  '.cm-layer.ss-ln-layer': { zIndex: '201 !important', pointerEvents: 'none' },
  '.ss-ln-run': {
    left: '0',
    width: 'var(--ss-ln-w)',
    padding: '0 3px 0 5px',
    textAlign: 'right',
    whiteSpace: 'pre',
    color: 'var(--ss-muted)',
    userSelect: 'none',
  },
  '.ss-ln-active': { backgroundColor: 'var(--ss-active-line)', color: 'var(--ss-fg)' },
});

/** Line numbers for the lines in view, in a column at the left of the text (before any other gutter). */
export function lineNumbersInLines(): Extension {
  return [room, numbers, width, theme];
}
