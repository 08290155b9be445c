// Very long lines in the script editor are shown cut, with a marker. A
// 100,000-backend POOL line is 900 KB of one line: laid out and painted
// wrapped, it kept the browser busy for 15 s in one task. So a line longer
// than LONG_LINE shows its first SHOWN_OF_LONG characters, then a marker
// that says how many more there are; the hidden rest is one replaced range
// (CodeMirror neither lays it out nor highlights it, and the cursor steps
// over it as one unit). The text itself is whole: it is saved, copied
// (select all), run and downloaded in full; only the view is cut.
import { StateField, type EditorState, type Extension, type Range } from '@codemirror/state';
import { Decoration, EditorView, WidgetType, type DecorationSet } from '@codemirror/view';

/** A line longer than this (UTF-16 units) is shown cut. */
export const LONG_LINE = 5_000;
/** How much of a long line shows before its marker. */
export const SHOWN_OF_LONG = 1_000;

class HiddenTail extends WidgetType {
  constructor(readonly count: number) {
    super();
  }

  eq(other: HiddenTail): boolean {
    return other.count === this.count;
  }

  toDOM(view: EditorView): HTMLElement {
    const span = view.dom.ownerDocument.createElement('span');
    span.className = 'ss-long-tail';
    span.textContent = ` … ${hiddenText(this.count)}`;
    return span;
  }
}

/** The marker's words for `count` hidden characters. */
export function hiddenText(count: number): string {
  return `${count.toLocaleString('en-US')} more characters on this line are not shown (they are kept and run)`;
}

function tailOf(state: EditorState, from: number, to: number): Range<Decoration> | null {
  if (to - from <= LONG_LINE) return null;
  let cut = from + SHOWN_OF_LONG;
  // Never between the halves of a surrogate pair: one unit earlier then.
  const before = state.doc.sliceString(cut - 1, cut).charCodeAt(0);
  if (before >= 0xd800 && before <= 0xdbff) cut--;
  return Decoration.replace({ widget: new HiddenTail(to - cut) }).range(cut, to);
}

/** The long lines' tails in [from, to] of the document. */
function tailsIn(state: EditorState, from: number, to: number): Range<Decoration>[] {
  const doc = state.doc;
  const out: Range<Decoration>[] = [];
  for (let pos = from; pos <= to; ) {
    const line = doc.lineAt(pos);
    const tail = tailOf(state, line.from, line.to);
    if (tail) out.push(tail);
    pos = line.to + 1;
  }
  return out;
}

const tails = StateField.define<DecorationSet>({
  create(state) {
    return state.doc.length > LONG_LINE ? Decoration.set(tailsIn(state, 0, state.doc.length)) : Decoration.none;
  },
  update(set, tr) {
    if (!tr.docChanged) return set;
    set = set.map(tr.changes);
    const doc = tr.state.doc;
    tr.changes.iterChangedRanges((_fa, _ta, fromB, toB) => {
      // The lines the change touched: drop their tails, then cut them again.
      const from = doc.lineAt(fromB).from;
      const to = doc.lineAt(Math.min(toB, doc.length)).to;
      set = set.update({ filter: () => false, filterFrom: from, filterTo: to, add: tailsIn(tr.state, from, to), sort: true });
    });
    return set;
  },
  provide: (f) => [EditorView.decorations.from(f), EditorView.atomicRanges.of((view) => view.state.field(f))],
});

const theme = EditorView.theme({
  '.ss-long-tail': { color: 'var(--ss-muted)', fontStyle: 'italic', fontFamily: 'var(--ss-font)' },
});

/** Cuts the view of lines over LONG_LINE units (the text stays whole). */
export function longLines(): Extension {
  return [tails, theme];
}
