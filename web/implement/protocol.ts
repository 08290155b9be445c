/** Messages between the implement-mode page and its worker, and the result of a test that ran out of time. */
import type { ImplementTest } from './suite.js';
import type { TestResult } from './grade.js';
import type { LoadFailure } from './sandbox/sandbox.js';

export interface RunRequest {
  type: 'run';
  code: string;
  tests: ImplementTest[];
  /**
   * Time the learner's code may take per test (and to load), ms. The
   * sandbox in the worker stops it there; the page's own limit, a little
   * later, is the outer guard (client.ts).
   */
  timeLimitMs: number;
}

/**
 * Why the learner's code could not be run at all:
 * - `code`: it does not compile, throws at the top level, lacks a function,
 *   or its top-level code does not finish;
 * - `worker`: the worker, the engine or the sandbox failed to load (not the learner's fault).
 */
export type CompileErrorKind = 'code' | 'worker';

export type WorkerMessage =
  /** The engine and the sandbox are loaded: from here on, the time limit applies. */
  | { type: 'loaded' }
  /** The learner's code compiled; the tests follow. */
  | { type: 'ready' }
  | { type: 'compile-error'; kind: CompileErrorKind; message: string; codeLine?: number; reason?: LoadFailure }
  | { type: 'start'; index: number }
  /** Sent before the learner's code runs for a new script line, so a hang can be placed. */
  | { type: 'line'; index: number; line: number }
  /** A test's result, with its evidence about the learner's mistake (diagnosis.ts). */
  | { type: 'result'; index: number; result: TestResult }
  | { type: 'done' };

export function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * A test whose code did not finish within `ms`: stopped by the sandbox in
 * the worker, or, if that failed, by the page terminating the worker.
 */
/** A test not run because an earlier one ran out of time (one time-out says it; fifteen would take fifteen times as long). */
export function skippedResult(test: ImplementTest, after: ImplementTest): TestResult {
  return {
    id: test.id,
    title: test.title,
    script: test.script,
    pass: false,
    skipped: true,
    expected: [],
    actual: [],
    problems: [{ line: 0, message: `not run: “${after.title}” ran out of time first` }],
    mistakes: [],
  };
}

/** A test stopped at its time limit; `codeLine`, where in the learner's code: a loop's line (`inLoop`), or the line of the function it was in. */
export function stoppedResult(test: ImplementTest, line: number | undefined, ms: number, codeLine?: number, inLoop = false): TestResult {
  return {
    id: test.id,
    title: test.title,
    script: test.script,
    pass: false,
    timedOut: true,
    expected: [],
    actual: [],
    problems: [
      {
        line: line ?? 0,
        ...(codeLine ? { codeLine } : {}),
        message: `stopped after ${seconds(ms)}${line ? ` at script line ${line}` : ''}: your code did not finish${codeLine ? ` (stopped in the ${inLoop ? 'loop' : 'function'} on your line ${codeLine}: an endless loop?)` : ' (an endless loop?)'}`,
      },
    ],
    mistakes: [],
  };
}
