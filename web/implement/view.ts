// The implement-it-yourself mode: the learner writes the effective weight
// and the pick in JavaScript (code-editor.ts), runs the tests in a worker
// with a time limit per test (client.ts), and reads each result as it
// arrives (test-list.ts, run-summary.ts). A test opens in the runner with
// the learner's weights drawn over the reference's on the ramp chart
// (runner-link.ts). The page is laid out by implement-layout.ts, the code
// kept by code-saver.ts, and the code that leaves the editor (Reset, another
// tab's code, a Restore) among the earlier versions by code-versions.ts.
//
// Like the runner, it renders into the element it is given and never looks
// anything up in a global document, so the page and the embeddable element
// share it. The host decides how to show the runner when a test is opened:
// it listens for OPEN_IN_RUNNER_EVENT.
import type { Lab } from '../api/lab.js';
import { setText } from '../shared/dom.js';
import { plural } from '../shared/format.js';
import { modKey } from '../shared/shortcut.js';
import { runImplementTests, type ImplementRun } from './client.js';
import { CodeEditor } from './code-editor.js';
import { CodeSaver } from './code-saver.js';
import { CodeStorage } from './code-storage.js';
import { CodeVersions } from './code-versions.js';
import { followOtherTabs } from '../shared/other-tabs.js';
import { VersionsList, whenKept } from '../shared/versions-list.js';
import { diagnoseRun } from './diagnosis.js';
import { OPEN_IN_RUNNER_EVENT, type OpenInRunnerDetail } from './events.js';
import type { TestResult } from './grade.js';
import { layOutImplement } from './implement-layout.js';
import { RunSummary } from './run-summary.js';
import { RunnerLink, type TestRunner } from './runner-link.js';
import { builtInTests, type ImplementTest } from './suite.js';
import { LEARNER_TEMPLATE } from './template.js';
import { TestList } from './test-list.js';

export { OPEN_IN_RUNNER_EVENT, type OpenInRunnerDetail } from './events.js';
export type { TestRunner } from './runner-link.js';

export interface ImplementViewOptions {
  /** The element to render into; the view owns its children. */
  root: HTMLElement;
  /** The document or shadow root `root` is in (default: `root.getRootNode()`). */
  documentRoot?: Document | ShadowRoot;
  /** The runner a test opens in ("Open in the runner"). */
  runner: TestRunner;
  /** The lab module: the built-in tests and the diagnosis are the engine's. */
  lab: Lab;
  /** A course author's tests, run after the built-in ones. */
  tests?: ImplementTest[];
  /** Run the built-in suite too (default true). */
  includeBuiltIn?: boolean;
  /** localStorage key for the learner's code (default DEFAULT_STORAGE_KEY); null keeps nothing. */
  storageKey?: string | null;
  /** Where an earlier version kept the code, read while `storageKey` holds nothing. */
  legacyStorageKey?: string | null;
  /** Makes the worker (default: the bundled web/implement/worker.ts). */
  createWorker?: () => Worker;
  /** Time limit per test, ms (default 1000). */
  timeLimitMs?: number;
  /** Level of the panel headings (default 2). */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/** Where the learner's code is kept when the host names no key. */
export const DEFAULT_STORAGE_KEY = 'slowstart-implement-code';

/** Default time limit per test: the built-in tests take a few ms each. */
export const DEFAULT_TIME_LIMIT_MS = 1000;

export class ImplementView {
  readonly root: HTMLElement;
  readonly editor: CodeEditor;
  readonly tests: readonly ImplementTest[];
  readonly #link: RunnerLink;
  readonly #win: Window;
  readonly #saver: CodeSaver;
  readonly #versions: CodeVersions;
  readonly #versionsList: VersionsList;
  readonly #unfollowVersions: () => void;
  readonly #list: TestList;
  readonly #summary: RunSummary;
  readonly #runButton: HTMLButtonElement;
  readonly #stopButton: HTMLButtonElement;
  readonly #status: HTMLDivElement;
  readonly #resultsPanel: HTMLElement;
  readonly #resultsMeta: HTMLSpanElement;
  readonly #timeLimitMs: number;
  readonly #createWorker: (() => Worker) | undefined;
  readonly #lab: Lab;
  #graded: (TestResult | undefined)[] = [];
  #abort: AbortController | null = null;
  #runId = 0;
  #countsText = '';
  #following = false; // the editor is being given another tab's code: not an edit of this tab

  constructor(options: ImplementViewOptions) {
    const root = (this.root = options.root);
    const doc = root.ownerDocument;
    this.#win = doc.defaultView ?? window;
    this.#link = new RunnerLink(options.runner);
    this.#timeLimitMs = options.timeLimitMs ?? DEFAULT_TIME_LIMIT_MS;
    this.#createWorker = options.createWorker;
    this.#lab = options.lab;
    this.tests = [...(options.includeBuiltIn ?? true ? builtInTests(options.lab) : []), ...(options.tests ?? [])];
    const storage = new CodeStorage(
      this.#win,
      options.storageKey === undefined ? DEFAULT_STORAGE_KEY : options.storageKey,
      options.legacyStorageKey ?? null,
    );
    const layout = layOutImplement(root, options.headingLevel ?? 2);
    this.#runButton = layout.runButton;
    this.#stopButton = layout.stopButton;
    this.#status = layout.status;
    this.#resultsPanel = layout.resultsPanel;
    this.#resultsMeta = layout.resultsMeta;
    this.#runButton.addEventListener('click', () => void this.run());
    this.#stopButton.addEventListener('click', () => this.stop());
    layout.resetButton.addEventListener('click', () => this.resetToTemplate());

    const saved = storage.load();
    this.editor = new CodeEditor({
      parent: layout.editorHost,
      root: options.documentRoot ?? (root.getRootNode() as Document | ShadowRoot),
      doc: saved ?? LEARNER_TEMPLATE,
      label: 'Your rules (JavaScript)',
      onChange: () => this.#edited(),
      onRun: () => void this.run(),
    });
    this.#versions = new CodeVersions(this.#win, storage.key, LEARNER_TEMPLATE);
    this.#versionsList = new VersionsList(doc, {
      classes: { details: 'ss-impl-versions', list: 'ss-impl-versions-list', button: 'ss-btn ss-impl-small' },
      onRestore: (i) => this.restoreVersion(i),
    });
    layout.toolbar.after(this.#versionsList.element);
    this.#unfollowVersions =
      this.#versions.key === null
        ? () => {}
        : followOtherTabs(this.#win, this.#versions.key, { changed: () => this.#versions.refresh() && this.#showVersions(), leaving: () => {} });
    this.#saver = new CodeSaver(this.#win, storage, () => this.code, {
      failed: () => this.#setStatus('Your code could not be kept in this browser (storage is full or blocked).', true),
      changed: (code) => this.#followOtherTab(code),
      // Two tabs edited: this tab's code wins, the other's is kept.
      replacing: (theirs) => this.#putAside(theirs, this.code),
    });
    this.#showVersions();
    this.#summary = new RunSummary(layout.resultsBody, { goToCodeLine: (line) => this.editor.goToLine(line) });
    this.#list = new TestList(layout.resultsBody, this.tests, {
      open: (test, result) => this.openInRunner(test, result),
      goToCodeLine: (line) => this.editor.goToLine(line),
    });
    this.#summary.reset(this.tests.length, 'idle');
    this.#setCounts(
      this.tests.length
        ? `${plural(this.tests.length, 'test')}, not run yet: write your rules, then Run tests.`
        : 'There are no tests to run.',
    );
    this.#runButton.disabled = this.tests.length === 0;
    this.#setStatus(
      saved !== null
        ? 'Your code from last time, kept in this browser.'
        : storage.available
          ? 'Your code is kept in this browser as you type.'
          : '',
    );
  }

  /** The learner's code. */
  get code(): string {
    return this.editor.text;
  }

  /** Replaces the learner's code (undoable; the code it replaces goes among the earlier versions), e.g. from a course page. */
  setCode(code: string): void {
    this.#putAside(this.code, code);
    this.editor.setText(code);
  }

  /** The learner's earlier versions, newest first (code-versions.ts). */
  get versions(): readonly { code: string; at: number }[] {
    return this.#versions.list;
  }

  /** Brings back earlier version `index` (newest first); the code it replaces takes its place among the versions. */
  restoreVersion(index: number): void {
    const at = this.#versions.list[index]?.at ?? 0;
    const code = this.#versions.take(index, this.code);
    this.#showVersions();
    if (code === null) return;
    if (code !== this.code) this.editor.setText(code);
    this.#saver.now();
    this.#setStatus(`Your code from ${whenKept(at)} is back; the code it replaced is among your earlier versions.`);
  }

  /** The results of the last run, by test index (missing: not run). */
  get results(): readonly (TestResult | undefined)[] {
    return [...this.#graded];
  }

  /** True while tests are running. */
  get running(): boolean {
    return this.#abort !== null;
  }

  /** Puts the template back as one edit (Ctrl+Z brings the code back). */
  resetToTemplate(): void {
    if (this.code === LEARNER_TEMPLATE) {
      this.#setStatus('This is the template already.');
      return;
    }
    this.#putAside(this.code, LEARNER_TEMPLATE);
    this.editor.setText(LEARNER_TEMPLATE);
    this.#saver.now();
    this.#setStatus(`Back to the template. ${modKey(this.#win)}+Z in the editor brings your code back, and so does Restore under “Your earlier versions”.`);
  }

  /** Runs every test on the current code (stopping a run in progress first). */
  async run(): Promise<ImplementRun | null> {
    if (this.tests.length === 0) return null;
    this.#abort?.abort();
    const abort = (this.#abort = new AbortController());
    const id = ++this.#runId;
    const code = this.code;
    const n = this.tests.length;
    this.#saver.now();
    this.#graded = new Array(n);
    this.#list.resetAll('waiting');
    this.#summary.reset(n, 'waiting');
    this.editor.markProblemLines([]);
    this.#resultsPanel.classList.remove('ss-impl-stale');
    this.#setRunning(true);
    this.#setCounts(`Running ${plural(n, 'test')}…`);
    let openedFailure = false;

    const run = await runImplementTests(code, [...this.tests], {
      timeLimitMs: this.#timeLimitMs,
      createWorker: this.#createWorker,
      signal: abort.signal,
      onStart: (i) => {
        if (id !== this.#runId) return;
        this.#list.setRunning(i);
        this.#summary.setState(i, 'running');
        this.#setCounts(`Running test ${i + 1} of ${n}: ${this.tests[i].title}…`);
      },
      onResult: (i, result) => {
        if (id !== this.#runId) return;
        if (result.skipped) {
          // Not run: an earlier test ran out of time (one time-out says it).
          this.#list.setSkipped(i, result);
          this.#summary.setState(i, 'idle');
          return;
        }
        this.#graded[i] = result;
        // Each result is more evidence about which mistake it is.
        const diagnosis = diagnoseRun(this.#lab, this.#graded);
        this.#list.setResult(i, result, diagnosis.perTest[i]);
        this.#list.setMistakes(diagnosis.perTest);
        this.#summary.setState(i, result.pass ? 'pass' : 'fail');
        // The first failure opens, so its diagnosis is in view at once.
        if (!result.pass && !openedFailure) {
          openedFailure = true;
          this.#list.openRow(i);
        }
        this.#link.update(result);
      },
    });
    if (id !== this.#runId) return run; // a newer run took over
    this.#abort = null;
    this.#setRunning(false);
    if (run.compileError) {
      const e = run.compileError;
      const line = e.codeLine ?? (e.kind === 'code' && /^SyntaxError/.test(e.message) ? this.editor.syntaxErrorLine() ?? undefined : undefined);
      this.#list.resetAll('idle');
      this.#summary.reset(n, 'idle');
      this.#summary.showCompileError(e, line);
      this.#setCounts(e.kind === 'code' ? 'No test ran: fix the code first.' : 'No test ran.');
      if (line !== undefined) this.editor.markProblemLines([line]);
      return run;
    }
    const done = this.results.filter((r): r is TestResult => r !== undefined);
    const passed = done.filter((r) => r.pass).length;
    if (run.aborted) {
      this.#list.settle();
      for (let i = 0; i < n; i++) if (!this.#graded[i]) this.#summary.setState(i, 'idle');
      this.#setCounts(`Stopped: ${done.length} of ${n} ran, ${passed} passed.`);
    } else if (done.length < n && done.some((r) => r.timedOut)) {
      const late = done.find((r) => r.timedOut)!;
      this.#setCounts(
        `“${late.title}” ran out of time, so the ${plural(n - done.length, 'test')} after it did not run; ${passed} of ${done.length} that ran pass.`,
      );
    } else if (passed === n) {
      this.#setCounts(`All ${plural(n, 'test')} pass: your rules print exactly what the engine prints.`);
    } else {
      this.#setCounts(`${passed} of ${n} tests pass, ${n - passed} fail.`);
    }
    this.#summary.showDiagnosis(diagnoseRun(this.#lab, this.#graded).run, done);
    this.editor.markProblemLines(done.flatMap((r) => r.problems.flatMap((p) => (p.codeLine === undefined ? [] : [p.codeLine]))));
    return run;
  }

  /** Stops a run in progress (its worker is terminated). */
  stop(): void {
    this.#abort?.abort();
  }

  /**
   * Loads a test's script into the runner, draws the learner's weights over
   * the reference's on its chart, and asks the host to show the runner.
   */
  openInRunner(test: ImplementTest, result: TestResult | null = this.#resultFor(test)): void {
    this.#link.open(test, result);
    const detail: OpenInRunnerDetail = { test, result };
    this.root.dispatchEvent(new CustomEvent(OPEN_IN_RUNNER_EVENT, { bubbles: true, composed: true, detail }));
  }

  destroy(): void {
    this.#abort?.abort();
    this.#abort = null;
    this.#runId++;
    this.#saver.destroy();
    this.#unfollowVersions();
    this.#link.destroy();
    this.editor.destroy();
    this.root.replaceChildren();
  }

  #resultFor(test: ImplementTest): TestResult | null {
    const i = this.tests.indexOf(test);
    return (i >= 0 ? this.#graded[i] : undefined) ?? null;
  }

  // Another tab saved newer code: shown here as one undoable edit (this
  // tab's code is one Ctrl+Z away), and said.
  #followOtherTab(code: string): void {
    this.#putAside(this.code, code);
    this.#following = true;
    try {
      this.editor.setText(code);
    } finally {
      this.#following = false;
    }
    this.#setStatus(`Your code was changed in another tab: it is shown here too. ${modKey(this.#win)}+Z in the editor brings back what this tab had.`);
  }

  #putAside(code: string, replacement: string): void {
    this.#versions.putAside(code, replacement);
    this.#showVersions();
  }

  #showVersions(): void {
    this.#versionsList.set(this.#versions.list.map((v) => describeVersion(v.code, v.at)));
  }

  #edited(): void {
    if (!this.#following) this.#saver.soon();
    // Results of older code stay readable, but say they are old.
    if (this.#graded.some(Boolean) && !this.running) this.#resultsPanel.classList.add('ss-impl-stale');
    this.#showCounts();
  }

  #setRunning(running: boolean): void {
    this.#stopButton.hidden = !running;
    this.#resultsPanel.setAttribute('aria-busy', String(running));
    setText(this.#runButton.querySelector('span')!, running ? 'Run again' : 'Run tests');
  }

  #setCounts(text: string): void {
    this.#countsText = text;
    this.#showCounts();
  }

  #showCounts(): void {
    const stale = this.#resultsPanel.classList.contains('ss-impl-stale');
    this.#summary.setCounts(stale ? `${this.#countsText} (Your code changed since: run the tests again.)` : this.#countsText);
    const done = this.results.filter((r): r is TestResult => r !== undefined);
    setText(this.#resultsMeta, done.length ? `${done.filter((r) => r.pass).length} / ${this.tests.length} pass` : '');
  }

  #setStatus(text: string, problem = false): void {
    setText(this.#status, text);
    this.#status.classList.toggle('ss-impl-status-problem', problem);
  }
}

/** "today at 14:02, 23 lines, first change on line 14: return target * …": what tells versions of one template apart. */
function describeVersion(code: string, at: number): string {
  const lines = code.split('\n');
  const count = lines.length - (code.endsWith('\n') ? 1 : 0);
  const template = LEARNER_TEMPLATE.split('\n');
  const changed = lines.findIndex((l, i) => l.trim() !== '' && l.trim() !== (template[i] ?? '').trim());
  const text = changed < 0 ? '' : lines[changed].trim();
  const preview = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return `${whenKept(at)}, ${plural(count, 'line')}${preview ? `, first change on line ${changed + 1}: ${preview}` : ''}`;
}
