// "Open in the runner": a test's script goes into the host's runner, with the
// learner's weights drawn dashed over the engine's on its chart, and the
// drawing follows new results for that test while the runner still shows
// its script. The runner is the host's (web/runner/runner.ts); this view only
// says what it needs of one (TestRunner), so the two views do not import each other.
import type { Timeline } from '../api/timeline.js';
import type { TestResult } from './grade.js';
import type { ImplementTest } from './suite.js';

/** What the implement view needs of the runner a test opens in. */
export interface TestRunner {
  readonly script: string;
  setScript(script: string): void;
  readonly chart: {
    /** Draws a test's weights (the learner's) dashed over the run's; null removes them. */
    setOverlay(timeline: Timeline | null, label?: string, caption?: string): void;
    readonly hasOverlay: boolean;
  };
}

/** What the chart's overlay says the dashed lines are. */
const OVERLAY_LABEL = 'your effectiveWeight';

export class RunnerLink {
  readonly #runner: TestRunner;
  // The test last opened in the runner, so a new result for it can update
  // the chart's overlay while the runner still shows its script.
  #opened: { test: ImplementTest; script: string } | null = null;

  constructor(runner: TestRunner) {
    this.#runner = runner;
  }

  /** Loads `test`'s script into the runner and draws `result`'s weights over it. */
  open(test: ImplementTest, result: TestResult | null): void {
    this.#runner.setScript(test.script);
    this.#opened = { test, script: this.#runner.script };
    this.#runner.chart.setOverlay(result?.timeline ?? null, OVERLAY_LABEL, overlayCaption(test));
  }

  /** A fresh result: redrawn when it is for the test the runner shows. */
  update(result: TestResult): void {
    const o = this.#opened;
    if (!o || o.test.id !== result.id || this.#runner.script !== o.script) return;
    this.#runner.chart.setOverlay(result.timeline ?? null, OVERLAY_LABEL, overlayCaption(o.test));
  }

  /** Takes the drawing off the runner's chart (the view is going). */
  destroy(): void {
    if (this.#opened && this.#runner.chart.hasOverlay) this.#runner.chart.setOverlay(null);
  }
}

function overlayCaption(test: ImplementTest): string {
  return `Test “${test.title}”:`;
}
