// Counting words for people, one way everywhere: "1 pick", "3 picks".

/** `n` and `word`, with an "s" unless `n` is 1 (every word counted on the page takes one). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
