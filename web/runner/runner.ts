// The runner: editor, output, ramp chart, playhead, legend and table, wired
// together around one engine run. It renders into the element it is given
// and never looks anything up in a global document, so the same code serves
// the page (web/page/main.ts) and an embeddable element with a shadow root.
import { openLintPanel } from '@codemirror/lint';
import type { OutputLine, RunResult, SlowStart, Timeline } from '../api/index.js';
import type { ChartTab, ChartTabView } from '../shared/chart-tab.js';
import { formatClock } from './chart-model.js';
import { h, setText } from '../shared/dom.js';
import { makePanel } from '../shared/panel.js';
import { ChartTabs } from './chart-tabs.js';
import { ScriptEditor } from './editor.js';
import { ExamplesMenu } from './examples-menu.js';
import { DEFAULT_EXAMPLE, EXAMPLES, type Example } from './examples.js';
import { Legend } from './legend.js';
import { OutputView } from './output-view.js';
import { PickExplain } from './pick-explain.js';
import { Playhead, type MoveCause } from './playhead.js';
import { RampChart } from './ramp-chart.js';
import { MAX_MARKED, RunnerBackground } from './runner-background.js';
import { TimelineTable } from './timeline-table.js';
import { plural } from '../shared/format.js';
import { modEnterLabel, modKey } from '../shared/shortcut.js';

export interface RunnerOptions {
  /** The element to render into; the runner owns its children. */
  root: HTMLElement;
  /** The document or shadow root `root` is in (default: `root.getRootNode()`). */
  documentRoot?: Document | ShadowRoot;
  engine: SlowStart | Promise<SlowStart>;
  /** The script to start with (default: the first example). */
  script?: string;
  /** The Examples menu (default: the built-in ones; [] hides the menu). */
  examples?: readonly Example[];
  /** Play the first run through once loaded (never with reduced motion). Default true. */
  autoplay?: boolean;
  /** Wait this long after the last keystroke before re-running (ms). Default 150. */
  debounceMs?: number;
  /** Level of the panel headings (default 2). */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /**
   * Views shown as tabs beside the ramp chart (web/traffic/chart-tab.ts adds
   * Traffic), each built the first time its tab is opened.
   */
  chartTabs?: readonly ChartTab[];
  /** The script can be read, run and stepped through, but not edited. Default false. */
  readOnly?: boolean;
  /** Show the chart panel (ramp chart, playhead, legend, table). Default true. */
  chart?: boolean;
  /** Run the script as soon as the engine has loaded. Default true; otherwise the first run is the learner's. */
  runOnLoad?: boolean;
  /** After every run (live re-runs included), with the script that ran. */
  onRun?: (result: RunResult, script: string) => void;
  /** The script was edited (typing, paste, undo, setScript). */
  onEdit?: () => void;
  /**
   * For a runner among the text of a course page: the output box is only as
   * tall as its lines (when stacked), the chart shorter, and the pick view
   * folded until opened. Default false.
   */
  compact?: boolean;
  /** The learner chose a chart tab: 'ramp' or a chart tab's id (not called for {@link Runner.showChartTab}). */
  onChartTab?: (id: string) => void;
}

/** How long the last run took (ms), for the benchmark and curious users. */
export interface RunTimings {
  /** The engine's run. */
  run: number;
  /** Updating all the views (the sum of `views`). */
  render: number;
  /** Each view's share of `render`. */
  views: Record<'diagnostics' | 'output' | 'chart' | 'legend' | 'table' | 'playhead', number>;
}

// Where a playhead move came from decides what scrolls: the editor never
// scrolls away from the line being typed.
type Source = 'editor' | 'elsewhere';

export class Runner {
  readonly root: HTMLElement;
  readonly editor: ScriptEditor;
  readonly output: OutputView;
  readonly chart: RampChart;
  readonly playhead: Playhead;
  readonly legend: Legend;
  readonly table: TimelineTable;
  /** The PICK under the playhead, worked step by step. */
  readonly pickView: PickExplain;
  /** Timings of the last run. */
  lastTimings: RunTimings | null = null;
  /** The chart panel's tabs, when a host added any. */
  readonly #chartTabs: ChartTabs | null = null;

  readonly #win: Window;
  readonly #debounceMs: number;
  readonly #toolbar: HTMLDivElement;
  readonly #status: HTMLDivElement;
  /** Big scripts run in a worker (runner-background.ts). */
  readonly #background: RunnerBackground;
  readonly #problems: HTMLButtonElement;
  readonly #liveBox: HTMLInputElement;
  readonly #outputMeta: HTMLSpanElement;
  readonly #menu: ExamplesMenu | null;
  readonly #onRun: RunnerOptions['onRun'];
  readonly #onEdit: RunnerOptions['onEdit'];
  readonly #reducedMotion: MediaQueryList;
  #engine: SlowStart | null = null;
  #result: RunResult | null = null;
  #timeline: Timeline | null = null;
  #timer = 0;
  #pending = false; // the text changed since the last run
  // Where the next run puts the playhead: play from the start (or, with
  // reduced motion, the end), the end, or (null) the editor's cursor line.
  #next: 'play' | 'end' | null;
  #source: Source = 'elsewhere';
  #shownStep = -1;
  #destroyed = false;

  constructor(options: RunnerOptions) {
    const root = (this.root = options.root);
    const doc = root.ownerDocument;
    this.#win = doc.defaultView ?? window;
    this.#debounceMs = options.debounceMs ?? 150;
    this.#reducedMotion = this.#win.matchMedia('(prefers-reduced-motion: reduce)');
    this.#next = options.autoplay ?? true ? 'play' : 'end';
    this.#onRun = options.onRun;
    this.#onEdit = options.onEdit;
    const runOnLoad = options.runOnLoad ?? true;
    const level = `h${options.headingLevel ?? 2}` as 'h2';
    root.classList.add('ss-runner');
    root.replaceChildren();

    // Toolbar: Run, Live, Examples, status.
    const toolbar = (this.#toolbar = h(doc, 'div', { class: 'ss-toolbar' }));
    const runButton = h(
      doc,
      'button',
      { class: 'ss-btn ss-primary', attrs: { type: 'button', 'aria-keyshortcuts': 'Control+Enter Meta+Enter' } },
      h(doc, 'span', { text: 'Run' }),
      h(doc, 'kbd', { class: 'ss-kbd', text: modEnterLabel(this.#win) }),
    );
    runButton.addEventListener('click', () => this.run({ play: true }));
    this.#liveBox = h(doc, 'input', { attrs: { type: 'checkbox' } });
    this.#liveBox.checked = true;
    this.#liveBox.addEventListener('change', () => {
      if (this.#liveBox.checked && this.#pending) this.run();
    });
    const live = h(doc, 'label', { class: 'ss-check', attrs: { title: 'Run again as you type' } }, this.#liveBox, doc.createTextNode('Live'));
    toolbar.append(runButton, live);
    const examples = options.examples ?? EXAMPLES;
    this.#menu = examples.length ? new ExamplesMenu(toolbar, examples, (e) => this.setScript(e.script)) : null;
    this.#status = h(doc, 'div', { class: 'ss-status', attrs: { role: 'status' } });
    this.#problems = h(doc, 'button', { class: 'ss-btn ss-problems', text: 'Show problems', attrs: { type: 'button' } });
    this.#problems.hidden = true;
    this.#problems.addEventListener('click', () => {
      this.editor.view.focus();
      openLintPanel(this.editor.view);
    });
    toolbar.append(this.#status, this.#problems);
    this.#background = new RunnerBackground(doc, {
      show: (result, script, ms) => this.#show(result, script, ms),
      runOnPage: (script) => this.#engine && this.#show(this.#engine.run(script), script, 0),
      status: (text, problem) => this.#setStatus(text, problem),
    });
    this.#problems.before(this.#background.progress.element);

    // Panels.
    const panel = (cls: string, title: string) => makePanel(doc, level, cls, title);
    const editorPanel = panel('ss-panel-editor', 'Script');
    const outputPanel = panel('ss-panel-output', 'Output');
    const chartPanel = panel('ss-panel-chart', 'Ramp');
    this.#outputMeta = outputPanel.meta;
    setText(editorPanel.meta, options.readOnly ? 'Read-only' : 'Ctrl+Space completes');
    const editorHost = h(doc, 'div', { class: 'ss-editor' });
    editorPanel.section.append(editorHost);
    const panels = h(doc, 'div', { class: 'ss-panels' }, editorPanel.section, outputPanel.section, chartPanel.section);
    root.append(toolbar, this.#background.progress.marksNote, panels);
    // Hidden rather than left out: the playhead behind it still marks the
    // editor's line and the output's row.
    if (options.chart === false) {
      chartPanel.section.hidden = true;
      root.classList.add('ss-no-chart');
    }

    this.editor = new ScriptEditor({
      parent: editorHost,
      root: options.documentRoot ?? (root.getRootNode() as Document | ShadowRoot),
      doc: options.script ?? DEFAULT_EXAMPLE.script,
      label: 'Script',
      readOnly: options.readOnly ?? false,
      onChange: () => this.#edited(),
      onRun: () => this.run({ play: true }),
      onCursorLine: (line) => this.#cursorMoved(line),
      onHoverLine: (line) => this.output.setLinkedLine(line),
    });
    this.output = new OutputView(outputPanel.section, {
      label: 'Output',
      fitLines: options.compact,
      onHover: (i) => this.editor.setLinkedLine(i === null ? null : this.#outputLine(i)),
      onSelect: (i) => this.#seek(this.#timeline?.stepAtLine(this.#outputLine(i)) ?? -1, 'elsewhere'),
      onActivate: (i) => this.editor.goToLine(this.#outputLine(i)),
    });
    this.playhead = new Playhead(chartPanel.section, {
      onMove: (step, frac, cause) => this.#showStep(step, frac, cause),
      describe: (step) => this.#describe(step),
      reducedMotion: () => this.#reducedMotion.matches,
    });
    this.chart = new RampChart(chartPanel.section, {
      label: 'Ramp chart',
      onSeek: (step) => this.#seek(step, 'elsewhere'),
      reducedMotion: () => this.#reducedMotion.matches,
      maxPlotHeight: options.compact ? 220 : undefined,
    });
    this.legend = new Legend(chartPanel.section);
    this.pickView = new PickExplain(chartPanel.section, {
      headingLevel: Math.min(6, (options.headingLevel ?? 2) + 1) as 3,
      folded: options.compact,
      onSeek: (step) => this.#seek(step, 'elsewhere'),
    });
    this.table = new TimelineTable(chartPanel.section);
    if (options.chartTabs?.length) {
      this.#chartTabs = new ChartTabs(chartPanel.section, options.chartTabs, {
        documentRoot: options.documentRoot ?? (root.getRootNode() as Document | ShadowRoot),
        headingLevel: Math.min(6, (options.headingLevel ?? 2) + 1) as 3,
        onChoose: options.onChartTab,
      });
    }

    this.#setStatus('Loading the engine…');
    Promise.resolve(options.engine).then(
      (engine) => {
        if (this.#destroyed) return;
        this.#engine = engine;
        if (runOnLoad) this.run();
        else this.#setStatus(`Press Run (${modKey(this.#win)}+Enter) to run the script.`);
      },
      (error: unknown) => this.#setStatus(`The engine failed to load: ${String(error)}`, true),
    );
  }

  /** The script in the editor. */
  get script(): string {
    return this.editor.text;
  }

  /** Replaces the script (undoable) and runs it, playing it through unless motion is reduced. */
  setScript(script: string): void {
    this.editor.setText(script);
    this.run({ play: true });
  }

  /**
   * Runs the script now. `play` replays it from the first step. A big script
   * runs in the background (null is returned; the views update when it is done).
   */
  run(options: { play?: boolean } = {}): RunTimings | null {
    this.#win.clearTimeout(this.#timer);
    const engine = this.#engine;
    if (!engine) return null;
    if (options.play) this.#next = 'play';
    if (this.#background.takes(this.editor)) return null; // shown when it is done
    const t0 = performance.now();
    const script = this.editor.text;
    const result = engine.run(script);
    return this.#show(result, script, performance.now() - t0);
  }

  // Shows a run's result in every view (a run on the page, or in the background).
  #show(result: RunResult, script: string, runMs: number): RunTimings {
    const t1 = performance.now();
    this.#chartTabs?.update(script);
    this.#pending = false;
    this.#result = result;
    this.#timeline = result.timeline && result.timeline.length > 0 ? result.timeline : null;
    const tl = this.#timeline;

    let mark = t1;
    const lap = () => {
      const now = performance.now();
      const ms = now - mark;
      mark = now;
      return ms;
    };
    const n = tl?.length ?? 0;
    const play = this.#next === 'play' && !this.#reducedMotion.matches && n > 1;
    const start = play ? 0 : this.#next !== null ? n - 1 : this.#stepForLine(this.#cursorLine());
    this.#next = null;

    // The editor first: its update reads layout, which is cheap while the
    // rest of the page has not changed yet.
    // At most MAX_MARKED marks: CodeMirror takes ~12 µs a mark, so 500,000 rejected lines would freeze the page.
    const marked = result.diagnostics.length > MAX_MARKED ? result.diagnostics.slice(0, MAX_MARKED) : result.diagnostics;
    this.#background.progress.unmarked(marked.length, result.diagnostics.length);
    this.editor.showRun(marked, tl ? tl.stepLine[start] : null);
    const diagnostics = lap();
    this.output.setOutput(result.output, (i) => this.#rowKind(i));
    const output = lap();
    this.chart.setTimeline(tl);
    const chart = lap();
    this.legend.setTimeline(tl);
    const legend = lap();
    this.table.setTimeline(tl);
    this.pickView.setTimeline(tl);
    const table = lap();
    this.#shownStep = -1;
    this.playhead.setLength(n, start);
    if (play) this.playhead.play();
    this.#report(result);
    const playhead = lap();
    this.lastTimings = {
      run: runMs,
      render: mark - t1,
      views: { diagnostics, output, chart, legend, table, playhead },
    };
    this.#onRun?.(result, script);
    return this.lastTimings;
  }

  /** Adds controls to the toolbar, after Run, Live and Examples (before the status). */
  addToolbarItems(...items: Node[]): void {
    this.#status.before(...items);
  }

  /** Adds content between the toolbar and the panels (an embedder's notes, an exercise's verdict). */
  addBelowToolbar(...items: Node[]): void {
    this.#toolbar.after(...items);
  }

  /** Shows the chart tab `id` ('ramp' or a chart tab's), as a page following its URL does. */
  showChartTab(id: string): void {
    this.#chartTabs?.show(id);
  }

  /** The view of chart tab `id`, once its tab has been opened. */
  chartTabView(id: string): ChartTabView | null {
    return this.#chartTabs?.view(id) ?? null;
  }

  /** Stops timers and animation and empties the root. */
  destroy(): void {
    this.#destroyed = true;
    this.#background.destroy();
    this.#win.clearTimeout(this.#timer);
    this.playhead.destroy();
    this.#menu?.destroy();
    this.editor.destroy();
    this.root.replaceChildren();
  }

  #edited(): void {
    this.#pending = true;
    this.#onEdit?.();
    this.playhead.pause();
    this.#win.clearTimeout(this.#timer);
    if (this.#liveBox.checked) this.#timer = this.#win.setTimeout(() => this.run(), this.#debounceMs);
    else this.#setStatus(`Edited: press Run (${modKey(this.#win)}+Enter) to run it.`);
  }

  // The cursor moved: show the state after that line. A click in the
  // editor stops playback (the learner wants to look there). Not while a
  // run is pending: line numbers may have shifted since the last one.
  #cursorMoved(line: number): void {
    this.playhead.pause();
    if (this.#pending || !this.#timeline) return;
    this.#seek(this.#stepForLine(line), 'editor');
  }

  #seek(step: number, source: Source): void {
    if (step < 0) return;
    this.#source = source;
    this.playhead.seek(step);
    this.#source = 'elsewhere';
  }

  // One place moves everything that follows the playhead.
  #showStep(step: number, frac: number, cause: MoveCause): void {
    this.chart.setPlayhead(step, frac);
    const tl = this.#timeline;
    if (!tl || step === this.#shownStep) return;
    this.#shownStep = step;
    const line = tl.stepLine[step];
    // The editor follows playing and clicks elsewhere, but never scrolls
    // away from where the learner is typing; the output always follows.
    this.editor.setCurrentLine(line, cause === 'play' || (cause === 'user' && this.#source !== 'editor'));
    const out = this.#result?.output ?? [];
    const row = outputIndexAtLine(out, line);
    this.output.setCurrent(row < out.length && out[row].line === line ? row : -1, Math.min(row, out.length - 1));
    this.legend.setStep(step);
    this.table.setStep(step);
    this.pickView.setStep(step, cause !== 'play');
  }

  #describe(step: number): string {
    const tl = this.#timeline;
    if (!tl) return '';
    const w = tl.stepWinner[step];
    const pick = w === -2 ? '' : ` · PICK → ${w === -1 ? 'NONE' : tl.names[w]}`;
    return `Step ${step + 1} of ${tl.length} · line ${tl.stepLine[step]} · now ${formatClock(tl.stepNow[step])} s${pick}`;
  }

  #report(result: RunResult): void {
    const problems = result.diagnostics.length;
    const lines = result.output.length;
    setText(this.#outputMeta, plural(lines, 'line'));
    const first = result.diagnostics[0];
    const text =
      problems === 0
        ? `Ran: ${plural(lines, 'output line')}, no problems.`
        : `${plural(problems, 'rejected line')} · line ${first.line}: ${first.message}`;
    this.#setStatus(text, problems > 0);
    this.#problems.hidden = problems === 0;
  }

  #setStatus(text: string, problem = false): void {
    setText(this.#status, text);
    this.#status.classList.toggle('ss-status-problem', problem);
  }

  #outputLine(index: number): number {
    return this.#result?.output[index]?.line ?? -1;
  }

  // Winner id of an output row's PICK, -1 for NONE, -2 for WEIGHTS.
  #rowKind(index: number): number {
    const tl = this.#timeline;
    const line = this.#outputLine(index);
    if (!tl || line < 0) return -2;
    const step = tl.stepAtLine(line);
    return step >= 0 && tl.stepLine[step] === line ? tl.stepWinner[step] : -2;
  }

  #cursorLine(): number {
    const state = this.editor.view.state;
    return state.doc.lineAt(state.selection.main.head).number;
  }

  // The last step at or before `line`: the state the learner is looking at.
  #stepForLine(line: number): number {
    const tl = this.#timeline;
    if (!tl) return 0;
    const after = tl.stepAtLine(line + 1);
    return after === -1 ? tl.length - 1 : Math.max(0, after - 1);
  }
}

/** The first output row printed at or after `line` (binary search; rows are in line order). */
function outputIndexAtLine(output: readonly OutputLine[], line: number): number {
  let lo = 0;
  let hi = output.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (output[mid].line < line) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Builds a runner (see {@link RunnerOptions}). */
export function createRunner(options: RunnerOptions): Runner {
  return new Runner(options);
}
