// Everything that keeps one element's learner work: which script it opens
// with (a link, the learner's saved edits, or the starter), saving edits as
// they happen, links opened on the open page, Reset, Share link, Download,
// the learner's earlier versions, the same work edited in another tab, and
// saying plainly what is and is not kept. The storage rules are in
// script-store.ts, the link format in permalink.ts and link-codec.ts, the
// controls in script-actions.ts.
import { downloadFile } from '../shared/exports.js';
import type { Runner } from '../runner/runner.js';
import { MAX_LINK_LENGTH, MAX_LINKED_SCRIPT_BYTES } from './link-codec.js';
import { permalink, readLink, type LinkInHash } from './permalink.js';
import { ScriptActions } from './script-actions.js';
import { MAX_SAVED_CHARS, ScriptStore, type StorageProblem, type Version } from './script-store.js';
import { BIG_TEXT, isLoading, whenLoaded } from '../shared/big-text.js';
import { readSlices } from '../shared/doc-text.js';
import { plural } from '../shared/format.js';
import { followOtherTabs } from '../shared/other-tabs.js';
import { modKey } from '../shared/shortcut.js';
import { whenKept as when } from '../shared/versions-list.js';

export interface SavedWorkOptions {
  win: Window;
  /** The element's key in links (identity.ts). */
  key: string;
  /** Its key in localStorage. */
  storageKey: string;
  /** Where an earlier version kept it, read while `storageKey` holds nothing (identity.ts). */
  legacyStorageKey?: string | null;
  starter: string;
  /** This element's part of the page's hash when it was built, decoded (readLink). */
  link: LinkInHash | null;
}

// Edits are saved this long after the last keystroke (and at once when the page is hidden).
const SAVE_DELAY_MS = 300;

export class SavedWork {
  readonly actions: ScriptActions;
  /** The script the element opens with. */
  readonly openingScript: string;
  readonly #win: Window;
  readonly #key: string;
  readonly #starter: string;
  readonly #store: ScriptStore;
  readonly #storageKey: string;
  #runner: Runner | null = null;
  #unfollow: () => void = () => {};
  #following = false; // the editor is being given another tab's script: not an edit of this tab
  #otherTab: number | null = null; // when another tab's script was shown here (said until the next edit)
  #saveTimer = 0;
  #reading = false; // a big script is being read to be saved
  #restored = false; // opened with the learner's saved edits (said until the next edit)
  // A link that gave no script, or could not be made (said until the next edit).
  #linkNote: { text: string; offerDownload: boolean } | null = null;
  #hashTurn = 0; // bumped per hash change: a slower decode never wins over a newer one

  constructor(options: SavedWorkOptions) {
    this.#win = options.win;
    this.#key = options.key;
    this.#starter = options.starter;
    this.#storageKey = options.storageKey;
    this.#store = new ScriptStore(options.win, options.storageKey, options.starter, options.legacyStorageKey ?? null);
    this.actions = new ScriptActions(options.win.document, {
      onReset: () => this.reset(),
      onShare: () => void this.share(),
      onDownload: () => void this.download(),
      onRestore: (i) => this.#restore(i),
    });
    this.openingScript = this.#opening(options.link);
  }

  /** Connects the runner that shows the script (made with `openingScript`). */
  attach(runner: Runner): void {
    this.#runner = runner;
    runner.addToolbarItems(this.actions.reset, this.actions.share, this.actions.download);
    this.actions.setModified(this.openingScript !== this.#starter);
    this.#unfollow = followOtherTabs(this.#win, this.#storageKey, {
      changed: () => this.#followOtherTab(),
      leaving: () => this.flush(),
    });
    this.#show();
  }

  /** The learner (or a program) changed the script: save it soon. */
  edited(): void {
    if (this.#following) return;
    if (this.#restored || this.#linkNote || this.#otherTab !== null) {
      this.#restored = false;
      this.#linkNote = null;
      this.#otherTab = null;
      this.#show();
    }
    this.#win.clearTimeout(this.#saveTimer);
    this.#saveTimer = this.#win.setTimeout(() => this.#save(), SAVE_DELAY_MS);
  }

  /** A run happened with `script`. */
  ran(script: string): void {
    this.actions.setModified(script !== this.#starter);
  }

  /** Saves a pending edit now. */
  flush(): void {
    if (!this.#saveTimer && !this.#reading) return;
    this.#win.clearTimeout(this.#saveTimer);
    this.#reading = false;
    this.#save(true);
  }

  /** Puts the starter back as one undoable edit, and runs it. */
  reset(): void {
    this.#runner?.setScript(this.#starter);
    this.flush();
  }

  /** The link that opens this page with the current script in this element; rejects when it would be too long to open. */
  async permalink(): Promise<string> {
    const link = await permalink(this.#win.location.href, this.#key, await this.#wholeScript());
    if ('tooLong' in link) throw new RangeError(tooLongText(link.tooLong));
    return link.url;
  }

  /**
   * Puts the link in the address bar and on the clipboard, and shows it; or,
   * when the link would be too long for a browser to open, says so and
   * offers the file instead.
   */
  async share(): Promise<void> {
    this.flush();
    const script = await this.#wholeScript();
    const doc = this.#runner?.editor.view.state.doc;
    const link = await permalink(this.#win.location.href, this.#key, script);
    if (this.#runner?.editor.view.state.doc !== doc) return; // edited meanwhile: the learner will press again
    if ('tooLong' in link) {
      this.actions.hideLink();
      this.#linkNote = { text: `${tooLongText(link.tooLong)} Download the script and send the file instead.`, offerDownload: true };
      this.#show();
      return;
    }
    // Into the address bar too (other elements' parts of the hash stay), so
    // the learner can bookmark it; noting the code means a reload with it
    // still there keeps the edits made after sharing.
    try {
      this.#win.history.replaceState(this.#win.history.state, '', link.url);
    } catch {
      // about:srcdoc frames and sandboxes may refuse; the link is still shown.
    }
    this.#store.setLink(link.code);
    this.actions.showLink(link.url);
    this.#show();
    this.#win.navigator.clipboard?.writeText(link.url).then(
      () => this.actions.copied(link.url),
      () => {}, // no permission (or no focus): the learner copies it from the box
    );
  }

  /** Follows a hash change: a new link for this element replaces its script (the learner's own is put aside). */
  async applyHash(): Promise<void> {
    const turn = ++this.#hashTurn;
    const link = await readLink(this.#win.location.hash, this.#key);
    if (turn !== this.#hashTurn || !this.#runner || link === null || link.code === this.#store.link) return;
    if ('problem' in link) {
      this.#linkNote = { text: linkProblemText(link.problem), offerDownload: false };
      this.#show();
      return;
    }
    this.flush(); // the learner's latest keystrokes are part of their own version
    this.#store.adoptLink(link.code, link.script);
    if (link.script !== this.#script()) this.#runner.setScript(link.script);
    this.#show();
  }

  /** Saves the script as a text file (named after the element). */
  async download(): Promise<void> {
    downloadFile(this.#win.document, `slowstart-${this.#key.replace(/[^\w.-]+/g, '_')}.txt`, [await this.#wholeScript()]);
  }

  destroy(): void {
    this.flush();
    this.#unfollow();
    this.#runner = null;
  }

  #script(): string {
    return this.#runner?.script ?? this.openingScript;
  }

  // The script once a big text has all gone into the editor (big-text.ts).
  async #wholeScript(): Promise<string> {
    if (this.#runner) await whenLoaded(this.#runner.editor.view);
    return this.#script();
  }

  // A link for this element that has not been opened here before, else the
  // learner's saved edits, else the starter.
  #opening(link: LinkInHash | null): string {
    const store = this.#store;
    if (link && 'problem' in link) this.#linkNote = { text: linkProblemText(link.problem), offerDownload: false };
    if (link && 'script' in link && link.code !== store.link) {
      store.adoptLink(link.code, link.script);
      return link.script;
    }
    if (store.script !== null && store.script !== this.#starter) {
      this.#restored = true;
      return store.script;
    }
    return this.#starter;
  }

  // A big script is read a slice per task first (see doc-text.ts); flush()
  // (the page is going away) cannot wait and reads it at once.
  #save(now = false): void {
    this.#saveTimer = 0;
    const runner = this.#runner;
    if (!runner) return;
    const view = runner.editor.view;
    if (now || (view.state.doc.length <= BIG_TEXT && !isLoading(view)) || runner.editor.preview !== null) return this.#keep(this.#script());
    this.#reading = true;
    void whenLoaded(view).then(async (doc) => {
      const slices = await readSlices(doc);
      if (!this.#reading) return; // flush() saved meanwhile
      this.#reading = false;
      if (view.state.doc === doc) this.#keep(slices.join(''));
    });
  }

  // Another tab saved (or reset) this work. A tab with no edit of its own
  // waiting to be saved shows it, as one undoable edit, and says so; one
  // with an edit waiting keeps it: saved in a moment, it is the latest and
  // wins, and the other tab's script goes among the earlier versions.
  #followOtherTab(): void {
    const runner = this.#runner;
    if (!runner || !this.#store.refresh()) return;
    const waiting = this.#saveTimer !== 0 || this.#reading || isLoading(runner.editor.view);
    if (!waiting) {
      const theirs = this.#store.script ?? this.#starter;
      if (theirs !== this.#script()) {
        this.#following = true;
        try {
          runner.editor.setText(theirs); // the runner runs it as after any edit
        } finally {
          this.#following = false;
        }
        this.#otherTab = this.#store.savedAt ?? Date.now();
        this.#restored = false;
        this.#linkNote = null;
      }
      this.#store.followed();
      this.actions.setModified(theirs !== this.#starter);
    }
    this.#show();
  }

  #keep(script: string): void {
    this.#store.save(script);
    this.actions.setModified(script !== this.#starter);
    this.#show();
  }

  #restore(index: number): void {
    this.flush();
    const script = this.#store.restore(index);
    if (script !== this.#script()) this.#runner?.setScript(script);
    this.#show();
  }

  // The notes, the storage line and the versions, from the store's state.
  #show(): void {
    const store = this.#store;
    const actions = this.actions;
    const download = { label: 'Download', run: () => void this.download() };
    const newest = store.versions[0];
    if (store.linked && newest) {
      actions.note(
        `This runner opened the script from a link. Your own version (${when(newest.at)}) is kept.`,
        { label: 'Back to my version', run: () => this.#restore(0) },
        { label: 'Keep this one', run: () => (store.keepLinked(), this.#show()) },
      );
    } else if (this.#linkNote) {
      actions.note(this.#linkNote.text, ...(this.#linkNote.offerDownload ? [download] : []));
    } else if (this.#otherTab !== null) {
      actions.note(
        `This script was changed in another tab (${when(this.#otherTab)}): it is shown here too. ${modKey(this.#win)}+Z in the editor brings back what this tab had.`,
      );
    } else if (this.#restored) {
      const changed = store.starterChanged ? ' (the starter has changed since)' : '';
      actions.note(`Your edits from last time are back${changed}. Reset to starter brings the original back.`);
    } else {
      actions.note(null);
    }
    if (!store.available) {
      actions.storageNote('This browser does not let the page keep your edits: download the script, or use Share link, to keep a copy.', download);
    } else {
      actions.storageNote(storageProblemText(store.problem), ...(store.problem?.kind === 'script' ? [download] : []));
    }
    actions.setVersions(store.versions, describeVersion);
  }
}

function tooLongText(length: number): string {
  return `This script is too big for a link: even compressed, the link would be ${megabytes(length)}, and browsers open links of up to ${megabytes(MAX_LINK_LENGTH)}.`;
}

function linkProblemText(problem: 'damaged' | 'too-big'): string {
  return problem === 'damaged'
    ? 'The link’s script for this runner is damaged (cut short?), so it was not opened.'
    : `The link’s script for this runner unpacks to more than ${megabytes(MAX_LINKED_SCRIPT_BYTES)}, so it was not opened.`;
}

function storageProblemText(problem: StorageProblem | null): string | null {
  if (problem === null) return null;
  if (problem.kind === 'versions') {
    const n = problem.dropped === 1 ? 'your oldest earlier version' : `your ${problem.dropped} oldest earlier versions`;
    return `The browser’s storage for this site is nearly full: your script is kept, but not ${n} (this page keeps them until you leave it).`;
  }
  const why =
    problem.scriptLength > MAX_SAVED_CHARS
      ? `This script (${megabytes(problem.scriptLength)}) is too big to keep in the browser (scripts of up to ${megabytes(MAX_SAVED_CHARS)} are kept)`
      : 'The browser’s storage for this site is full';
  const kept = problem.savedAt === null ? 'nothing of it is kept here' : `your latest changes are not kept here; the version saved ${when(problem.savedAt)} is`;
  return `${why}: ${kept}. Download the script to keep a copy.`;
}

function describeVersion(v: Version): string {
  const lines = v.script.split('\n').length - (v.script.endsWith('\n') ? 1 : 0);
  const first = v.script.split('\n').find((l) => l.trim() && !l.trim().startsWith('#'))?.trim() ?? '';
  const preview = first.length > 40 ? `${first.slice(0, 40)}…` : first;
  return `${when(v.at)}, ${plural(lines, 'line')}${preview ? `: ${preview}` : ''}`;
}

function megabytes(n: number): string {
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}
