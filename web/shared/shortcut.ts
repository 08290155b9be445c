// Keyboard shortcuts as the learner's keyboard labels them: ⌘ on a Mac,
// Ctrl elsewhere (CodeMirror's "Mod" is the same choice). The key binding
// itself takes both: this only decides what the page says.
import { h } from './dom.js';

/** True on macOS and iOS, where "Mod" is ⌘. */
function isMac(win: Window): boolean {
  return /Mac|iPhone|iPad/.test(win.navigator.platform);
}

/** The modifier's name in a sentence: "⌘" or "Ctrl" (as in "Ctrl+Enter"). */
export function modKey(win: Window): string {
  return isMac(win) ? '⌘' : 'Ctrl';
}

/** The short label on a button that Mod+Enter presses: "⌘↵" or "Ctrl+↵". */
function modEnterLabel(win: Window): string {
  return isMac(win) ? '⌘↵' : 'Ctrl+↵';
}

/** A primary button labelled `text` that Mod+Enter presses too (the key is bound by the editor). */
export function modEnterButton(doc: Document, text: string, extraClass = ''): HTMLButtonElement {
  return h(
    doc,
    'button',
    {
      class: `ss-btn ss-primary${extraClass ? ` ${extraClass}` : ''}`,
      attrs: { type: 'button', 'aria-keyshortcuts': 'Control+Enter Meta+Enter' },
    },
    h(doc, 'span', { text }),
    h(doc, 'kbd', { class: 'ss-kbd', text: modEnterLabel(doc.defaultView ?? window) }),
  );
}
