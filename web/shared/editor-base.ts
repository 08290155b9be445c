// What the runner's two CodeMirror editors (the script editor and the
// implement mode's code editor) share: the look, the basic editing set-up,
// and two text operations. Each editor adds its own language and keys.
import { history } from '@codemirror/commands';
import { Prec, type Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  keymap,
  type ViewUpdate,
} from '@codemirror/view';
import { lineNumbersInLines } from './line-numbers.js';
import { visibleSpecialChars } from './special-chars.js';

// Colours come from the runner's CSS variables (web/runner/styles.ts), so one theme
// follows the light/dark switch without rebuilding the editor.
export const baseEditorTheme = EditorView.theme({
  '&': { height: '100%', color: 'var(--ss-fg)', backgroundColor: 'var(--ss-editor-bg)', fontSize: '14px' },
  '.cm-scroller': { fontFamily: 'var(--ss-mono)', lineHeight: '1.55' },
  '.cm-content': { caretColor: 'var(--ss-fg)' },
  // The ring is drawn inside the editor's frame: the content's own outline is clipped by the scroller.
  '&.cm-focused': { outline: '2px solid var(--ss-accent)', outlineOffset: '-2px' },
  '.cm-content:focus-visible': { outline: 'none' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--ss-fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection':
    { backgroundColor: 'var(--ss-selection)' },
  '.cm-gutters': { backgroundColor: 'var(--ss-gutter-bg)', color: 'var(--ss-muted)', borderRight: '1px solid var(--ss-border)' },
  '.cm-activeLine': { backgroundColor: 'var(--ss-active-line)' },
  '.cm-tooltip': { backgroundColor: 'var(--ss-panel)', color: 'var(--ss-fg)', border: '1px solid var(--ss-border)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--ss-error)' },
  '.cm-specialChar': { color: 'var(--ss-error)', fontSize: '85%' },
});

export interface BasicEditingOptions {
  /** Accessible name of the text area. */
  label: string;
  /** Ctrl/Cmd+Enter. */
  onRun(): void;
  /** The text changed (typing, paste, undo, setText); `update` says how. */
  onChange(update: ViewUpdate): void;
}

/** Line numbers, history, selection, active line, visible special characters, wrapping, Ctrl/Cmd+Enter, the label and the change callback. */
export function basicEditing(options: BasicEditingOptions): Extension[] {
  return [
    lineNumbersInLines(),
    history(),
    drawSelection(),
    highlightActiveLine(),
    visibleSpecialChars(),
    // Long comments wrap rather than hide behind a scrollbar on a phone.
    EditorView.lineWrapping,
    baseEditorTheme,
    Prec.highest(
      keymap.of([
        {
          key: 'Mod-Enter',
          run: () => {
            options.onRun();
            return true;
          },
        },
      ]),
    ),
    EditorView.contentAttributes.of({ 'aria-label': options.label }),
    typeOverSelection,
    EditorView.updateListener.of((u) => {
      if (u.docChanged) options.onChange(u);
    }),
  ];
}

/**
 * Typing over a selection is done by the editor, not by the browser. Left
 * to Chromium, a key typed over a selection that spans highlighted text
 * (select all, then type) is inserted wrapped in a <span style="color: …">
 * that keeps the deleted text's look; CodeMirror then puts its own DOM
 * back, but the style attribute has already been parsed, which a strict
 * Content-Security-Policy (no 'unsafe-inline' style-src, EMBEDDING.md)
 * reports as a style-src-attr violation, once per keystroke.
 */
const typeOverSelection = EditorView.domEventHandlers({
  beforeinput(event, view) {
    const text = event.inputType === 'insertText' ? event.data : event.inputType === 'insertParagraph' || event.inputType === 'insertLineBreak' ? '\n' : null;
    if (text === null || text === '' || view.state.selection.main.empty || view.state.readOnly || view.composing) return false;
    event.preventDefault();
    view.dispatch(view.state.replaceSelection(text), { scrollIntoView: true, userEvent: 'input.type' });
    return true;
  },
});

/** Replaces the whole text as one undoable change; the cursor goes to the top. */
export function replaceText(view: EditorView, text: string): void {
  view.dispatch({
    changes: { from: 0, to: view.state.doc.length, insert: text },
    selection: { anchor: 0 },
    scrollIntoView: true,
    userEvent: 'input.replace',
  });
}

/** Puts the cursor at the start of a 1-based line, scrolls it to the middle and focuses the editor. */
export function goToLine(view: EditorView, line: number): void {
  const doc = view.state.doc;
  if (line < 1 || line > doc.lines) return;
  const from = doc.line(line).from;
  view.dispatch({ selection: { anchor: from }, effects: EditorView.scrollIntoView(from, { y: 'center' }) });
  view.focus();
}
