// What a run tells the page around an element: `slowstart-run` after every
// run and, for an exercise, its verdict (`slowstart-pass` or
// `slowstart-fail`, with `changed` when it flipped), shown in the exercise
// panel as well. Events bubble out of the shadow root (composed).
import type { RunResult } from '../api/index.js';
import { judge } from '../host/compare.js';
import type { SlowStartRunDetail, SlowStartVerdictDetail } from './element-types.js';
import type { ExercisePanel } from './exercise-panel.js';

export class RunEvents {
  /** The last run, as events report it. */
  lastRun: SlowStartRunDetail | null = null;
  readonly #host: HTMLElement;
  readonly #exercise: { expected: readonly string[]; panel: ExercisePanel } | null;
  #lastPass: boolean | null = null;

  /** `exercise`: the expected output and the panel that shows the verdict (none: no verdict). */
  constructor(host: HTMLElement, exercise: { expected: readonly string[]; panel: ExercisePanel } | null) {
    this.#host = host;
    this.#exercise = exercise;
  }

  /** A run finished: report it, and judge it when the element is an exercise. */
  ran(result: RunResult, script: string): void {
    const detail: SlowStartRunDetail = {
      script,
      output: result.output,
      diagnostics: result.diagnostics,
      truncated: result.truncated === true,
    };
    this.lastRun = detail;
    this.#emit('slowstart-run', detail);
    if (!this.#exercise) return;
    const { expected, panel } = this.#exercise;
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
