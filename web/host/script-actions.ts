// The controls that keep a learner's work: "Reset to starter", "Share link"
// and "Download" in the toolbar, the link to copy, one line of news about
// the script ("your edits from last time are back", "opened from a link")
// with the action each one calls for, one line about storage (what is and
// is not kept), and the learner's earlier versions to restore.
import { h, setText } from '../shared/dom.js';
import { VersionsList } from '../shared/versions-list.js';
import type { Version } from './script-store.js';

export interface NoteAction {
  label: string;
  run: () => void;
}

export interface ScriptActionHandlers {
  onReset: () => void;
  onShare: () => void;
  onDownload: () => void;
  /** Restores the learner's earlier version `index` (newest first). */
  onRestore: (index: number) => void;
}

export class ScriptActions {
  /** Toolbar buttons. */
  readonly reset: HTMLButtonElement;
  readonly share: HTMLButtonElement;
  readonly download: HTMLButtonElement;
  /** Goes under the toolbar: the link box, the notes and the versions. */
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #linkRow: HTMLDivElement;
  readonly #linkInput: HTMLInputElement;
  readonly #linkStatus: HTMLSpanElement;
  readonly #note: HTMLParagraphElement;
  readonly #storageNote: HTMLParagraphElement;
  readonly #versions: VersionsList;

  constructor(doc: Document, handlers: ScriptActionHandlers) {
    this.#doc = doc;
    const button = (cls: string, text: string, title: string, run: () => void) => {
      const b = h(doc, 'button', { class: `ss-btn ${cls}`, text, attrs: { type: 'button', title } });
      b.addEventListener('click', run);
      return b;
    };
    this.reset = button('sse-reset-btn', 'Reset to starter', 'Put the starter script back (Ctrl+Z undoes it)', handlers.onReset);
    this.share = button('sse-share-btn', 'Share link', 'A link to this page that opens this script here', handlers.onShare);
    this.download = button('sse-download-btn', 'Download', 'Save this script as a text file', handlers.onDownload);

    this.#linkInput = h(doc, 'input', { class: 'sse-link', attrs: { type: 'url', readonly: '', 'aria-label': 'Link to this script' } });
    this.#linkInput.addEventListener('focus', () => this.#linkInput.select());
    this.#linkStatus = h(doc, 'span', { class: 'sse-link-status', attrs: { role: 'status' } });
    const close = button('sse-small', 'Close', 'Hide the link', () => {
      this.#linkRow.hidden = true;
      this.share.focus();
    });
    this.#linkRow = h(doc, 'div', { class: 'sse-link-row' }, this.#linkInput, this.#linkStatus, close);
    this.#linkRow.hidden = true;
    this.#note = h(doc, 'p', { class: 'sse-note' });
    this.#note.hidden = true;
    this.#storageNote = h(doc, 'p', { class: 'sse-note sse-note-warn sse-storage-note', attrs: { role: 'status' } });
    this.#storageNote.hidden = true;
    this.#versions = new VersionsList(doc, {
      classes: { details: 'sse-disclosure sse-versions', list: 'sse-versions-list', button: 'ss-btn sse-small' },
      onRestore: handlers.onRestore,
    });
    this.element = h(doc, 'div', { class: 'sse-actions' }, this.#linkRow, this.#note, this.#storageNote, this.#versions.element);
  }

  /** Whether the script differs from the starter (Reset is only useful then). */
  setModified(modified: boolean): void {
    this.reset.disabled = !modified;
  }

  /** Shows the link to copy. */
  showLink(url: string): void {
    this.#linkInput.value = url;
    setText(this.#linkStatus, 'Copy this link.');
    this.#linkRow.hidden = false;
    this.#linkInput.focus();
  }

  /** Hides the link box (a link was refused, or is out of date). */
  hideLink(): void {
    this.#linkRow.hidden = true;
  }

  /** The clipboard took the link (said only if that link is still the one shown). */
  copied(url: string): void {
    if (!this.#linkRow.hidden && this.#linkInput.value === url) setText(this.#linkStatus, 'Copied to the clipboard.');
  }

  /** One line of news about the script, with buttons; null hides it. */
  note(text: string | null, ...actions: NoteAction[]): void {
    this.#fill(this.#note, text, actions);
  }

  /** One line about storage (what is not kept, and what is), with buttons; null hides it. */
  storageNote(text: string | null, ...actions: NoteAction[]): void {
    this.#fill(this.#storageNote, text, actions);
  }

  /** The learner's earlier versions, newest first (hidden when there are none). */
  setVersions(versions: readonly Version[], describe: (v: Version) => string): void {
    this.#versions.set(versions.map(describe));
  }

  #fill(line: HTMLParagraphElement, text: string | null, actions: NoteAction[]): void {
    const doc = this.#doc;
    line.hidden = text === null;
    line.replaceChildren();
    if (text === null) return;
    line.append(doc.createTextNode(text));
    for (const action of actions) {
      const button = h(doc, 'button', { class: 'ss-btn sse-small', text: action.label, attrs: { type: 'button' } });
      button.addEventListener('click', action.run);
      line.append(doc.createTextNode(' '), button);
    }
  }
}
