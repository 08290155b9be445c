/**
 * Runs a learner's code against tests in a worker, with a time limit per
 * test. The sandbox in the worker stops code that spends the limit's work
 * (sandbox/time-budget.ts: counted, not timed, so a busy machine does not
 * change the verdict), and the test is reported as stopped with the script
 * line it was on. The page keeps its own, later limit as the outer guard:
 * if a test overruns that too (one native operation QuickJS cannot
 * interrupt), the worker is terminated and replaced, the test is reported
 * as stopped, and the remaining tests go on. The page never blocks.
 *
 * The limit starts once the worker has loaded the engine and the sandbox,
 * so a slow network never counts against the learner's code (loading has
 * its own, generous limit). Compiling the learner's code is limited too:
 * top-level code that never finishes is a compile error, not one timeout
 * per test.
 */
import type { RawTimeline } from '../wasm/engine.mjs';
import { Timeline } from '../api/timeline.js';
import { startWorker } from '../api/start-worker.js';
import { trustedTypesHint } from '../api/trusted-worker.js';
import { labWasmUrl } from '../api/wasm-urls.js';
import { quickjsWasmUrl } from './sandbox/quickjs-wasm-url.js';
import { outerLimitMs } from './sandbox/time-budget.js';
import type { TestResult } from './grade.js';
import { seconds, stoppedResult, type CompileErrorKind, type RunRequest, type WorkerMessage } from './protocol.js';
import type { LoadFailure } from './sandbox/sandbox.js';
import type { ImplementTest } from './suite.js';

export interface ImplementRunOptions {
  /** Per test, ms (default 2000). The worker is terminated only when one script line runs past `outerLimitMs(timeLimitMs)`. */
  timeLimitMs?: number;
  /** How long the worker may take to load the engine, ms (default 30000). */
  loadLimitMs?: number;
  /** Called as each test starts running (for progress). */
  onStart?: (index: number) => void;
  /** Called as each test finishes (a test that was stopped has no `evidence`). */
  onResult?: (index: number, result: TestResult) => void;
  /** Makes the worker; the default is the bundled worker module. */
  createWorker?: () => Worker;
  /** Aborting stops the run at once: the worker is terminated. */
  signal?: AbortSignal;
}

export interface CompileError {
  kind: CompileErrorKind;
  message: string;
  /** Line of the learner's code, when known. */
  codeLine?: number;
  /** For `code`: what went wrong (it does not compile, threw, ran out of memory or time, lacks a function). */
  reason?: LoadFailure;
}

export interface ImplementRun {
  compileError?: CompileError;
  /** One result per test. After an abort, the tests not run are missing (the array is sparse). */
  results: TestResult[];
  /** True when the run was stopped through `signal`. */
  aborted?: boolean;
}

// In the form bundlers rewrite; startWorker reads what it asks for (and passes it through the package's Trusted Types policy where there is one).
const defaultWorker = () => new Worker(new URL('./worker.ts', import.meta.url), { type: 'module' });

/** Starts the worker `make` describes, wherever the package is served from, with the .wasm URLs it needs (web/api/start-worker.ts). */
const start = (make: () => Worker): Worker =>
  startWorker(make, { file: 'element/implement-worker.js', name: 'implement mode', wasm: { lab: labWasmUrl(), quickjs: quickjsWasmUrl() } });

/**
 * A worker that finished its run is kept for the next one (of any view
 * with the same factory): the engine and QuickJS are loaded and warm, so a
 * learner's next click on Run tests costs only the tests. One per factory,
 * terminated after a minute unused. A worker that was stopped or failed is
 * never kept.
 */
const IDLE_MS = 60_000;
const idle = new Map<() => Worker, { worker: Worker; timer: ReturnType<typeof setTimeout> }>();

function takeIdle(make: () => Worker): Worker | undefined {
  const kept = idle.get(make);
  if (!kept) return undefined;
  idle.delete(make);
  clearTimeout(kept.timer);
  return kept.worker;
}

function keepIdle(make: () => Worker, worker: Worker): void {
  worker.onmessage = null;
  worker.onerror = null;
  const previous = idle.get(make);
  if (previous) {
    clearTimeout(previous.timer);
    previous.worker.terminate();
  }
  const timer = setTimeout(() => {
    if (idle.get(make)?.worker === worker) idle.delete(make);
    worker.terminate();
  }, IDLE_MS);
  idle.set(make, { worker, timer });
}

// When the page gives up on a test: after the sandbox's own clock backstop (time-budget.ts).
export { outerLimitMs };

/** Grades `code` on `tests`. Resolves when every test has a result (or on abort). */
export function runImplementTests(code: string, tests: ImplementTest[], options: ImplementRunOptions = {}): Promise<ImplementRun> {
  const limit = options.timeLimitMs ?? 2000;
  const outer = outerLimitMs(limit);
  const loadLimit = options.loadLimitMs ?? 30_000;
  const make = options.createWorker ?? defaultWorker;
  const signal = options.signal;
  const results: TestResult[] = new Array(tests.length);

  return new Promise((resolve) => {
    let worker: Worker | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    /** `reusable`: the worker finished cleanly and can serve the next run. */
    const finish = (run: ImplementRun, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (worker && reusable) keepIdle(make, worker);
      else worker?.terminate();
      signal?.removeEventListener('abort', onAbort);
      resolve(run);
    };
    const onAbort = () => finish({ results, aborted: true });
    if (signal?.aborted) return onAbort();
    signal?.addEventListener('abort', onAbort);

    const startFrom = (first: number) => {
      if (first >= tests.length) return finish({ results });
      let w: Worker;
      try {
        w = worker = takeIdle(make) ?? start(make);
      } catch (e) {
        // e.g. a Content-Security-Policy whose worker-src refuses the script
        const message = `the page does not allow the tests' worker: ${String(e)}${trustedTypesHint(e)}`;
        return finish({ compileError: { kind: 'worker', message }, results: [] });
      }
      let current = -1; // the test running, -1 while loading and compiling
      let line: number | undefined;
      const arm = (ms: number, onTimeout: () => void) => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          w.terminate();
          onTimeout();
        }, ms);
      };
      const testTimedOut = () => {
        results[current] = stoppedResult(tests[current], line, outer);
        options.onResult?.(current, results[current]);
        startFrom(current + 1);
      };
      arm(loadLimit, () =>
        finish({ compileError: { kind: 'worker', message: `the worker did not load the engine within ${seconds(loadLimit)}` }, results: [] }),
      );
      w.onmessage = (event: MessageEvent<WorkerMessage>) => {
        if (settled || w !== worker) return;
        const m = event.data;
        switch (m.type) {
          case 'loaded':
            arm(outer, () =>
              finish({
                compileError: {
                  kind: 'code',
                  message: `your code did not finish loading within ${seconds(outer)}: is there an endless loop outside the functions?`,
                },
                results: [],
              }),
            );
            return;
          case 'compile-error':
            finish({ compileError: { kind: m.kind, message: m.message, codeLine: m.codeLine, reason: m.reason }, results: [] }, m.kind === 'code');
            return;
          case 'start':
            current = first + m.index;
            line = undefined;
            options.onStart?.(current);
            arm(outer, testTimedOut);
            return;
          case 'line':
            // The worker is making progress: the guard waits on the learner's code of this
            // line (one native operation QuickJS cannot interrupt), not on the test so far.
            line = m.line;
            arm(outer, testTimedOut);
            return;
          case 'result': {
            const r = m.result;
            // Structured cloning drops the class: rebuild it from its arrays.
            if (r.timeline) r.timeline = Timeline.fromRaw(r.timeline as unknown as RawTimeline);
            results[first + m.index] = r;
            options.onResult?.(first + m.index, r);
            return;
          }
          case 'done':
            finish({ results }, true);
            return;
          case 'ready':
            return;
        }
      };
      w.onerror = (e) => {
        e.preventDefault();
        finish({ compileError: { kind: 'worker', message: e.message || 'the worker failed to start' }, results: [] });
      };
      // This worker gets tests[first...]: its indices are relative to `first`.
      w.postMessage({ type: 'run', code, tests: tests.slice(first), timeLimitMs: limit } satisfies RunRequest);
    };
    startFrom(0);
  });
}
