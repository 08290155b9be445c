// When the learner's code is kept (code-storage.ts says where): shortly after
// the last edit, before a run, when the page is left, and when the view
// goes. One failure to keep it is said, once per attempt, in the status.
import type { CodeStorage } from './code-storage.js';

/** Saved this long after the last edit (ms). */
export const SAVE_DELAY_MS = 400;

export class CodeSaver {
  readonly #win: Window;
  readonly #storage: CodeStorage;
  readonly #code: () => string;
  readonly #onFail: () => void;
  readonly #onPageHide = () => this.now();
  #timer = 0;

  /** `code` reads the code to keep; `onFail` hears that it could not be kept. */
  constructor(win: Window, storage: CodeStorage, code: () => string, onFail: () => void) {
    this.#win = win;
    this.#storage = storage;
    this.#code = code;
    this.#onFail = onFail;
    win.addEventListener('pagehide', this.#onPageHide);
  }

  /** The code changed: keep it once the learner pauses. */
  soon(): void {
    this.#win.clearTimeout(this.#timer);
    this.#timer = this.#win.setTimeout(() => this.now(), SAVE_DELAY_MS);
  }

  /** Keeps the code now. */
  now(): void {
    this.#win.clearTimeout(this.#timer);
    if (this.#storage.available && !this.#storage.save(this.#code())) this.#onFail();
  }

  /** Keeps the code a last time and stops listening. */
  destroy(): void {
    this.now();
    this.#win.removeEventListener('pagehide', this.#onPageHide);
  }
}
