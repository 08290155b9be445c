// The learner's earlier versions of their code, so that nothing that leaves
// the editor is lost on a reload: the code before Reset to template, before
// a Restore, before a course page set other code, and the code of another
// tab that this tab's newer code replaced (or that replaced this tab's).
// The last MAX_CODE_VERSIONS, newest first, no duplicates, never the
// template. They are kept beside the code, under `<code key>:versions`, so
// the code's own key keeps its plain text (what earlier versions of the
// page read). Every change starts from what storage holds now, so two tabs
// add to one list; where storage is blocked or full, the list lives in
// memory for the page's life and `kept` says so.

/** How many earlier versions are kept (besides the code in the editor). */
export const MAX_CODE_VERSIONS = 5;

/** The longest code kept as a version (UTF-16 units): a runaway paste does not fill the site's storage. */
export const MAX_VERSION_CHARS = 256 * 1024;

export interface CodeVersion {
  code: string;
  /** When it was put aside (ms since 1970). */
  at: number;
}

interface VersionsRecord {
  v: 1;
  versions: CodeVersion[];
}

/** Where the versions of the code kept under `codeKey` are kept. */
export function versionsKey(codeKey: string): string {
  return `${codeKey}:versions`;
}

export class CodeVersions {
  /** The storage key (null: in memory only). */
  readonly key: string | null;
  readonly #storage: Storage | null;
  readonly #template: string;
  #versions: CodeVersion[] = [];
  #raw: string | null = null;
  #kept = true;

  /** `codeKey`: the key the code itself is kept under (null: keep nothing in storage). */
  constructor(win: Window, codeKey: string | null, template: string) {
    this.key = codeKey === null ? null : versionsKey(codeKey);
    this.#template = template;
    let storage: Storage | null = null;
    try {
      storage = this.key === null ? null : win.localStorage;
    } catch {
      storage = null; // blocked
    }
    this.#storage = storage;
    this.refresh();
  }

  /** Newest first. */
  get list(): readonly CodeVersion[] {
    return this.#versions;
  }

  /** False when the last change could not be written to storage (the list is still here until the page closes). */
  get kept(): boolean {
    return this.#kept && this.#storage !== null;
  }

  /** Reads storage again (another tab may have changed the list): true when the list changed. */
  refresh(): boolean {
    if (!this.#storage || this.key === null) return false;
    let raw: string | null;
    try {
      raw = this.#storage.getItem(this.key);
    } catch {
      return false;
    }
    if (raw === this.#raw) return false;
    this.#raw = raw;
    const read = raw === null ? [] : parseVersions(raw);
    if (read === null) return false; // not ours: what this page has stands (and is written over at the next change)
    this.#versions = read;
    return true;
  }

  /** Puts `code` at the front, unless it is the template, blank, too long to keep, or the code replacing it. */
  putAside(code: string, replacement: string | null = null): void {
    if (code === replacement || code.trim() === '' || code === this.#template || code.length > MAX_VERSION_CHARS) return;
    this.refresh();
    this.#write([{ code, at: Date.now() }, ...this.#versions.filter((v) => v.code !== code)]);
  }

  /**
   * Takes version `index` out of the list and returns its code; `current`
   * (the code it replaces) is put aside in its place. Null when there is no
   * such version (another tab took it meanwhile).
   */
  take(index: number, current: string): string | null {
    this.refresh();
    const chosen = this.#versions[index];
    if (!chosen) return null;
    const rest = this.#versions.filter((_, i) => i !== index);
    const aside = current === chosen.code || current === this.#template || current.trim() === '' || current.length > MAX_VERSION_CHARS;
    this.#write(aside ? rest : [{ code: current, at: Date.now() }, ...rest.filter((v) => v.code !== current)]);
    return chosen.code;
  }

  #write(versions: CodeVersion[]): void {
    this.#versions = versions.slice(0, MAX_CODE_VERSIONS);
    if (!this.#storage || this.key === null) return;
    const all = this.#versions.length;
    try {
      if (all === 0) {
        this.#storage.removeItem(this.key);
        this.#raw = null;
        this.#kept = true;
        return;
      }
    } catch {
      return; // storage switched off since: the list lives on in memory
    }
    // Older versions give way first when storage is nearly full (the newest never does).
    for (let keep = all; keep >= 1; keep--) {
      const raw = JSON.stringify({ v: 1, versions: this.#versions.slice(0, keep) } satisfies VersionsRecord);
      try {
        this.#storage.setItem(this.key, raw);
        this.#raw = raw;
        this.#kept = keep === all;
        return;
      } catch {
        // quota: try with fewer
      }
    }
    this.#kept = false;
  }
}

/** A stored list, or null when the text is not one of ours. */
function parseVersions(raw: string): CodeVersion[] | null {
  try {
    const r = JSON.parse(raw) as Partial<VersionsRecord> | null;
    if (!r || typeof r !== 'object' || r.v !== 1 || !Array.isArray(r.versions)) return null;
    return r.versions
      .filter((v): v is CodeVersion => typeof v?.code === 'string')
      .map((v) => ({ code: v.code, at: Number(v.at) || 0 }))
      .slice(0, MAX_CODE_VERSIONS);
  } catch {
    return null;
  }
}
