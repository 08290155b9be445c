// What one <slow-start-runner> shows, composed around a Runner: which script
// it opens with (a permalink, the learner's saved edits, or the starter),
// saving edits as they happen, Reset and Share, the exercise's verdict, the
// "Compare with my program" box, and the events a host page listens to.
import { loadLab, loadSlowStart, type RunResult } from '../api/index.js';
import { EXAMPLES } from '../runner/examples.js';
import { h } from '../runner/dom.js';
import { createRunner, type Runner } from '../runner/runner.js';
import type { ElementConfig } from './attributes.js';
import { CompareBox } from './compare-box.js';
import { judge } from './compare.js';
import type { SlowStartRunDetail, SlowStartVerdictDetail } from './element-types.js';
import { ExercisePanel } from './exercise-panel.js';
import { mountImplement, readAuthorTests, type ImplementMount } from './implement-mode.js';
import { codeInHash, decodeScript, encodeScript, permalink } from './permalink.js';
import { ScriptActions } from './script-actions.js';
import { ScriptStore } from './script-store.js';
import type { Sources } from './sources.js';

export interface MountOptions {
  /** The custom element: events are dispatched on it. */
  host: HTMLElement;
  /** What the mount fills, inside the host's shadow root. */
  container: HTMLElement;
  shadowRoot: ShadowRoot;
  config: ElementConfig;
  sources: Sources;
  /** The element's key in permalinks (see identity.ts). */
  key: string;
  /** Its key in localStorage (the implement mode's code gets its own, derived from it). */
  storageKey: string;
}

// Edits are saved this long after the last keystroke (and at once when the page is hidden).
const SAVE_DELAY_MS = 300;

export class ElementMount {
  readonly runner: Runner;
  readonly starter: string;
  readonly expected: readonly string[] | null;
  /** The last run, as events report it. */
  lastRun: SlowStartRunDetail | null = null;
  readonly #host: HTMLElement;
  readonly #win: Window;
  readonly #key: string;
  readonly #store: ScriptStore | null;
  readonly #actions: ScriptActions | null;
  readonly #exercise: ExercisePanel | null;
  readonly #compare: CompareBox | null;
  #saveTimer = 0;
  #restored = false; // opened with the learner's saved edits (said until the next edit)
  #damagedLink = false; // the hash had a part for this element that does not decode
  #lastPass: boolean | null = null;
  #implement: ImplementMount | null = null;
  #destroyed = false;

  constructor(options: MountOptions) {
    const { host, config, sources } = options;
    const doc = options.container.ownerDocument;
    const implementRoot = config.mode === 'implement' ? h(doc, 'div') : null;
    const runnerRoot = h(doc, 'div');
    options.container.replaceChildren(...(implementRoot ? [implementRoot] : []), runnerRoot);
    this.#host = host;
    this.#win = doc.defaultView ?? window;
    this.#key = options.key;
    this.starter = sources.starter;
    this.expected = sources.expected;
    const editable = !config.readOnly;
    this.#store = editable ? new ScriptStore(this.#win, options.storageKey, this.starter) : null;
    this.#actions = editable
      ? new ScriptActions(doc, { onReset: () => this.reset(), onShare: () => this.share() })
      : null;
    const script = this.#openingScript();

    this.runner = createRunner({
      root: runnerRoot,
      documentRoot: options.shadowRoot,
      engine: loadSlowStart(),
      script,
      examples: config.examples ? EXAMPLES : [],
      // A course page may hold many runners: none animates on its own.
      autoplay: false,
      runOnLoad: config.autorun,
      headingLevel: config.headingLevel,
      traffic: config.traffic ? { lab: () => loadLab() } : undefined,
      readOnly: config.readOnly,
      chart: config.chart,
      onRun: (result, text) => this.#ran(result, text),
      onEdit: () => this.#edited(),
    });

    const goToLine = (line: number) => this.runner.editor.goToLine(line);
    this.#exercise = this.expected ? new ExercisePanel(doc, this.expected, goToLine) : null;
    this.#compare = this.expected || config.compare ? new CompareBox(doc, goToLine, { lab: () => loadLab() }) : null;
    const below: HTMLElement[] = [];
    if (this.#actions) {
      this.runner.addToolbarItems(this.#actions.reset, this.#actions.share);
      this.#actions.setModified(script !== this.starter);
      this.#actions.storageUnavailable(!this.#store!.available);
      below.push(this.#actions.element);
    }
    for (const problem of sources.problems) below.push(problemNote(doc, problem));
    if (this.#exercise) below.push(this.#exercise.element);
    if (this.#compare) below.push(this.#compare.element);
    if (below.length) this.runner.addBelowToolbar(...below);
    this.#showNote();
    if (implementRoot) this.#startImplement(implementRoot, options);
  }

  get script(): string {
    return this.runner.script;
  }

  set script(script: string) {
    this.runner.setScript(script);
  }

  /** Puts the starter back as one undoable edit, and runs it. */
  reset(): void {
    this.runner.setScript(this.starter);
    this.flush();
  }

  /** The permalink for the current script. */
  permalink(): string {
    return permalink(this.#win.location.href, this.#key, this.runner.script);
  }

  /** Puts the permalink in the address bar and on the clipboard, and shows it. */
  share(): void {
    const store = this.#store;
    const actions = this.#actions;
    if (!store || !actions) return;
    this.flush();
    const url = this.permalink();
    // Into the address bar too (other elements' parts of the hash stay), so
    // the learner can bookmark it; noting the code means a reload with it
    // still there keeps the edits made after sharing.
    try {
      this.#win.history.replaceState(this.#win.history.state, '', url);
    } catch {
      // about:srcdoc frames and sandboxes may refuse; the link is still shown.
    }
    store.setLink(encodeScript(this.runner.script));
    actions.showLink(url);
    this.#win.navigator.clipboard?.writeText(url).then(
      () => actions.copied(url),
      () => {}, // no permission (or no focus): the learner copies it from the box
    );
  }

  /** Follows a hash change: a new permalink for this element replaces its script (the old one is kept as a backup). */
  applyHash(): void {
    const store = this.#store;
    if (!store) return;
    const code = codeInHash(this.#win.location.hash, this.#key);
    if (code === null || code === store.link) return;
    const script = decodeScript(code);
    if (script === null) {
      this.#damagedLink = true;
      this.#showNote();
      return;
    }
    this.flush();
    const current = this.runner.script;
    this.#adoptLink(code, script, current);
    if (script !== current) this.runner.setScript(script);
    this.#showNote();
  }

  /** Saves a pending edit now. */
  flush(): void {
    if (!this.#saveTimer) return;
    this.#win.clearTimeout(this.#saveTimer);
    this.#save();
  }

  destroy(): void {
    this.#destroyed = true;
    this.flush();
    this.#implement?.destroy();
    this.runner.destroy();
  }

  // The implement view loads as a chunk of its own; the runner works meanwhile.
  #startImplement(root: HTMLElement, options: MountOptions): void {
    root.append(h(root.ownerDocument, 'p', { class: 'sse-loading', text: 'Loading the implement-it-yourself mode…' }));
    mountImplement({
      root,
      shadowRoot: options.shadowRoot,
      runner: this.runner,
      tests: readAuthorTests(options.host),
      includeBuiltIn: options.config.builtinTests,
      storageKey: `${options.storageKey}:implement`,
      headingLevel: options.config.headingLevel,
    }).then(
      (mounted) => {
        if (this.#destroyed) mounted.destroy();
        else this.#implement = mounted;
      },
      (error: unknown) => {
        root.textContent = `The implement mode failed to load: ${String(error)}`;
      },
    );
  }

  // The script to open with: a permalink for this element that has not
  // been opened here before, else the learner's saved edits, else the starter.
  #openingScript(): string {
    const store = this.#store;
    if (!store) return this.starter;
    const code = codeInHash(this.#win.location.hash, this.#key);
    const linked = code === null ? null : decodeScript(code);
    this.#damagedLink = code !== null && linked === null;
    if (code !== null && linked !== null && code !== store.link) {
      this.#adoptLink(code, linked, store.script);
      return linked;
    }
    if (store.script !== null && store.script !== this.starter) {
      this.#restored = true;
      return store.script;
    }
    return this.starter;
  }

  #adoptLink(code: string, script: string, current: string | null): void {
    const store = this.#store!;
    if (current !== null && current !== script && current !== this.starter) store.setBackup(current);
    store.save(script);
    store.setLink(code);
  }

  #showNote(): void {
    const actions = this.#actions;
    const store = this.#store;
    if (!actions || !store) return;
    const backup = store.backup;
    if (backup !== null) {
      actions.note(
        'This runner opened the script from a link. Your own version is kept.',
        {
          label: 'Back to my version',
          run: () => {
            store.setBackup(null);
            this.runner.setScript(backup);
            this.flush();
            this.#showNote();
          },
        },
        { label: 'Keep this one', run: () => (store.setBackup(null), this.#showNote()) },
      );
    } else if (this.#damagedLink) {
      actions.note('The link’s script for this runner is damaged (cut short?), so it was not opened.');
    } else if (this.#restored) {
      const changed = store.starterChanged ? ' (the starter has changed since)' : '';
      actions.note(`Your edits from last time are back${changed}. Reset to starter brings the original back.`);
    } else {
      actions.note(null);
    }
  }

  #edited(): void {
    if (!this.#store) return;
    if (this.#restored || this.#damagedLink) {
      this.#restored = this.#damagedLink = false;
      this.#showNote();
    }
    this.#win.clearTimeout(this.#saveTimer);
    this.#saveTimer = this.#win.setTimeout(() => this.#save(), SAVE_DELAY_MS);
  }

  #save(): void {
    this.#saveTimer = 0;
    const store = this.#store;
    if (!store) return;
    const script = this.runner.script;
    store.save(script);
    this.#actions?.setModified(script !== this.starter);
    this.#actions?.storageUnavailable(!store.available);
  }

  #ran(result: RunResult, script: string): void {
    const detail: SlowStartRunDetail = {
      script,
      output: result.output,
      diagnostics: result.diagnostics,
      truncated: result.truncated === true,
    };
    this.lastRun = detail;
    this.#actions?.setModified(script !== this.starter);
    this.#compare?.setEngineOutput(result.output, script);
    this.#emit('slowstart-run', detail);
    if (!this.expected || !this.#exercise) return;
    const verdict = judge(this.expected, result.output, result.diagnostics);
    this.#exercise.show(verdict);
    const changed = this.#lastPass !== verdict.pass;
    this.#lastPass = verdict.pass;
    const verdictDetail: SlowStartVerdictDetail = {
      ...detail,
      ...verdict,
      expected: [...this.expected],
      actual: result.output.map((o) => o.text),
      changed,
    };
    this.#emit(verdict.pass ? 'slowstart-pass' : 'slowstart-fail', verdictDetail);
  }

  #emit(type: string, detail: unknown): void {
    this.#host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}

function problemNote(doc: Document, text: string): HTMLElement {
  return h(doc, 'p', { class: 'sse-note sse-note-warn', text, attrs: { role: 'alert' } });
}
