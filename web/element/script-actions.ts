// The controls that keep a learner's work: "Reset to starter" and "Share
// link" in the toolbar, the link to copy, and one line of notes ("your
// edits from last time are back", "opened from a link", "this browser
// does not keep edits") with the action each one calls for.
import { h, setText } from '../runner/dom.js';

export interface NoteAction {
  label: string;
  run: () => void;
}

export class ScriptActions {
  /** Toolbar buttons. */
  readonly reset: HTMLButtonElement;
  readonly share: HTMLButtonElement;
  /** Goes under the toolbar: the link box and the notes. */
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #linkRow: HTMLDivElement;
  readonly #linkInput: HTMLInputElement;
  readonly #linkStatus: HTMLSpanElement;
  readonly #note: HTMLParagraphElement;
  readonly #storageNote: HTMLParagraphElement;

  constructor(doc: Document, handlers: { onReset: () => void; onShare: () => void }) {
    this.#doc = doc;
    this.reset = h(doc, 'button', {
      class: 'ss-btn sse-reset-btn',
      text: 'Reset to starter',
      attrs: { type: 'button', title: 'Put the starter script back (Ctrl+Z undoes it)' },
    });
    this.reset.addEventListener('click', handlers.onReset);
    this.share = h(doc, 'button', {
      class: 'ss-btn sse-share-btn',
      text: 'Share link',
      attrs: { type: 'button', title: 'A link to this page that opens this script here' },
    });
    this.share.addEventListener('click', handlers.onShare);

    this.#linkInput = h(doc, 'input', { class: 'sse-link', attrs: { type: 'url', readonly: '', 'aria-label': 'Link to this script' } });
    this.#linkInput.addEventListener('focus', () => this.#linkInput.select());
    this.#linkStatus = h(doc, 'span', { class: 'sse-link-status', attrs: { role: 'status' } });
    const close = h(doc, 'button', { class: 'ss-btn sse-small', text: 'Close', attrs: { type: 'button' } });
    close.addEventListener('click', () => {
      this.#linkRow.hidden = true;
      this.share.focus();
    });
    this.#linkRow = h(doc, 'div', { class: 'sse-link-row' }, this.#linkInput, this.#linkStatus, close);
    this.#linkRow.hidden = true;
    this.#note = h(doc, 'p', { class: 'sse-note' });
    this.#note.hidden = true;
    this.#storageNote = h(doc, 'p', {
      class: 'sse-note sse-note-warn',
      text: 'This browser does not let the page keep your edits: use Share link to keep a copy.',
    });
    this.#storageNote.hidden = true;
    this.element = h(doc, 'div', { class: 'sse-actions' }, this.#linkRow, this.#note, this.#storageNote);
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

  /** The clipboard took the link (said only if that link is still the one shown). */
  copied(url: string): void {
    if (!this.#linkRow.hidden && this.#linkInput.value === url) setText(this.#linkStatus, 'Copied to the clipboard.');
  }

  /** One line of news about the script, with buttons; null hides it. */
  note(text: string | null, ...actions: NoteAction[]): void {
    const doc = this.#doc;
    this.#note.hidden = text === null;
    this.#note.replaceChildren();
    if (text === null) return;
    this.#note.append(doc.createTextNode(text));
    for (const action of actions) {
      const button = h(doc, 'button', { class: 'ss-btn sse-small', text: action.label, attrs: { type: 'button' } });
      button.addEventListener('click', action.run);
      this.#note.append(doc.createTextNode(' '), button);
    }
  }

  /** Says (or stops saying) that edits are not being kept. */
  storageUnavailable(unavailable: boolean): void {
    this.#storageNote.hidden = !unavailable;
  }
}
