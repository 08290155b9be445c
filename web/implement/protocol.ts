/** Messages between the implement-mode page and its worker. */
import type { ImplementTest } from './suite.js';
import type { TestResult } from './grade.js';

export interface RunRequest {
  type: 'run';
  code: string;
  tests: ImplementTest[];
}

export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'compile-error'; message: string; codeLine?: number }
  | { type: 'start'; index: number }
  /** Sent before the learner's code runs for a new script line, so a hang can be placed. */
  | { type: 'line'; index: number; line: number }
  | { type: 'result'; index: number; result: TestResult }
  | { type: 'done' };
