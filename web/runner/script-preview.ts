// Scripts too big to edit. A CodeMirror document of ten million lines takes
// the page about a gigabyte and seconds-long garbage collections, whatever
// is done piece by piece; nobody edits such a script in a browser anyway.
// So a script over EDIT_LIMIT is kept as a string and shown read-only: the
// editor holds its first PREVIEW_UNITS (cut at a line end) and a note says
// so; the script itself runs in full, and saving, links and Download use
// all of it. A smaller script (Reset, an example, a link) makes the editor
// editable again.
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import type { EditorView } from '@codemirror/view';
import { h, setText } from '../shared/dom.js';
import { lineHead } from '../shared/doc-text.js';

/** Scripts longer than this (UTF-16 units) are shown, not edited. */
export const EDIT_LIMIT = 8 * 1024 * 1024;
/** How much of such a script the editor shows. */
const PREVIEW_UNITS = 1024 * 1024;

export const PREVIEW_CSS = /* css */ `
.ss-preview-note { margin: 0; padding: 6px 12px; font-size: 13px; color: var(--ss-fg); background: var(--ss-current-bg); border-bottom: 1px solid var(--ss-border); }
.ss-preview-note[hidden] { display: none; }
`;

export class ScriptPreview {
  readonly note: HTMLParagraphElement;
  readonly #readOnly = new Compartment();
  readonly #baseReadOnly: boolean;
  #full: string | null = null;

  constructor(doc: Document, readOnly: boolean) {
    this.#baseReadOnly = readOnly;
    this.note = h(doc, 'p', { class: 'ss-preview-note', attrs: { role: 'note' } });
    this.note.hidden = true;
  }

  /** The editor's read-only setting, which a preview turns on (also one begun with start()). */
  extension(): Extension {
    return this.#readOnly.of(EditorState.readOnly.of(this.#baseReadOnly || this.#full !== null));
  }

  /** The whole script while a preview is shown, else null. */
  get text(): string | null {
    return this.#full;
  }

  /** Shows `text` as a preview: returns the part the editor gets. */
  enter(view: EditorView, text: string): string {
    view.dispatch({ effects: this.#readOnly.reconfigure(EditorState.readOnly.of(true)) });
    return this.start(text);
  }

  /** Starts the editor on a preview of `text`, before the editor is made (extension() is then read-only): returns the part it gets. */
  start(text: string): string {
    this.#full = text;
    const head = lineHead(text, PREVIEW_UNITS);
    setText(
      this.note,
      `This script is ${megabytes(text.length)}: too big to edit here. The editor shows its first ${megabytes(head.length)}, ` +
        'read-only; the script runs in full. Download it to edit it in a text editor, or load a smaller one.',
    );
    this.note.hidden = false;
    return head;
  }

  /** Back to editing (a smaller script came). */
  leave(view: EditorView): void {
    if (this.#full === null) return;
    this.#full = null;
    view.dispatch({ effects: this.#readOnly.reconfigure(EditorState.readOnly.of(this.#baseReadOnly)) });
    this.note.hidden = true;
  }
}

function megabytes(units: number): string {
  return `${(units / 1024 / 1024).toFixed(1)} MB`;
}
