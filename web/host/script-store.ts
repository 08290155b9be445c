// A learner's script, kept in localStorage per page and element, so that
// nothing typed is lost on a reload, and the learner's own versions, so that
// no share link can take their work away.
//
// - The record is read even when storage cannot be written (a full quota):
//   what was saved comes back; only new writes fail, and `problem` says so.
// - A script opened from a link never overwrites the learner's own work: the
//   own script is put aside in `versions` (newest first, at most
//   MAX_VERSIONS, no duplicates) and comes back with restore(), however
//   many links were opened since.
// - When a write fails, older versions are dropped first to make room (the
//   newest own version never is); if it still fails, storage keeps the last
//   record that fitted, and `problem` says what is and is not kept.
// - The same page open in two tabs shares the record: every change starts
//   from what storage holds now (refresh()), never from this tab's older
//   copy, so a tab writes only what it changed; when another tab's edit is
//   replaced before this tab ever showed it, it is put aside in `versions`.
// - Work kept under a key of an earlier version (the page's path without
//   its query) is taken over once, when this key holds nothing yet.
// Storage may be missing (private modes, sandboxed iframes, blocked site
// data): the store then works in memory for the page's life, and nothing throws.

import { sliceText } from '../shared/doc-text.js';

/** One of the learner's own versions, put aside when a link (or a restore) replaced it. */
export interface Version {
  script: string;
  /** When it was put aside (ms since 1970; 0 when unknown). */
  at: number;
}

interface SavedRecord {
  v: 2;
  /** What the editor holds. */
  script: string;
  /** A hash of the starter it was written against (did the author change it since?). */
  starter: string;
  /** When `script` was last changed (ms since 1970). */
  at: number;
  /** True when `script` is the learner's own work; false while it is a link's script as opened. */
  own: boolean;
  /** The link payload last opened or shared here: a reload with it still in the URL keeps the edits made since. */
  link?: string;
  /** The learner's own earlier versions, newest first. */
  versions: Version[];
  /** In a record under a legacy key: the keys that have taken it over (so a Reset there is not undone by it). */
  takenBy?: string[];
}

/** What browsers give a site's localStorage: 5 Mi UTF-16 code units, keys and values (measured in Chromium). */
export const STORAGE_QUOTA_CHARS = 5 * 1024 * 1024;

/**
 * The longest script kept (UTF-16 units). Turning a longer one into JSON and
 * writing it takes the page over 100 ms at a time (150 ms for 5 MB), and it
 * would fill most of the site's quota anyway.
 */
export const MAX_SAVED_CHARS = 2 * 1024 * 1024;

/** How many of the learner's own versions are kept besides the script in the editor. */
export const MAX_VERSIONS = 5;

/**
 * What storage does not hold of what the learner has: the latest script
 * (`script`), or only some of the oldest versions (`versions`). Either way
 * the page still has all of it until it is closed.
 */
export type StorageProblem =
  | {
      /** The latest script is not kept (the quota is full, or the script is over MAX_SAVED_CHARS). */
      kind: 'script';
      /** When the record that storage still holds was saved, or null when it holds none. */
      savedAt: number | null;
      /** The size of the script that could not be written, in UTF-16 code units (what the quota counts). */
      scriptLength: number;
    }
  | { kind: 'versions'; dropped: number };

export class ScriptStore {
  readonly #storage: Storage | null;
  readonly #key: string;
  readonly #starter: string;
  readonly #starterHash: string;
  #record: SavedRecord | null = null;
  /** What storage held under the key when this store last read or wrote it: anything else is another tab's. */
  #raw: string | null = null;
  /** The script this tab last showed as the saved one: a different stored script is another tab's edit. */
  #base: string;
  /** When the record now in storage was saved (null: none). */
  #storedAt: number | null = null;
  #problem: StorageProblem | null = null;

  /** `legacyKey`: where an earlier version kept this work (identity.ts), read while `key` holds nothing. */
  constructor(win: Window, key: string, starter: string, legacyKey: string | null = null) {
    this.#key = key;
    this.#starter = starter;
    this.#starterHash = hash(starter);
    this.#storage = openStorage(win);
    this.refresh();
    if (this.#record === null && this.#raw === null && legacyKey !== null) this.#takeOver(legacyKey);
    this.#base = this.#record?.script ?? starter;
  }

  /** False when the browser does not let the page use storage at all. */
  get available(): boolean {
    return this.#storage !== null;
  }

  /** Set while storage does not hold all the page has (a full quota); null once a whole write succeeds. */
  get problem(): StorageProblem | null {
    return this.#problem;
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

  /** True while the script is a link's, as opened: neither edited nor kept by the learner. */
  get linked(): boolean {
    return this.#record !== null && !this.#record.own && this.#record.link !== undefined;
  }

  /** The learner's own earlier versions, newest first. */
  get versions(): readonly Version[] {
    return this.#record?.versions ?? [];
  }

  /** When the saved script was last changed (ms since 1970), or null when nothing is saved. */
  get savedAt(): number | null {
    return this.#record?.at ?? null;
  }

  /**
   * Reads storage again: true when another tab changed the record since
   * this store last read or wrote it (the store then holds theirs). When
   * this store's own last write did not fit, storage still holds the
   * record before it, and the store keeps what it has.
   */
  refresh(): boolean {
    if (!this.#storage) return false;
    let raw: string | null;
    try {
      raw = this.#storage.getItem(this.#key);
    } catch {
      return false;
    }
    if (raw === this.#raw) return false;
    const record = raw === null ? null : parseText(raw);
    this.#raw = raw;
    if (raw !== null && record === null && this.#record !== null) return false; // not a record of ours: what this page has stands
    this.#record = record;
    this.#storedAt = record?.at ?? null;
    this.#problem = null;
    return true;
  }

  /** The tab now shows the saved script (another tab's, after refresh()): its later edits replace it knowingly. */
  followed(): void {
    this.#base = this.#record?.script ?? this.#starter;
  }

  /**
   * Keeps `script` as the learner's own (a no-op when it is what is saved
   * already: a link's script stays a link's). A script another tab saved
   * since this tab last showed the saved one is put aside, not lost.
   */
  save(script: string): void {
    const r = this.#current();
    if (script === r.script && this.#record !== null) return;
    const theirs = r.own && r.script !== this.#base;
    const versions = theirs ? this.#putAside(r.versions, r.script, script) : r.versions;
    this.#write({ ...r, script, own: true, versions, at: Date.now(), starter: this.#starterHash });
  }

  /** Remembers that the script now in the editor came from (or went out as) this link payload. */
  setLink(code: string): void {
    this.#write({ ...this.#current(), link: code });
  }

  /** A link's script replaces the editor's: the learner's own script is put aside first. */
  adoptLink(code: string, script: string): void {
    const r = this.#current();
    const versions = r.own ? this.#putAside(r.versions, r.script, script) : r.versions;
    this.#write({ ...r, script, own: false, link: code, versions, at: Date.now(), starter: this.#starterHash });
  }

  /** The learner keeps the link's script as their own (their earlier versions stay). */
  keepLinked(): void {
    this.#write({ ...this.#current(), own: true });
  }

  /**
   * Takes version `index` out of the versions and makes it the script; the
   * script it replaces is put aside if it is the learner's own. Returns the
   * restored script.
   */
  restore(index: number): string {
    const r = this.#current();
    const chosen = r.versions[index];
    if (!chosen) return r.script;
    const rest = r.versions.filter((_, i) => i !== index);
    const versions = r.own ? this.#putAside(rest, r.script, chosen.script) : rest;
    this.#write({ ...r, script: chosen.script, own: true, versions, at: Date.now(), starter: this.#starterHash });
    return chosen.script;
  }

  // What storage holds now (another tab may have written since), else what this page has.
  #current(): SavedRecord {
    this.refresh();
    return this.#record ?? { v: 2, script: this.#starter, starter: this.#starterHash, at: Date.now(), own: true, versions: [] };
  }

  // The record an earlier version kept under `legacyKey` (shared by every
  // page with that path) becomes this key's, once per key. It opens as it
  // is on the first page to take it over, if written against this starter:
  // the page the learner comes back to first is the likeliest to be the one
  // they left. Anywhere else (another page took it, or it was written
  // against another starter) it goes among the earlier versions, so no page
  // opens with another page's work and nothing is lost.
  #takeOver(legacyKey: string): void {
    let old: SavedRecord | null = null;
    try {
      const raw = this.#storage?.getItem(legacyKey);
      old = raw ? parseText(raw) : null;
    } catch {
      return;
    }
    if (!old || old.takenBy?.includes(this.#key)) return;
    const mine = old.starter === this.#starterHash && !old.takenBy?.length;
    const { takenBy: _, ...record } = old;
    const own = old.own ? [{ script: old.script, at: old.at }] : [];
    const versions = [...own, ...old.versions].filter((v) => v.script !== this.#starter).slice(0, MAX_VERSIONS);
    this.#write(mine ? record : { v: 2, script: this.#starter, starter: this.#starterHash, at: Date.now(), own: true, versions });
    try {
      this.#storage?.setItem(legacyKey, JSON.stringify({ ...old, takenBy: [...(old.takenBy ?? []), this.#key] }));
    } catch {
      // full: it may be taken over again later, which loses nothing either
    }
  }

  // `script` goes to the front of `versions` unless it is the starter or the
  // script replacing it; duplicates go, and the oldest past MAX_VERSIONS.
  #putAside(versions: Version[], script: string, replacement: string): Version[] {
    if (script === this.#starter || script === replacement) return versions;
    return [{ script, at: Date.now() }, ...versions.filter((v) => v.script !== script)].slice(0, MAX_VERSIONS);
  }

  // The page keeps `next` whatever happens; storage gets as much of it as fits.
  #write(next: SavedRecord): void {
    const empty = next.script.length === this.#starter.length && next.script === this.#starter && next.link === undefined && next.versions.length === 0;
    this.#record = empty ? null : next;
    this.#base = next.script;
    if (!this.#storage) return;
    if (!empty && next.script.length > MAX_SAVED_CHARS) {
      // Not kept: no long task spent turning megabytes into JSON to find out whether they fit.
      this.#problem = { kind: 'script', savedAt: this.#storedAt, scriptLength: next.script.length };
      return;
    }
    try {
      if (empty) {
        this.#storage.removeItem(this.#key);
        this.#stored(null, null);
        return;
      }
    } catch {
      return; // storage switched off since: the record lives on in memory
    }
    // Older versions give way first; the newest own version and the script never do.
    const all = next.versions.length;
    for (let keep = all; keep >= Math.min(1, all); keep--) {
      try {
        const raw = JSON.stringify(keep === all ? next : { ...next, versions: next.versions.slice(0, keep) });
        this.#storage.setItem(this.#key, raw);
        this.#stored(next.at, raw);
        if (keep < all) this.#problem = { kind: 'versions', dropped: all - keep };
        return;
      } catch {
        // quota: try with fewer versions
      }
    }
    this.#problem = { kind: 'script', savedAt: this.#storedAt, scriptLength: next.script.length };
  }

  #stored(at: number | null, raw: string | null): void {
    this.#storedAt = at;
    this.#raw = raw;
    this.#problem = null;
  }
}

/** A stored record, or null when it is unreadable or not ours (the learner then starts from the starter). */
function parseText(text: string): SavedRecord | null {
  try {
    return parseRecord(JSON.parse(text));
  } catch {
    return null;
  }
}

/** A stored record of this version or the first (which kept one `backup`), or null. */
function parseRecord(r: Omit<Partial<SavedRecord>, 'v'> & { v?: number; backup?: unknown }): SavedRecord | null {
  if (typeof r !== 'object' || r === null || typeof r.script !== 'string' || typeof r.starter !== 'string') return null;
  const link = typeof r.link === 'string' ? { link: r.link } : {};
  if (r.v === 1) {
    const backup = typeof r.backup === 'string' ? r.backup : null;
    // Version 1 kept the learner's script from before a link as `backup`.
    return { v: 2, script: r.script, starter: r.starter, at: 0, own: backup === null, ...link, versions: backup === null ? [] : [{ script: backup, at: 0 }] };
  }
  if (r.v !== 2) return null;
  const versions = Array.isArray(r.versions)
    ? r.versions.filter((v): v is Version => typeof v?.script === 'string').map((v) => ({ script: v.script, at: Number(v.at) || 0 }))
    : [];
  const takenBy = Array.isArray(r.takenBy) ? { takenBy: r.takenBy.filter((k): k is string => typeof k === 'string') } : {};
  return { v: 2, script: r.script, starter: r.starter, at: Number(r.at) || 0, own: r.own !== false, ...link, versions, ...takenBy };
}

// Reading window.localStorage itself throws where storage is blocked. No
// write to probe it: a full quota must not hide what is saved.
function openStorage(win: Window): Storage | null {
  try {
    const storage = win.localStorage;
    storage.getItem('slowstart:probe');
    return storage;
  } catch {
    return null;
  }
}

/**
 * FNV-1a, 32 bits, as hex: enough to notice that a starter changed. Of a
 * starter over 2 MiB only the length and the first and last MiB count (the
 * whole of a 50 MB one would take a quarter of a second), cut without
 * copying the rest of a fetched one (doc-text.ts).
 */
function hash(text: string): string {
  const part = 1 << 20;
  const sample =
    text.length <= 2 * part ? text : `${text.length}:${sliceText(text, 0, part)}${sliceText(text, text.length - part, text.length)}`;
  let h = 0x811c9dc5;
  for (let i = 0; i < sample.length; i++) {
    h ^= sample.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
