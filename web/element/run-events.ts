// What a run tells the page around an element: `slowstart-run` after every
// run and, for an exercise, its verdict (`slowstart-pass` or
// `slowstart-fail`, with `changed` when it flipped), shown in the exercise
// panel as well. Events bubble out of the shadow root (composed). In
// predict mode they carry only what the learner has been shown: the run's
// output lines before the first question, and the verdict (which holds the
// whole output, and the expected one) once every line is revealed.
import type { OutputLine, RunResult } from '../api/index.js';
import { judge } from '../host/compare.js';
import type { SlowStartRunDetail, SlowStartVerdictDetail } from './element-types.js';
import type { ExercisePanel } from './exercise-panel.js';

export class RunEvents {
  /** The last run, as events report it. */
  lastRun: SlowStartRunDetail | null = null;
  readonly #host: HTMLElement;
  readonly #exercise: { expected: readonly string[]; panel: ExercisePanel } | null;
  #lastPass: boolean | null = null;
  #result: RunResult | null = null;
  #judged = false;

  /** `exercise`: the expected output and the panel that shows the verdict (none: no verdict). */
  constructor(host: HTMLElement, exercise: { expected: readonly string[]; panel: ExercisePanel } | null) {
    this.#host = host;
    this.#exercise = exercise;
  }

  /** A run finished: report what of it is shown (`shown`: all of its output, unless predict mode holds lines back). */
  ran(result: RunResult, script: string, shown: readonly OutputLine[]): void {
    const detail: SlowStartRunDetail = {
      script,
      output: shown === result.output ? result.output : [...shown],
      heldBack: result.output.length - shown.length,
      diagnostics: result.diagnostics,
      truncated: result.truncated === true,
    };
    this.lastRun = detail;
    this.#result = result;
    this.#judged = false;
    this.#emit('slowstart-run', detail);
  }

  /**
   * What the learner has been shown changed (Runner's onShown): an exercise
   * is judged once the last run is all revealed, and held until then.
   */
  shown(shown: readonly OutputLine[], all: boolean): void {
    const result = this.#result;
    if (this.lastRun && result) {
      this.lastRun = { ...this.lastRun, output: all ? result.output : [...shown], heldBack: result.output.length - shown.length };
    }
    if (!this.#exercise || !result) return;
    if (!all) {
      this.#exercise.panel.hold();
      this.#judged = false;
      return;
    }
    if (this.#judged) return;
    this.#judged = true;
    const { expected, panel } = this.#exercise;
    const detail = this.lastRun!;
    const verdict = judge(expected, result.output, result.diagnostics, detail.truncated);
    panel.show(verdict, detail.truncated);
    const changed = this.#lastPass !== verdict.pass;
    this.#lastPass = verdict.pass;
    const verdictDetail: SlowStartVerdictDetail = {
      ...detail,
      ...verdict,
      expected: [...expected],
      actual: result.output.map((o) => o.text),
      changed,
    };
    this.#emit(verdict.pass ? 'slowstart-pass' : 'slowstart-fail', verdictDetail);
  }

  #emit(type: string, detail: unknown): void {
    this.#host.dispatchEvent(new CustomEvent(type, { detail, bubbles: true, composed: true }));
  }
}
