/** Messages between the implement-mode page and its worker. */
import type { ImplementTest } from './suite.js';
import type { TestResult } from './grade.js';

export interface RunRequest {
  type: 'run';
  code: string;
  tests: ImplementTest[];
}

/**
 * Why the learner's code could not be run at all:
 * - `code`: it does not compile, throws at the top level, or lacks a function;
 * - `eval-blocked`: the Content-Security-Policy forbids eval in the worker;
 * - `worker`: the worker or its engine failed to load (not the learner's fault).
 */
export type CompileErrorKind = 'code' | 'eval-blocked' | 'worker';

export type WorkerMessage =
  /** The engine is loaded: from here on, the time limit applies. */
  | { type: 'loaded' }
  /** The learner's code compiled; the tests follow. */
  | { type: 'ready' }
  | { type: 'compile-error'; kind: CompileErrorKind; message: string; codeLine?: number }
  | { type: 'start'; index: number }
  /** Sent before the learner's code runs for a new script line, so a hang can be placed. */
  | { type: 'line'; index: number; line: number }
  /** A test's result, with its evidence about the learner's mistake (diagnosis.ts). */
  | { type: 'result'; index: number; result: TestResult }
  | { type: 'done' };
