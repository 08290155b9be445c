// What one <slow-start-runner> shows, composed around a Runner: the learner's
// work (saved-work.ts: the opening script, saving, links, Reset, Share,
// Download, earlier versions), the exercise's verdict (exercise-panel.ts),
// the "Compare with my program" box, the Traffic tab, the implement mode
// (implement-mode.ts), and the events a host page listens to (run-events.ts).
import { loadLab, loadSlowStart, type OutputLine, type RunResult } from '../api/index.js';
import { EXAMPLES } from '../runner/examples.js';
import { h } from '../shared/dom.js';
import { createRunner, type Runner } from '../runner/runner.js';
import { trafficTab } from '../traffic/chart-tab.js';
import type { ElementConfig } from './attributes.js';
import { CompareBox, PREDICT_HOLDS_COMPARE } from '../host/compare-box.js';
import type { SlowStartRunDetail } from './element-types.js';
import { ExercisePanel } from './exercise-panel.js';
import { mountImplement, readAuthorTests, type ImplementMount } from './implement-mode.js';
import type { LinkInHash } from '../host/permalink.js';
import { RunEvents } from './run-events.js';
import { SavedWork } from '../host/saved-work.js';
import type { Sources } from './sources.js';
import { toldInConsole } from './told-in-console.js';

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
  /** Where an earlier version kept its work, read while `storageKey` holds nothing (identity.ts). */
  legacyStorageKey: string | null;
  /** This element's part of the page's hash, decoded (permalink.ts readLink). */
  link: LinkInHash | null;
}

export class ElementMount {
  readonly runner: Runner;
  readonly starter: string;
  readonly expected: readonly string[] | null;
  readonly #win: Window;
  /** The learner's work; null when the element is read-only (nothing to keep). */
  readonly #work: SavedWork | null;
  readonly #compare: CompareBox | null;
  readonly #events: RunEvents;
  #implement: ImplementMount | null = null;
  #destroyed = false;

  constructor(options: MountOptions) {
    const { host, config, sources } = options;
    const doc = options.container.ownerDocument;
    const implementRoot = config.mode === 'implement' ? h(doc, 'div') : null;
    const runnerRoot = h(doc, 'div');
    options.container.replaceChildren(...(implementRoot ? [implementRoot] : []), runnerRoot);
    this.#win = doc.defaultView ?? window;
    this.starter = sources.starter;
    this.expected = sources.expected;
    this.#work = config.readOnly
      ? null
      : new SavedWork({ win: this.#win, key: options.key, storageKey: options.storageKey, legacyStorageKey: options.legacyStorageKey, starter: this.starter, link: options.link });
    const script = this.#work?.openingScript ?? this.starter;

    this.runner = createRunner({
      root: runnerRoot,
      documentRoot: options.shadowRoot,
      engine: toldInConsole(loadSlowStart()),
      script,
      examples: config.examples ? EXAMPLES : [],
      // A course page may hold many runners: none animates on its own, and
      // each is only as tall as it needs (the output fits its lines, the
      // chart is shorter, the pick view folded until opened).
      autoplay: false,
      compact: true,
      runOnLoad: config.autorun,
      headingLevel: config.headingLevel,
      chartTabs: config.traffic ? [trafficTab({ lab: () => toldInConsole(loadLab()) })] : [],
      readOnly: config.readOnly,
      chart: config.chart,
      predict: config.mode === 'predict',
      onRun: (result, text) => this.#ran(result, text),
      onShown: (shown, all) => this.#shown(shown, all),
      onEdit: () => this.#work?.edited(),
    });

    const goToLine = (line: number) => this.runner.editor.goToLine(line);
    const exercise = this.expected ? new ExercisePanel(doc, this.expected, goToLine) : null;
    this.#events = new RunEvents(host, this.expected && exercise ? { expected: this.expected, panel: exercise } : null);
    this.#compare = this.expected || config.compare ? new CompareBox(doc, goToLine, { lab: () => toldInConsole(loadLab()) }) : null;
    const below: HTMLElement[] = [];
    if (this.#work) {
      this.#work.attach(this.runner);
      below.push(this.#work.actions.element);
    }
    for (const problem of sources.problems) below.push(problemNote(doc, problem));
    if (exercise) below.push(exercise.element);
    if (this.#compare) below.push(this.#compare.element);
    if (below.length) this.runner.addBelowToolbar(...below);
    if (implementRoot) this.#startImplement(implementRoot, options);
  }

  /** The last run, as events report it. */
  get lastRun(): SlowStartRunDetail | null {
    return this.#events.lastRun;
  }

  get script(): string {
    return this.runner.script;
  }

  set script(script: string) {
    this.runner.setScript(script);
  }

  /** Puts the starter back as one undoable edit, and runs it. */
  reset(): void {
    if (this.#work) this.#work.reset();
    else this.runner.setScript(this.starter);
  }

  /** The permalink for the current script. */
  permalink(): Promise<string> {
    return this.#work?.permalink() ?? Promise.resolve(this.#win.location.href);
  }

  /** Follows a hash change (a link for this element replaces its script; the learner's own is kept). */
  applyHash(): Promise<void> {
    return this.#work?.applyHash() ?? Promise.resolve();
  }

  /** Saves a pending edit now. */
  flush(): void {
    this.#work?.flush();
  }

  destroy(): void {
    this.#destroyed = true;
    this.#work?.destroy();
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
      legacyStorageKey: options.legacyStorageKey && `${options.legacyStorageKey}:implement`,
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

  #ran(result: RunResult, script: string): void {
    this.#work?.ran(script);
    this.#compare?.setEngineOutput(result.output, script, result.truncated === true);
    this.#events.ran(result, script, this.runner.shownOutput);
  }

  // Predict mode holds what would tell the lines not yet revealed: the comparison and the verdict.
  // (Called from the runner's constructor too, before the fields below it are set.)
  #shown(shown: readonly OutputLine[], all: boolean): void {
    this.#compare?.hold(all ? null : PREDICT_HOLDS_COMPARE);
    this.#events?.shown(shown, all);
  }
}

function problemNote(doc: Document, text: string): HTMLElement {
  return h(doc, 'p', { class: 'sse-note sse-note-warn', text, attrs: { role: 'alert' } });
}
