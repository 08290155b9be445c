/**
 * Runs a learner's code against tests in a worker, with a time limit per
 * test. A test that runs past the limit is reported as stopped (with the
 * script line it was on), the worker is replaced, and the remaining tests go
 * on. The page never blocks.
 */
import type { RawTimeline } from '../wasm/engine.mjs';
import { Timeline } from '../api/timeline.js';
import type { TestResult } from './grade.js';
import type { WorkerMessage } from './protocol.js';
import type { ImplementTest } from './suite.js';

export interface ImplementRunOptions {
  /** Per test, ms (default 2000). */
  timeLimitMs?: number;
  /** Called as each test finishes. */
  onResult?: (index: number, result: TestResult) => void;
  /** Makes the worker; the default is the bundled worker module. */
  createWorker?: () => Worker;
}

export interface ImplementRun {
  compileError?: { message: string; codeLine?: number };
  results: TestResult[];
}

const defaultWorker = () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

function stopped(test: ImplementTest, line: number | undefined, ms: number): TestResult {
  return {
    id: test.id,
    title: test.title,
    script: test.script,
    pass: false,
    expected: [],
    actual: [],
    problems: [
      {
        line: line ?? 0,
        message: `stopped after ${ms / 1000} s${line ? ` at script line ${line}` : ''}: your code did not finish (an endless loop?)`,
      },
    ],
    mistakes: [],
  };
}

/** Grades `code` on `tests`. Resolves when every test has a result. */
export function runImplementTests(code: string, tests: ImplementTest[], options: ImplementRunOptions = {}): Promise<ImplementRun> {
  const limit = options.timeLimitMs ?? 2000;
  const make = options.createWorker ?? defaultWorker;
  const results: TestResult[] = new Array(tests.length);

  return new Promise((resolve) => {
    const startFrom = (first: number) => {
      if (first >= tests.length) {
        resolve({ results });
        return;
      }
      const worker = make();
      let current = -1;
      let line: number | undefined;
      let timer: ReturnType<typeof setTimeout> | undefined;
      // Compiling (top-level code) is limited too.
      const arm = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          worker.terminate();
          const index = current < 0 ? first : current;
          results[index] = stopped(tests[index], line, limit);
          options.onResult?.(index, results[index]);
          startFrom(index + 1);
        }, limit);
      };
      arm();
      worker.onmessage = (event: MessageEvent<WorkerMessage>) => {
        const m = event.data;
        switch (m.type) {
          case 'compile-error':
            clearTimeout(timer);
            worker.terminate();
            resolve({ compileError: { message: m.message, codeLine: m.codeLine }, results: [] });
            return;
          case 'start':
            current = first + m.index;
            line = undefined;
            arm();
            return;
          case 'line':
            line = m.line;
            return;
          case 'result': {
            const r = m.result;
            // Structured cloning drops the class: rebuild it from its arrays.
            if (r.timeline) r.timeline = new Timeline(r.timeline as unknown as RawTimeline);
            results[first + m.index] = r;
            options.onResult?.(first + m.index, r);
            return;
          }
          case 'done':
            clearTimeout(timer);
            worker.terminate();
            resolve({ results });
            return;
          case 'ready':
            return;
        }
      };
      worker.onerror = (e) => {
        clearTimeout(timer);
        worker.terminate();
        resolve({ compileError: { message: e.message || 'the worker failed to start' }, results: [] });
      };
      // This worker gets tests[first...]: its indices are relative to `first`.
      worker.postMessage({ type: 'run', code, tests: tests.slice(first) });
    };
    startFrom(0);
  });
}
