// Row heights of the output list when long lines wrap (pure: no DOM). The
// counts are worked by hand the way CSS wraps pre-wrap text: first fit at
// spaces, after a hyphen (before a digit only when a letter or digit comes
// before the hyphen, as Chromium and WebKit break), anywhere in a longer piece.
import { describe, expect, it } from 'vitest';
import { LINE_HEIGHT, MAX_LINES, ROW_HEIGHT, RowLayout, WrapMemo, wrappedLines } from '../../../web/runner/output-wrap.js';

describe('wrappedLines', () => {
  it('keeps a line that fits on one line', () => {
    expect(wrappedLines('web1=5 web2=5 web3=10', 21)).toBe(1);
    expect(wrappedLines('', 10)).toBe(1);
  });

  it('breaks at spaces, first fit', () => {
    // "web1=0" | "web2=10" | "web3=10": 6 + 1 + 7 > 10, 7 + 1 + 7 > 10.
    expect(wrappedLines('web1=0 web2=10 web3=10', 10)).toBe(3);
    // "web1=0 web2=10" (14) | "web3=10".
    expect(wrappedLines('web1=0 web2=10 web3=10', 14)).toBe(2);
  });

  it('breaks after a hyphen; before a digit only when a letter or digit comes before the hyphen', () => {
    // "api-eu-" (7) | "west=5 x" (8).
    expect(wrappedLines('api-eu-west=5 x', 8)).toBe(2);
    expect(wrappedLines('a-bcdefghijklm', 10)).toBe(3); // "a-" | "bcdefghijk" | "lm"
    // "backend-12=6 backend-13=5" at 21: "backend-12=6 backend-" (21) | "13=5".
    expect(wrappedLines('backend-12=6 backend-13=5', 21)).toBe(2);
    // At 12: "backend-12=6" (12) | "backend-13=5" (12).
    expect(wrappedLines('backend-12=6 backend-13=5', 12)).toBe(2);
    // At 10: "backend-" | "12=6" | "backend-" | "13=5"; "1-2" breaks too: "1-" | "2".
    expect(wrappedLines('backend-12=6 backend-13=5', 10)).toBe(4);
    expect(wrappedLines('1-2', 2)).toBe(2);
    // A hyphen that may be a minus sign (after "=", a space or nothing) holds to its digit:
    // "x=-55" is one piece of 5, cut anywhere at 4: "x=-5" | "5".
    expect(wrappedLines('x=-55', 4)).toBe(2);
    expect(wrappedLines('ab x=-55', 6)).toBe(2); // "ab" | "x=-55"
    expect(wrappedLines('ab -55', 4)).toBe(2); // "ab" | "-55"
  });

  it('cuts a piece longer than a line anywhere', () => {
    expect(wrappedLines('abcdefghijklmnopqrstuvwxy', 10)).toBe(3);
  });

  it('counts wide characters as two columns', () => {
    // "名前=1" is 6 columns: one per line at 6.
    expect(wrappedLines('名前=1 名前=2', 6)).toBe(2);
    expect(wrappedLines('名前=1 名前=2', 13)).toBe(1);
  });
});

describe('RowLayout', () => {
  const line = (text: string) => ({ line: 1, text });

  it('places rows of one line 24 px apart, and a wrapped row 18 px taller per line', () => {
    // At 10 columns: 1, 3, 1 and 2 lines.
    const layout = new RowLayout([line('a'), line('web1=0 web2=10 web3=10'), line('b'), line('web1=0 web2=10')], 10);
    expect([0, 1, 2, 3].map((i) => layout.lines(i))).toEqual([1, 3, 1, 2]);
    expect([0, 1, 2, 3].map((i) => layout.top(i))).toEqual([0, 24, 84, 108]);
    expect(layout.rowHeight(1)).toBe(ROW_HEIGHT + 2 * LINE_HEIGHT);
    expect(layout.height).toBe(108 + 42);
    expect([0, 23, 24, 83, 84, 107, 108, 500].map((y) => layout.indexAt(y))).toEqual([0, 0, 1, 1, 2, 2, 3, 3]);
  });

  it('stores only the rows that wrap, and caps a row at MAX_LINES', () => {
    const lines = Array.from({ length: 100_000 }, (_, i) => line(i === 50_000 ? 'x '.repeat(1000) : 'a'));
    const layout = new RowLayout(lines, 10);
    expect(layout.lines(50_000)).toBe(MAX_LINES);
    expect(layout.top(50_001)).toBe(50_001 * ROW_HEIGHT + (MAX_LINES - 1) * LINE_HEIGHT);
    expect(layout.indexAt(layout.top(99_999))).toBe(99_999);
  });
});

describe('WrapMemo', () => {
  it('gives what wrappedLines gives, for the width asked, after a change of width too', () => {
    const memo = new WrapMemo();
    const texts = ['web1=0 web2=10 web3=10', 'a', 'api-eu-west=5 x', '名前=1 名前=2', 'abcdefghijklmnopqrstuvwxy'];
    for (const cols of [10, 6, 13, 10, 8]) {
      for (const t of [...texts, ...texts]) expect(memo.lines(t, cols), `${t} at ${cols}`).toBe(wrappedLines(t, cols));
    }
  });

  it('lays out a run like the memo-less layout, run after run', () => {
    const memo = new WrapMemo();
    const run = (k: number) => Array.from({ length: 300 }, (_, i) => ({ line: i + 1, text: i % 10 ? 'a' : `w${i}=${k} x=${i} y-${k}=1` }));
    for (const k of [1, 2, 1]) {
      const a = new RowLayout(run(k), 9, memo);
      const b = new RowLayout(run(k), 9);
      expect(a.height).toBe(b.height);
      expect(Array.from({ length: 300 }, (_, i) => a.top(i))).toEqual(Array.from({ length: 300 }, (_, i) => b.top(i)));
    }
  });
});
