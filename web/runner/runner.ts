// The runner: editor, output, ramp chart, playhead, legend and table, wired
// together around one engine run, and the chart tabs a host adds. It renders
// into the element it is given and never looks anything up in a global
// document, so the same code serves the page (web/page/main.ts) and an
// embeddable element with a shadow root. Its parts: the toolbar
// (runner-toolbar.ts), the panels (runner-layout.ts), what it says
// (run-words.ts), and how lines, steps and rows map (step-lookup.ts).
import { openLintPanel } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';
import type { Diagnostic, OutputLine, RunResult, SlowStart, Timeline } from '../api/index.js';
import type { ChartTabView } from '../shared/chart-tab.js';
import { count, plural } from '../shared/format.js';
import { setText } from '../shared/dom.js';
import { modKey } from '../shared/shortcut.js';
import { ChartTabs } from './chart-tabs.js';
import { ScriptEditor } from './editor.js';
import { DEFAULT_EXAMPLE, EXAMPLES } from './examples.js';
import { Legend } from './legend.js';
import { OutputView } from './output-view.js';
import { PickExplain } from './pick-explain.js';
import { Playhead, type MoveCause } from './playhead.js';
import { RampChart } from './ramp-chart.js';
import { PredictPanel } from './predict.js';
import { askedLines, revealedSteps, type PredictAt } from './predict-questions.js';
import { timelinePrefix } from './timeline-prefix.js';
import { addRunExports } from './run-exports.js';
import { describeStep, KEPT_TEXT, runStatus } from './run-words.js';
import { MAX_MARKED, RunnerBackground } from './runner-background.js';
import { layOutPanels } from './runner-layout.js';
import { LiveRuns } from './live-runs.js';
import type { RunnerOptions, RunTimings } from './runner-options.js';
import { RunnerToolbar } from './runner-toolbar.js';
import { outputIndexAtLine, rowKind, stepForLine } from './step-lookup.js';
import { TimelineTable } from './timeline-table.js';

export type { RunnerOptions, RunTimings } from './runner-options.js';

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

  readonly #win: Window;
  /** When a live re-run follows an edit (live-runs.ts): after a wait that follows the last run's cost. */
  readonly #live: LiveRuns;
  readonly #toolbar: RunnerToolbar;
  /** Big scripts run in a worker (runner-background.ts). */
  readonly #background: RunnerBackground;
  /** The chart panel's tabs, when a host added any. */
  readonly #chartTabs: ChartTabs | null = null;
  readonly #outputMeta: HTMLSpanElement;
  readonly #onRun: RunnerOptions['onRun'];
  readonly #onEdit: RunnerOptions['onEdit'];
  readonly #onShown: RunnerOptions['onShown'];
  readonly #reducedMotion: MediaQueryList;
  #engine: SlowStart | null = null;
  #result: RunResult | null = null;
  #timeline: Timeline | null = null;
  // The last run was a live run after an edit (not Run): problems on the line being typed are held back (typingHold).
  #typing = false;
  #held = 0; // the line whose problems are held back, 0 for none
  #holdTimer = 0;
  #predict: PredictPanel | null = null;
  // Predict mode: the output lines and the run's steps the views were given (null: all of them).
  #shownLines: readonly OutputLine[] | null = null;
  #viewed: Timeline | null = null;
  #inShow = false;
  #pending = false; // the text changed since the last run
  #runWanted = false; // run() was called before the engine had loaded
  // Where the next run puts the playhead: play from the start (or, with
  // reduced motion, the end), the end, or (null) the editor's cursor line.
  #next: 'play' | 'end' | null;
  #source: Source = 'elsewhere';
  #shownStep = -1;
  // While a run plays, the pick view follows at most every SLOW_FOLLOW_MS (see #showStep).
  #pickFollowed = 0;
  #pickBehind = -1; // a step it has still to show, -1 for none
  // The last frame of a play left its step's views to this one (CodeMirror drew in it).
  #viewsDeferred = false;
  #destroyed = false;

  constructor(options: RunnerOptions) {
    const root = (this.root = options.root);
    const doc = root.ownerDocument;
    const documentRoot = options.documentRoot ?? (root.getRootNode() as Document | ShadowRoot);
    this.#win = doc.defaultView ?? window;
    this.#live = new LiveRuns(this.#win, () => this.#start(true), options.debounceMs ?? null);
    this.#reducedMotion = this.#win.matchMedia('(prefers-reduced-motion: reduce)');
    this.#next = options.autoplay ?? true ? 'play' : 'end';
    this.#onRun = options.onRun;
    this.#onEdit = options.onEdit;
    this.#onShown = options.onShown;
    const runOnLoad = options.runOnLoad ?? true;
    const headingLevel = options.headingLevel ?? 2;
    const subLevel = Math.min(6, headingLevel + 1) as 3;
    root.classList.add('ss-runner');
    root.replaceChildren();

    this.#toolbar = new RunnerToolbar(doc, {
      examples: options.examples ?? EXAMPLES,
      onRun: () => this.run({ play: true }),
      onLive: (live) => {
        if (live && this.#pending) this.run();
      },
      onExample: (e) => this.setScript(e.script),
      onShowProblems: () => {
        this.editor.view.focus();
        openLintPanel(this.editor.view);
        // The list opens under the editor: bring all of it into view (it opened partly below the fold).
        this.editor.view.requestMeasure({
          read: () => this.editor.view.dom.querySelector('.cm-panel-lint'),
          write: (panel) => panel?.scrollIntoView({ block: 'nearest' }),
        });
      },
    });
    this.#background = new RunnerBackground(doc, {
      show: (result, script, ms) => this.#show(result, script, ms),
      runOnPage: (script) => this.#engine && this.#show(this.#engine.run(script), script, 0),
      status: (text, problem) => this.#toolbar.setStatus(text, problem),
      busy: (going) => root.classList.toggle('ss-bg-running', going),
      hasResult: () => this.#result !== null,
    });
    this.#toolbar.addBeforeProblems(this.#background.progress.element);

    const panels = layOutPanels(doc, headingLevel, { readOnly: options.readOnly ?? false, chart: options.chart ?? true });
    this.#outputMeta = panels.output.meta;
    root.append(this.#toolbar.element, this.#background.progress.marksNote, panels.element);
    if (options.chart === false) root.classList.add('ss-no-chart');
    const chartSection = panels.chart.section;

    this.editor = new ScriptEditor({
      parent: panels.editorHost,
      root: documentRoot,
      doc: options.script ?? DEFAULT_EXAMPLE.script,
      label: 'Script',
      readOnly: options.readOnly ?? false,
      onChange: () => this.#edited(),
      onRun: () => this.run({ play: true }),
      onCursorLine: (line) => this.#cursorMoved(line),
      onHoverLine: (line) => this.output.setLinkedLine(line),
    });
    this.output = new OutputView(panels.output.section, {
      label: 'Output',
      fitLines: options.compact,
      onHover: (i) => this.editor.setLinkedLine(i === null ? null : this.#outputLine(i)),
      onSelect: (i) => this.#seek(this.#timeline?.stepAtLine(this.#outputLine(i)) ?? -1, 'elsewhere'),
      onActivate: (i) => this.editor.goToLine(this.#outputLine(i)),
    });
    this.playhead = new Playhead(chartSection, {
      onMove: (step, frac, cause) => this.#showStep(step, frac, cause),
      describe: (step) => (this.#viewed?.length ? describeStep(this.#viewed, step) : ''),
      reducedMotion: () => this.#reducedMotion.matches,
      // The editor's marked line gives way to the strip that follows a run
      // playing (a CodeMirror transaction) in the click's task, and a
      // replay's jump back to step 0 is done there too (playhead.ts, PL-35, PL-53).
      onPlay: () => this.editor.unmarkLine(),
    });
    this.chart = new RampChart(chartSection, {
      label: 'Ramp chart',
      onSeek: (step) => this.#seek(step, 'elsewhere'),
      reducedMotion: () => this.#reducedMotion.matches,
      maxPlotHeight: options.compact ? 160 : undefined,
    });
    addRunExports(doc, {
      outputHead: panels.output.section.querySelector('.ss-panel-head')!,
      chartHead: options.chart === false ? null : chartSection.querySelector('.ss-panel-head'),
      output: () => (this.#result ? this.shownOutput : null),
      chart: () => (this.#timeline ? this.chart.svgElement : null),
      chartParts: () => this.chart.exportParts(),
    });
    this.legend = new Legend(chartSection);
    this.pickView = new PickExplain(chartSection, {
      headingLevel: subLevel,
      folded: options.compact,
      onSeek: (step) => this.#seek(step, 'elsewhere'),
    });
    this.table = new TimelineTable(chartSection);
    if (options.chartTabs?.length) {
      this.#chartTabs = new ChartTabs(chartSection, options.chartTabs, {
        documentRoot,
        headingLevel: subLevel,
        onChoose: options.onChartTab,
      });
    }

    if (options.predict) this.setPredict(true);
    this.#toolbar.setStatus('Loading the engine…');
    Promise.resolve(options.engine).then(
      (engine) => {
        if (this.#destroyed) return;
        this.#engine = engine;
        this.editor.setKeywords(engine.keywords);
        // A run asked for while the engine loaded (a script set, an edit, Run) runs now, the latest text.
        if (runOnLoad || this.#runWanted) this.run();
        else this.#toolbar.setStatus(`Press Run (${modKey(this.#win)}+Enter) to run the script.`);
      },
      (error: unknown) => this.#toolbar.setStatus(`The engine failed to load: ${String(error)}`, true),
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
   * Before the engine has loaded, null: the script as it is then runs once it has.
   */
  run(options: { play?: boolean } = {}): RunTimings | null {
    if (options.play) this.#next = 'play';
    return this.#start(false);
  }

  /** How long a live re-run waits after a keystroke now (ms): it follows the last run's cost (live-runs.ts). */
  get liveWaitMs(): number {
    return this.#live.waitMs;
  }

  // A run: `live` after an edit (its problems on the line being typed are held back), else asked for.
  #start(live: boolean): RunTimings | null {
    this.#live.cancel();
    this.#typing = live;
    const engine = this.#engine;
    if (!engine) {
      this.#runWanted = true; // run once the engine is there
      return null;
    }
    if (this.#background.takes(this.editor)) return null; // shown when it is done
    const t0 = performance.now();
    const script = this.editor.text;
    const result = engine.run(script);
    return this.#show(result, script, performance.now() - t0);
  }

  /** True in predict-then-reveal mode. */
  get predicting(): boolean {
    return this.#predict !== null;
  }

  /**
   * The output lines the learner has been shown: all of them, or in predict
   * mode those revealed so far. What hosts may show, copy or compare.
   */
  get shownOutput(): readonly OutputLine[] {
    return this.#shownLines ?? this.#result?.output ?? [];
  }

  /** False while predict mode still holds lines back (hosts hold their comparisons and verdicts). */
  get revealedAll(): boolean {
    return this.#shownLines === null;
  }

  /** Turns predict-then-reveal on or off (predict.ts): nothing past the line in question is in the page. */
  setPredict(on: boolean): void {
    if (on === (this.#predict !== null)) return;
    this.root.classList.toggle('ss-predicting', on);
    // The Traffic tab draws the ramp's weights: it waits until everything is revealed.
    this.#chartTabs?.lock(on ? 'Predict mode: the other tabs open once every line is revealed.' : null);
    if (!on) {
      this.#predict!.element.remove();
      this.#predict = null;
      this.#reveal(Infinity, null);
      return;
    }
    this.#predict = new PredictPanel(this.root.ownerDocument, {
      reveal: (shown, at) => this.#reveal(shown, at),
      lineText: (line) => {
        const doc = this.editor.view.state.doc;
        return line >= 1 && line <= doc.lines ? doc.line(line).text.slice(0, 200) : '';
      },
      explainPick: () => {
        this.pickView.open({ scroll: true, smooth: !this.#reducedMotion.matches });
        return this.pickView.summaryText;
      },
      emit: (detail) => this.root.dispatchEvent(new CustomEvent('slowstart-predict', { detail, bubbles: true, composed: true })),
    });
    this.#toolbar.element.after(this.#predict.element);
    if (this.#result && !this.#pending) this.#startPredict(this.editor.view.state.doc.iterLines());
    else this.#reveal(0, null, true); // the run shown (if any) is not this text's: nothing of it until it runs
  }

  #startPredict(lines: Iterable<string>): void {
    const result = this.#result!;
    this.#predict!.start(result.output, askedLines(lines, result.output));
  }

  // What the views are given: the first `shown` output lines and as much of
  // the run as `at` allows (predict-questions.ts); all of it once the
  // questions are answered (or predict mode is off). `nothing`: none of it.
  #reveal(shown: number, at: PredictAt | null, nothing = false): void {
    const result = this.#result;
    const full = this.#timeline;
    const all = !this.#predict || (this.#predict.complete && !nothing);
    const output = result?.output ?? [];
    this.#shownLines = all ? null : output.slice(0, Math.min(shown, output.length));
    const steps = all ? null : nothing ? 0 : revealedSteps(full, output, this.#shownLines!.length, at);
    const viewed = (this.#viewed = full && steps !== null ? timelinePrefix(full, steps) : full);
    if (result) this.output.setOutput(this.shownOutput, (i) => rowKind(this.#timeline, this.#outputLine(i)));
    setText(this.#outputMeta, result ? this.#outputCount(result) : '');
    this.playhead.pause();
    // A WEIGHTS line asked: its weights are the answer, and the chart stops short of them.
    const held = at && !at.answered && full && steps !== null && steps < full.length && full.stepAtLine(at.line) > steps;
    this.chart.setReveal(steps, held ? `The lines stop at the last output shown: line ${at.line}’s weights are the question.` : '');
    this.legend.setTimeline(viewed);
    this.table.setTimeline(viewed);
    this.pickView.setTimeline(viewed);
    if (viewed && viewed.length === 0) this.pickView.element.hidden = true;
    // The playhead: on the line answered, or the last step shown.
    const n = viewed?.length ?? 0;
    const atStep = at?.answered && full ? full.stepAtLine(at.line) : -1;
    this.#shownStep = -1;
    this.#pickBehind = -1;
    this.playhead.setLength(n, atStep >= 0 && atStep < n ? atStep : n - 1);
    if (!this.#inShow) this.#onShown?.(this.shownOutput, this.revealedAll);
  }

  /** Adds controls to the toolbar, after Run, Live and Examples (before the status). */
  addToolbarItems(...items: Node[]): void {
    this.#toolbar.addItems(...items);
  }

  /** Adds content between the toolbar and the panels (an embedder's notes, an exercise's verdict), below predict mode's question. */
  addBelowToolbar(...items: Node[]): void {
    (this.#predict?.element ?? this.#toolbar.element).after(...items);
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
    this.#live.cancel();
    this.#win.clearTimeout(this.#holdTimer);
    this.playhead.destroy();
    this.#toolbar.destroy();
    this.editor.destroy();
    this.root.replaceChildren();
  }

  // Shows a run's result in every view (a run on the page, or in the background).
  #show(result: RunResult, script: string, runMs: number): RunTimings {
    const t1 = performance.now();
    this.#chartTabs?.update(script);
    this.#pending = false;
    this.#result = result;
    this.#timeline = result.timeline && result.timeline.length > 0 ? result.timeline : null;
    const tl = this.#timeline;
    this.#viewed = tl;
    this.#shownLines = null;

    let mark = t1;
    const lap = () => {
      const now = performance.now();
      const ms = now - mark;
      mark = now;
      return ms;
    };
    const n = tl?.length ?? 0;
    const play = this.#next === 'play' && !this.#reducedMotion.matches && n > 1;
    const start = play ? 0 : this.#next !== null ? n - 1 : stepForLine(tl, this.#cursorLine());
    this.#next = null;

    // The editor first: its update reads layout, which is cheap while the
    // rest of the page has not changed yet.
    // At most MAX_MARKED marks: CodeMirror takes ~12 µs a mark, so 500,000 rejected lines would freeze the page.
    this.#win.clearTimeout(this.#holdTimer);
    this.#held = this.#typing ? typingHold(this.editor.view.state, result.diagnostics) : 0;
    if (this.#held) {
      // Judged after a pause, or when the cursor leaves the line.
      this.#holdTimer = this.#win.setTimeout(() => this.#release(), HOLD_MS);
    }
    this.editor.showRun(this.#marked(result), tl ? tl.stepLine[start] : null);
    const diagnostics = lap();
    this.output.setOutput(result.output, (i) => rowKind(this.#timeline, this.#outputLine(i)));
    const output = lap();
    this.chart.setTimeline(tl);
    const chart = lap();
    this.legend.setTimeline(tl);
    const legend = lap();
    this.table.setTimeline(tl);
    this.pickView.setTimeline(tl);
    const table = lap();
    this.#shownStep = -1;
    this.#pickBehind = -1;
    this.playhead.setLength(n, start);
    this.#inShow = true;
    if (this.#predict) this.#startPredict(script.split('\n')); // hides what comes after the first question
    else if (play) this.playhead.play();
    this.#inShow = false;
    this.#report(result);
    const playhead = lap();
    this.lastTimings = {
      run: runMs,
      render: mark - t1,
      views: { diagnostics, output, chart, legend, table, playhead },
    };
    this.#live.measured(runMs + (mark - t1));
    this.#onRun?.(result, script);
    this.#onShown?.(this.shownOutput, this.revealedAll);
    return this.lastTimings;
  }

  #edited(): void {
    this.#pending = true;
    this.#onEdit?.();
    this.playhead.pause();
    this.#win.clearTimeout(this.#holdTimer);
    if (this.#toolbar.live) this.#live.edited();
    else {
      this.#live.cancel();
      this.#toolbar.setStatus(`Edited: press Run (${modKey(this.#win)}+Enter) to run it.`);
    }
  }

  // The rejected lines the editor marks: all but the line being typed (held back), at most MAX_MARKED.
  #marked(result: RunResult): readonly Diagnostic[] {
    const shown = this.#shownDiagnostics(result);
    this.#background.progress.unmarked(Math.min(MAX_MARKED, shown.length), shown.length);
    return shown.length > MAX_MARKED ? shown.slice(0, MAX_MARKED) : shown;
  }

  #shownDiagnostics(result: RunResult): readonly Diagnostic[] {
    const held = this.#held;
    return held ? result.diagnostics.filter((d) => d.line !== held) : result.diagnostics;
  }

  // The line being typed is judged now (the learner paused, or the cursor left it): its
  // problems are shown from the last run, which is of the text as it is (no edit since).
  #release(): void {
    this.#win.clearTimeout(this.#holdTimer);
    if (!this.#held) return;
    this.#held = 0;
    const result = this.#result;
    if (this.#pending || !result) return; // the run the edit brings judges it
    this.editor.showDiagnostics(this.#marked(result));
    this.#report(result);
  }

  // The cursor moved: show the state after that line. A click in the
  // editor stops playback (the learner wants to look there). Not while a
  // run is pending: line numbers may have shifted since the last one.
  #cursorMoved(line: number): void {
    this.playhead.pause();
    if (this.#predict) return; // the playhead stays on the line in question
    // Leaving a line whose problem was held back shows it.
    if (this.#held && line !== this.#held) this.#release();
    if (this.#pending || !this.#timeline) return;
    this.#seek(stepForLine(this.#timeline, line), 'editor');
  }

  #seek(step: number, source: Source): void {
    if (step < 0) return;
    this.#source = source;
    this.playhead.seek(step);
    this.#source = 'elsewhere';
  }

  // One place moves everything that follows the playhead.
  #showStep(step: number, frac: number, cause: MoveCause): void {
    const tl = this.#viewed; // in predict mode, the steps revealed
    const playing = cause === 'play' && this.playhead.playing;
    if (!tl || step >= tl.length || step === this.#shownStep) {
      if (!playing) this.#settle(tl && step < tl.length ? tl.stepLine[step] : null);
      this.chart.setPlayhead(step, frac);
      return;
    }
    this.#shownStep = step;
    const line = tl.stepLine[step];
    const out = this.shownOutput;
    const row = outputIndexAtLine(out, line);
    // Scroll positions before anything else: setting one makes the browser
    // lay out whatever this frame has written so far, which is nothing yet
    // (PL-35; set after the editor's strip and the pick view, it laid them
    // out in the middle of the frame). A scroll itself changes no layout.
    this.output.reveal(Math.min(row, out.length - 1));
    // The editor first, as in #show: what it does reads layout, cheap while
    // nothing else has changed yet. While playing it follows every step
    // without a CodeMirror transaction (playing-line.ts; a transaction per
    // move was half of the heaviest frames, PL-31); otherwise its line is
    // marked, and scrolled to unless the learner is typing there.
    if (playing) {
      // A scroll that made CodeMirror draw its next lines now is most of a
      // vsync here (12-20 ms); with the other views' move on top it went
      // over one and dropped a frame (PL-55). In an animation frame the
      // rest of the step waits for the next frame, which moves them to
      // wherever the clock is then (the editor's line is already there).
      // In Play's own task (a replay's jump) every view moves at once.
      // Never two frames running: where every frame's step is far enough
      // down to make CodeMirror draw (hundreds of steps a second, lines
      // apart), the views still move every other frame.
      const drew = this.editor.followLine(line) && this.playhead.inFrame;
      if (drew && !this.#viewsDeferred) {
        this.#viewsDeferred = true;
        this.#shownStep = -1;
        return;
      }
      this.#viewsDeferred = false;
    } else {
      this.#viewsDeferred = false;
      this.editor.setCurrentLine(line, cause === 'play' || (cause === 'user' && this.#source !== 'editor'));
    }
    // The pick view follows at most every SLOW_FOLLOW_MS while playing (its
    // working changes at every pick; a person reads none of it at 40 steps a
    // second); when the run stops it catches up. The output, chart and legend follow every step.
    if (playing && performance.now() - this.#pickFollowed < SLOW_FOLLOW_MS) this.#pickBehind = step;
    else this.#followPick(step, cause !== 'play', playing);
    this.output.setCurrent(row < out.length && out[row].line === line ? row : -1, null);
    this.chart.setPlayhead(step, frac);
    this.legend.setStep(step);
    this.table.setStep(step);
  }

  // The run stopped on the step shown: the editor marks its line again (it
  // was following with its strip), and the pick view shows the step it was
  // behind on, or kept for when it came into sight.
  #settle(line: number | null): void {
    // (Or its mark was taken away by Play, and the run stopped before its first step.)
    if (this.editor.followedLine || (line !== null && this.editor.markedLine !== line)) this.editor.setCurrentLine(line, true);
    if (this.#pickBehind >= 0) this.#followPick(this.#pickBehind, false, false);
    this.pickView.catchUp();
  }

  // The pick view on `step` (said aloud if `announce`; `whenSeen`: drawn once it is on screen).
  #followPick(step: number, announce: boolean, whenSeen: boolean): void {
    this.#pickBehind = -1;
    this.#pickFollowed = performance.now();
    this.pickView.setStep(step, announce, whenSeen);
  }

  #outputCount(result: RunResult): string {
    const all = result.output.length;
    const shown = this.#shownLines?.length ?? all;
    return `${shown < all ? `${count(shown)} of ${count(all)} lines shown` : plural(all, 'line')}${result.truncated ? `, cut at ${KEPT_TEXT}` : ''}`;
  }

  #report(result: RunResult): void {
    setText(this.#outputMeta, this.#outputCount(result));
    const diagnostics = this.#shownDiagnostics(result);
    if (this.#held && diagnostics.length === 0 && !result.truncated) {
      this.#toolbar.setStatus(`Typing line ${this.#held}… (it is checked when you pause)`);
      this.#toolbar.showProblemsButton(false);
      return;
    }
    // Other lines are judged as ever: their problems are said while line `held` is typed.
    const status = runStatus(diagnostics === result.diagnostics ? result : { ...result, diagnostics: [...diagnostics] });
    this.#toolbar.setStatus(status.text, status.problem);
    this.#toolbar.showProblemsButton(diagnostics.length > 0);
  }

  #outputLine(index: number): number {
    return this.#result?.output[index]?.line ?? -1;
  }

  #cursorLine(): number {
    const state = this.editor.view.state;
    return state.doc.lineAt(state.selection.main.head).number;
  }
}

/** While a run plays, the pick view moves at most this often (ms): 10 times a second reads as following. */
export const SLOW_FOLLOW_MS = 100;

/** How long a problem on the line being typed waits before it shows (a beginner types a letter every 200-400 ms). */
export const HOLD_MS = 1200;

/**
 * The line whose problems a live run holds back, or 0. A line is complete,
 * and judged, once the cursor has left it or the learner has paused on it
 * for HOLD_MS: until then the line being typed ("P", "PO", "POOL", "POOL a",
 * "ADD " on the way to a whole command) is not called wrong. Every other
 * line is judged at once. Only the cursor's line (a plain cursor, not a
 * selection) is held, and only when it has a problem.
 */
export function typingHold(state: EditorState, diagnostics: readonly Diagnostic[]): number {
  if (diagnostics.length === 0 || !state.selection.main.empty) return 0;
  const line = state.doc.lineAt(state.selection.main.head).number;
  return diagnostics.some((d) => d.line === line) ? line : 0;
}

/** Builds a runner (see {@link RunnerOptions}). */
export function createRunner(options: RunnerOptions): Runner {
  return new Runner(options);
}
