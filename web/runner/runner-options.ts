// What a host can ask of a runner (createRunner's options), and the timings
// it reports of a run.
import type { OutputLine, RunResult, SlowStart } from '../api/index.js';
import type { ChartTab } from '../shared/chart-tab.js';
import type { Example } from './examples.js';

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
  /**
   * Wait this long after the last keystroke before re-running (ms). Default:
   * half as long as the last run cost, at most 400 ms (live-runs.ts), so
   * a script that runs in a millisecond answers at once and a long one still
   * waits for a pause in the typing.
   */
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
   * What the learner has been shown changed: after every run (after
   * `onRun`), and in predict mode after every answer and when the mode is
   * turned on or off. `all` is false while predict mode holds lines back:
   * a host shows, copies or compares `shown` only, and holds whatever would
   * tell the rest (a comparison, an exercise's verdict) until `all`.
   */
  onShown?: (shown: readonly OutputLine[], all: boolean) => void;
  /**
   * For a runner among the text of a course page: the output box is only as
   * tall as its lines (when stacked), the chart shorter, and the pick view
   * folded until opened. Default false.
   */
  compact?: boolean;
  /**
   * Predict, then reveal (predict.ts): every WEIGHTS and PICK line (or those
   * a `#?` comment line marks) is asked before its output shows. Default false.
   */
  predict?: boolean;
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
