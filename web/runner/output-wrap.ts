// Where each output row sits when long lines wrap. The output list is
// virtualized (only rows in view exist), so every row's height must be known
// without laying it out: the font is monospace, so a line's wrapped height
// follows from its text and the number of columns that fit. Most rows are
// one line; only the ones that wrap are stored, so a million short lines
// cost nothing more. Pure: no DOM.
import type { OutputLine } from '../api/index.js';
import { longLines } from './lazy-lines.js';

/** A one-line row (px); must match .ss-out-row in styles.ts. */
export const ROW_HEIGHT = 24;
/** Each further line of a wrapped row (px): the row's line-height. */
export const LINE_HEIGHT = 18;
/** A row shows at most this many lines; the rest of a longer one is cut. */
export const MAX_LINES = 40;
/** Lines that may wrap are laid out only up to this much text (a huge run's rows stay one line each). */
const MAX_WRAP_BYTES = 2 * 1024 * 1024;

/** Columns a character takes in a monospace font: East Asian wide and emoji take two. */
function columns(code: number): number {
  return code >= 0x1100 ? 2 : 1;
}

function widthOf(text: string): number {
  let w = 0;
  for (const ch of text) w += columns(ch.codePointAt(0)!);
  return w;
}

/**
 * Where a word may break after a hyphen, as Chromium and WebKit break lines
 * (`shouldBreakAfter` in their line breaker: "don't allow line breaking
 * between '-' and a digit if the '-' may mean a minus sign in the context,
 * while allow breaking in 'ABCD-1234' and '1234-5678'"): after any hyphen
 * not before a digit, and before a digit when the hyphen follows a letter or
 * digit. So `backend-12=6` breaks as `backend-` | `12=6`, and `x=-5` does not.
 * (Firefox's breaker differs in corners: it keeps `1-2` together, and near a
 * word's ends it may keep a hyphen's two sides together; a row there can be
 * a line taller or shorter than its text. Tested in Chromium:
 * tests/web/e2e/runner-details.test.ts.)
 */
const HYPHEN_BREAK = /(?<=-)(?=[^0-9])|(?<=[A-Za-z0-9]-)(?=[0-9])/;

/**
 * The lines `text` takes at `cols` columns when wrapped as CSS wraps
 * `white-space: pre-wrap; overflow-wrap: anywhere`: first fit, breaking at a
 * space (which hangs at the end of its line) or after a hyphen
 * (HYPHEN_BREAK), and anywhere in a piece longer than a line. Characters
 * East Asian wide take two columns, so the count errs on the side of room.
 */
export function wrappedLines(text: string, cols: number): number {
  if (cols < 1 || text.length <= cols / 2) return 1;
  if (text.length <= cols && widthOf(text) <= cols) return 1;
  let lines = 1;
  let col = 0;
  for (const word of text.split(' ')) {
    // The word's pieces: a break may come after a "-" (HYPHEN_BREAK).
    const pieces = word.split(HYPHEN_BREAK);
    for (let k = 0; k < pieces.length; k++) {
      const w = widthOf(pieces[k]);
      const space = k === 0 && col > 0 ? 1 : 0;
      if (col + space + w <= cols) {
        col += space + w;
        continue;
      }
      if (col > 0) lines++;
      if (w <= cols) col = w;
      else {
        lines += Math.ceil(w / cols) - 1;
        col = w % cols || cols;
      }
    }
  }
  return lines;
}

/**
 * wrappedLines, remembered by text for one width: a re-run after an edit
 * prints mostly the lines it printed before (a WEIGHTS line of 30 backends
 * took most of a 10,000-line script's layout), so only new lines are worked
 * out. Forgets everything past MAX_MEMO lines, and when the width changes.
 */
export class WrapMemo {
  #cols = -1;
  #known = new Map<string, number>();

  lines(text: string, cols: number): number {
    if (cols < 1 || text.length <= cols / 2) return 1; // most lines: no need to look
    if (cols !== this.#cols || this.#known.size >= MAX_MEMO) {
      this.#cols = cols;
      this.#known = new Map();
    }
    let n = this.#known.get(text);
    if (n === undefined) this.#known.set(text, (n = wrappedLines(text, cols)));
    return n;
  }
}

const MAX_MEMO = 100_000;

/** The rows' heights and positions for one list of lines at one width. */
export class RowLayout {
  readonly count: number;
  /** All rows' height (px). */
  readonly height: number;
  // Rows of more than one line, by index, and the extra px up to and including each.
  readonly #wrapped: Uint32Array;
  readonly #extraUpTo: Float64Array;

  /** `memo` (optional) keeps the wrapped line counts of earlier layouts at this width. */
  constructor(lines: readonly OutputLine[], cols: number, memo: WrapMemo | null = null) {
    this.count = lines.length;
    const wrapped: number[] = [];
    const extra: number[] = [];
    let sum = 0;
    // A background run's lines (lazy-lines.ts) say which may wrap without being built;
    // past MAX_WRAP_BYTES of such lines, rows stay one line each (the row clips; its title has it all).
    const long = longLines(lines, Math.floor(cols / 2));
    const n = long ? (long.bytes > MAX_WRAP_BYTES ? 0 : long.indices.length) : lines.length;
    for (let j = 0; j < n; j++) {
      const i = long ? long.indices[j] : j;
      const text = lines[i].text;
      const k = Math.min(MAX_LINES, memo ? memo.lines(text, cols) : wrappedLines(text, cols));
      if (k === 1) continue;
      sum += (k - 1) * LINE_HEIGHT;
      wrapped.push(i);
      extra.push(sum);
    }
    this.#wrapped = Uint32Array.from(wrapped);
    this.#extraUpTo = Float64Array.from(extra);
    this.height = this.count * ROW_HEIGHT + sum;
  }

  /** Lines row i shows (1 … MAX_LINES). */
  lines(i: number): number {
    const k = this.#rank(i);
    if (k >= this.#wrapped.length || this.#wrapped[k] !== i) return 1;
    return 1 + (this.#extraUpTo[k] - (k > 0 ? this.#extraUpTo[k - 1] : 0)) / LINE_HEIGHT;
  }

  rowHeight(i: number): number {
    return ROW_HEIGHT + (this.lines(i) - 1) * LINE_HEIGHT;
  }

  /** Top of row i (px from the list's top). */
  top(i: number): number {
    const k = this.#rank(i);
    return i * ROW_HEIGHT + (k > 0 ? this.#extraUpTo[k - 1] : 0);
  }

  /** The row at `y` px from the top (clamped to the rows). */
  indexAt(y: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (this.top(mid) <= y) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  // How many wrapped rows come before row i.
  #rank(i: number): number {
    let lo = 0;
    let hi = this.#wrapped.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#wrapped[mid] < i) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
