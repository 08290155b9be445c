// A learner's script, kept in localStorage per page and element, so that
// nothing typed is lost on a reload. Storage may be missing or refuse
// (private modes, sandboxed iframes, blocked site data, a full quota):
// then nothing is kept and `available` says so, and nothing throws.

interface SavedRecord {
  v: 1;
  /** The learner's script. */
  script: string;
  /** A hash of the starter it was written against (did the author change it since?). */
  starter: string;
  /** The permalink code last opened or shared here: a reload with it still in the URL keeps the edits made since. */
  link?: string;
  /** The learner's script from before a permalink replaced it. */
  backup?: string;
}

export class ScriptStore {
  readonly #storage: Storage | null;
  readonly #key: string;
  readonly #starter: string;
  readonly #starterHash: string;
  #record: SavedRecord | null = null;
  #ok: boolean;

  constructor(win: Window, key: string, starter: string) {
    this.#key = key;
    this.#starter = starter;
    this.#starterHash = hash(starter);
    this.#storage = openStorage(win);
    this.#ok = this.#storage !== null;
    this.#record = this.#read();
  }

  /** False when the browser would not let us save (so the element can say so). */
  get available(): boolean {
    return this.#ok;
  }

  /** The saved script, or null when there is none (the learner has the starter). */
  get script(): string | null {
    return this.#record?.script ?? null;
  }

  /** True when the saved script was written against a different starter than the current one. */
  get starterChanged(): boolean {
    return this.#record !== null && this.#record.starter !== this.#starterHash && this.#record.script !== this.#starter;
  }

  get link(): string | null {
    return this.#record?.link ?? null;
  }

  get backup(): string | null {
    return this.#record?.backup ?? null;
  }

  /** Keeps `script` (forgets it when it is the starter and nothing else needs keeping). */
  save(script: string): void {
    this.#update({ script });
  }

  /** Remembers that the script now in the editor came from (or went out as) this permalink code. */
  setLink(code: string): void {
    this.#update({ link: code });
  }

  /** Keeps (or, with null, drops) the learner's script from before a permalink replaced it. */
  setBackup(script: string | null): void {
    this.#update({ backup: script ?? undefined });
  }

  #update(change: Partial<SavedRecord>): void {
    const base: SavedRecord = this.#record ?? { v: 1, script: this.#starter, starter: this.#starterHash };
    const next: SavedRecord = { ...base, ...change, starter: change.script !== undefined ? this.#starterHash : base.starter };
    if (next.backup === undefined) delete next.backup;
    const empty = next.script === this.#starter && next.link === undefined && next.backup === undefined;
    this.#record = empty ? null : next;
    if (!this.#storage) return;
    try {
      if (empty) this.#storage.removeItem(this.#key);
      else this.#storage.setItem(this.#key, JSON.stringify(next));
      this.#ok = true;
    } catch {
      this.#ok = false; // quota, or storage switched off since
    }
  }

  #read(): SavedRecord | null {
    try {
      const text = this.#storage?.getItem(this.#key);
      if (!text) return null;
      const r = JSON.parse(text) as Partial<SavedRecord>;
      if (r.v !== 1 || typeof r.script !== 'string' || typeof r.starter !== 'string') return null;
      return {
        v: 1,
        script: r.script,
        starter: r.starter,
        ...(typeof r.link === 'string' ? { link: r.link } : {}),
        ...(typeof r.backup === 'string' ? { backup: r.backup } : {}),
      };
    } catch {
      return null; // unreadable or not ours: start from the starter
    }
  }
}

// Reading window.localStorage itself throws where storage is blocked.
function openStorage(win: Window): Storage | null {
  try {
    const storage = win.localStorage;
    const probe = '__slowstart_probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return null;
  }
}

/** FNV-1a, 32 bits, as hex: enough to notice that a starter changed. */
function hash(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
