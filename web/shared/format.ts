// Numbers and counted words for people, one way everywhere: "1 pick",
// "3 picks", "100,000 backends". Only what the page says: the engine's output
// lines are shown as it prints them, byte for byte, and never pass here.

/**
 * A number as the page writes it: thousands separated ("1,536", "−100,000"
 * with a real minus sign), as the Traffic tab does. Line numbers are not
 * written with it: they match the editor's gutter.
 */
export function count(n: number): string {
  const s = Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: 20 });
  return n < 0 ? `−${s}` : s;
}

/** `n` and `word`, with an "s" unless `n` is 1 (every word counted on the page takes one). */
export function plural(n: number, word: string): string {
  return `${count(n)} ${word}${n === 1 ? '' : 's'}`;
}
