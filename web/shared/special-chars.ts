// Characters that hide or reorder text are drawn as what they are, so a
// script always shows what it runs: a bidirectional control in
// `POOL admin=1 \u202Exe.nimda=1` would otherwise make the line display as
// something else ("Trojan Source"). CodeMirror's highlightSpecialChars
// already replaces control characters (␀, ␛, …) and a few invisible ones;
// this adds every bidirectional control the engine rejects in names, and
// draws the invisible ones as `<U+202E>` (the form code-review sites use),
// with the character's name as its tooltip.
import { highlightSpecialChars } from '@codemirror/view';

/** The SPEC's bidirectional controls: U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069. */
export const BIDI_CONTROLS = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export function visibleSpecialChars() {
  return highlightSpecialChars({
    addSpecialChars: BIDI_CONTROLS,
    render(code, description, placeholder) {
      const span = document.createElement('span');
      const name = description ?? `U+${code.toString(16)}`;
      span.className = 'cm-specialChar';
      span.title = name;
      span.setAttribute('aria-label', name);
      // C0 controls keep their Control Pictures (␀); invisible characters get their code point.
      span.textContent = code < 0x20 ? placeholder : `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
      return span;
    },
  });
}
