// Diagnostics' columns as the engine counts them (bytes of their line, in
// UTF-8) as UTF-16 code units, the indices of a JavaScript string, found
// from the script's own UTF-8 bytes (a lone surrogate is 3 bytes there, as
// wtf8.ts writes it: one unit). Diagnostics come in line order, so the
// script is walked once.

/** Rewrites `columns` (from, to per diagnostic, at `lines`) of `script`'s bytes in UTF-16 units. */
export function toUtf16Columns(script: Uint8Array, lines: Uint32Array, columns: Uint32Array): void {
  let line = 1;
  let start = 0; // where `line` starts
  for (let i = 0; i < lines.length; i++) {
    if (lines[i] < line) [line, start] = [1, 0];
    for (; line < lines[i]; line++) {
      const newline = script.indexOf(0x0a, start);
      if (newline < 0) break;
      start = newline + 1;
    }
    // Every byte that starts a character is one unit, or two for a 4-byte one (a surrogate pair).
    let units = 0;
    let at = start;
    for (const k of [2 * i, 2 * i + 1]) {
      const end = Math.min(start + columns[k], script.length);
      for (; at < end; at++) if ((script[at] & 0xc0) !== 0x80) units += script[at] >= 0xf0 ? 2 : 1;
      columns[k] = units;
    }
  }
}
