// Numbers and counted words for people, one way everywhere: "1 pick",
// "3 picks", "100,000 backends". Only what the page says: the engine's output
// lines are shown as it prints them, byte for byte, and never pass here.

/**
 * A number as the page writes it: thousands separated ("1,536", "−100,000"
 * with a real minus sign), as the Traffic tab does. Line numbers are not
 * written with it: they match the editor's gutter.
 */
export function count(n: number): string {
  // Most numbers on the page are small; a table of 24,000 cells calls this for each (one formatter
  // for all: toLocaleString builds a new one per call, ~10 µs).
  const abs = Math.abs(n);
  const s = abs < 1000 ? String(abs) : GROUPED.format(abs);
  return n < 0 ? `−${s}` : s;
}

const GROUPED = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

/** `n` and `word`, with an "s" unless `n` is 1 (every word counted on the page takes one). */
export function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}
