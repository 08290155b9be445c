// Keeps the learner's code in localStorage under a key the host chooses, so
// it survives a reload. Storage can be blocked (private windows, sandboxed
// frames, full quota): then the code simply is not kept, and `available`
// says so. Code an earlier version kept under another key (`legacyKey`) is
// read while this key holds nothing: it becomes this key's once it is
// saved here, and stays where it was for any other page that read it.

export class CodeStorage {
  /** The key the code is kept under (null: nothing is kept). */
  readonly key: string | null;
  readonly #legacyKey: string | null;
  readonly #storage: Storage | null;

  /** `key` null: keep nothing. */
  constructor(win: Window, key: string | null, legacyKey: string | null = null) {
    this.key = key;
    this.#legacyKey = legacyKey;
    let storage: Storage | null = null;
    try {
      storage = key === null ? null : win.localStorage;
    } catch {
      storage = null; // reading localStorage itself can throw (blocked)
    }
    this.#storage = storage;
  }

  /** True when the code is being kept. */
  get available(): boolean {
    return this.#storage !== null;
  }

  /** The kept code, or null. */
  load(): string | null {
    if (!this.#storage || this.key === null) return null;
    try {
      return this.#storage.getItem(this.key) ?? (this.#legacyKey === null ? null : this.#storage.getItem(this.#legacyKey));
    } catch {
      return null;
    }
  }

  /** Keeps `code`; false when it could not be kept. */
  save(code: string): boolean {
    if (!this.#storage || this.key === null) return false;
    try {
      this.#storage.setItem(this.key, code);
      return true;
    } catch {
      return false;
    }
  }
}
