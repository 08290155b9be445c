// When the learner's code is kept (code-storage.ts says where): shortly after
// the last edit, before a run, when the learner leaves the tab, and when the
// view goes; and only code edited in this tab, so a tab left open with old
// code never writes it over newer code saved in another tab. That newer
// code reaches this tab (shared/other-tabs.ts) and is handed to `changed`,
// unless this tab has an edit waiting to be saved: saved in a moment, that
// edit is the latest and wins, and the other tab's code is handed to
// `replacing` first (the view keeps it among the earlier versions). One
// failure to keep the code is said, once per attempt, in the status.
import type { CodeStorage } from './code-storage.js';
import { followOtherTabs } from '../shared/other-tabs.js';

/** Saved this long after the last edit (ms). */
export const SAVE_DELAY_MS = 400;

export interface CodeSaverEvents {
  /** The code could not be kept. */
  failed(): void;
  /** Another tab saved this code: show it (it is what is kept now). */
  changed(code: string): void;
  /** This tab's code is about to replace `theirs`, which another tab saved since this tab last read what is kept. */
  replacing?(theirs: string): void;
}

export class CodeSaver {
  readonly #win: Window;
  readonly #storage: CodeStorage;
  readonly #code: () => string;
  readonly #on: CodeSaverEvents;
  readonly #unfollow: () => void;
  #timer = 0;
  #edited = false; // an edit of this tab is waiting to be saved
  #known: string | null; // what is kept, as this tab last read or wrote it

  /** `code` reads the code to keep. */
  constructor(win: Window, storage: CodeStorage, code: () => string, on: CodeSaverEvents) {
    this.#win = win;
    this.#storage = storage;
    this.#code = code;
    this.#on = on;
    this.#known = storage.load();
    this.#unfollow =
      storage.key === null ? () => {} : followOtherTabs(win, storage.key, { changed: () => this.#follow(), leaving: () => this.now() });
  }

  /** The learner changed the code: keep it once they pause. */
  soon(): void {
    this.#edited = true;
    this.#win.clearTimeout(this.#timer);
    this.#timer = this.#win.setTimeout(() => this.now(), SAVE_DELAY_MS);
  }

  /** Keeps the code now, if it was edited here since it was last kept. */
  now(): void {
    this.#win.clearTimeout(this.#timer);
    if (!this.#edited || !this.#storage.available) return;
    const code = this.#code();
    const kept = this.#storage.load();
    if (kept !== null && kept !== this.#known && kept !== code) this.#on.replacing?.(kept);
    if (!this.#storage.save(code)) return this.#on.failed(); // still waiting: tried again at the next chance
    this.#edited = false;
    this.#known = code;
  }

  /** Keeps the code a last time and stops listening. */
  destroy(): void {
    this.now();
    this.#unfollow();
  }

  #follow(): void {
    if (this.#edited) return;
    const kept = this.#storage.load();
    if (kept === null || kept === this.#known) return;
    this.#known = kept;
    if (kept !== this.#code()) this.#on.changed(kept);
  }
}
