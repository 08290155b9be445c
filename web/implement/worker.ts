/**
 * The implement-mode worker: runs the learner's code in the sandbox
 * (sandbox/sandbox.ts: QuickJS compiled to WebAssembly, with its memory,
 * time and stack limited and no reach outside) and grades it test by test.
 * The code is loaded once, like one program, and each test gets its own
 * time limit; a test that stops it (out of time or memory) leaves the next
 * test a freshly loaded copy. Results are made here, from
 * numbers and short texts the sandbox hands out, by code the learner's
 * code cannot touch. Nothing is evaluated by the browser's own JavaScript
 * engine, so the worker needs no 'unsafe-eval'.
 *
 * The worker also keeps all of this off the page's thread: the page never
 * waits on the learner's code, and it still terminates the worker if a
 * test overruns its limit by far (client.ts).
 */
import type { Lab } from '../api/lab.js';
import { loadLabAt } from '../api/lab-loader.js';
import { wasmUrl } from '../api/worker-wasm.js';
import { gradeTest, outputDifference, type TestResult } from './grade.js';
import { seconds, skippedResult, stoppedResult, type RunRequest, type WorkerMessage } from './protocol.js';
import { LearnerSandbox, type OpenError, type SandboxSession } from './sandbox/sandbox.js';
import type { ImplementTest } from './suite.js';
import { LEARNER_TEMPLATE } from './template.js';

const post = (m: WorkerMessage) => (self as unknown as Worker).postMessage(m);
// Only the lab module (never the page's engine), and QuickJS, from the
// URLs the page sends (web/api/start-worker.ts). Loading starts at once; a
// load that failed is tried again at the next run.
const retried = <T>(load: () => Promise<T>) => {
  let loading: Promise<T> | null = null;
  return () => (loading ??= load().catch((error: unknown) => {
    loading = null;
    throw error;
  }));
};
const labReady = retried(async () => loadLabAt(await wasmUrl('lab')));
const sandboxReady = retried(async () => warmedUp(await LearnerSandbox.load({ wasmUrl: await wasmUrl('quickjs') })));

/**
 * QuickJS's first use is slow: the browser compiles each of its WebAssembly
 * functions when it is first called, and the harness, the parser and the
 * calls into the learner's functions are all first calls. That is paid
 * here, while loading (which has its own, generous limit), by the template,
 * not inside the learner's calls (where the clock backstop counts it,
 * sandbox/time-budget.ts) nor by the learner's wait for the first result:
 * measured on the shared 2-core machine, the first test took 0.26 s and
 * loading the code (harness and compile) 0.09 s before, 0.10 s and 0.01 s
 * after (under heavy load, before: 0.9 s and 1.4 s).
 */
function warmedUp(sandbox: LearnerSandbox): LearnerSandbox {
  const opened = sandbox.open(LEARNER_TEMPLATE, { timeMs: WARM_UP_LIMIT_MS });
  if ('session' in opened) {
    const session = opened.session;
    const backends = [{ name: 'a', up: true, weight: 1, score: 0 }];
    session.effectiveWeight(1, 10, 0, 5);
    session.pick(backends);
    session.onJoin?.(backends[0]);
    session.dispose();
  }
  return sandbox;
}
const WARM_UP_LIMIT_MS = 30_000;
labReady().catch(() => {});
sandboxReady().catch(() => {});

/** A test that could not be graded, with why (one problem). */
function failed(test: ImplementTest, message: string, codeLine?: number): TestResult {
  return { ...stoppedResult(test, undefined, 0), problems: [{ line: 0, codeLine, message }] };
}

/** The learner's code, loaded in the sandbox, across the tests of one run. */
class Program {
  #session: SandboxSession | undefined;

  constructor(
    readonly sandbox: LearnerSandbox,
    readonly code: string,
    readonly limit: number,
  ) {}

  /** Loads the code (the compile check); the error, if it does not load. */
  load(): OpenError | undefined {
    const opened = this.sandbox.open(this.code, { timeMs: this.limit });
    if ('error' in opened) return opened.error;
    this.#session = opened.session;
    return undefined;
  }

  /** The session for the next test: the same one with a new budget (sandbox/time-budget.ts), or a fresh one if it stopped. */
  async next(): Promise<{ session: SandboxSession } | { error: OpenError }> {
    if (this.#session?.renew(this.limit)) return { session: this.#session };
    this.#session?.dispose();
    this.#session = undefined;
    await this.sandbox.ready(); // a fresh QuickJS if the last test spoiled this one
    const opened = this.sandbox.open(this.code, { timeMs: this.limit });
    if ('session' in opened) this.#session = opened.session;
    return opened;
  }

  dispose(): void {
    this.#session?.dispose();
  }
}

/** One test of a run. */
async function gradeOne(
  lab: Lab,
  program: Program,
  test: ImplementTest,
  onLine: (line: number) => void,
): Promise<TestResult> {
  let opened;
  try {
    opened = await program.next();
  } catch (e) {
    return failed(test, `the sandbox could not be reloaded: ${String(e)}`);
  }
  if ('error' in opened) {
    const e = opened.error;
    return e.timedOut ? stoppedResult(test, undefined, program.limit) : failed(test, `your code failed to load: ${e.message}`, e.codeLine);
  }
  const session = opened.session;
  let line: number | undefined;
  try {
    // The line being run when the session stopped is where the code hung:
    // the engine runs the rest of the script without the learner's code.
    const result = gradeTest(lab, session, test, (l) => {
      if (session.stopped) return;
      line = l;
      onLine(l);
    });
    if (session.stopped === 'time') return stoppedResult(test, line, program.limit, session.stoppedLine, session.stoppedInLoop);
    if (session.stopped) {
      // Out of memory, or the sandbox failed: the rest of the script ran
      // without the learner's code, so its output would only mislead.
      result.actual = result.actual.filter((o) => o.line <= (line ?? 0));
      result.difference = outputDifference(result.expected, result.actual);
    }
    return result;
  } catch (e) {
    // Not the learner's doing (their exceptions are problems): say so, and go on.
    return failed(test, `the tests' worker failed on this test: ${String(e)}`);
  }
}

self.addEventListener('message', async (event: MessageEvent<RunRequest>) => {
  if (event.data?.type !== 'run') return;
  const { code, tests, timeLimitMs: limit } = event.data;
  let lab: Lab;
  let sandbox: LearnerSandbox;
  try {
    [lab, sandbox] = await Promise.all([labReady(), sandboxReady()]);
  } catch (e) {
    post({ type: 'compile-error', kind: 'worker', message: `the engine did not load in the worker: ${String(e)}` });
    return;
  }
  try {
    await sandbox.ready(); // a fresh QuickJS if the last run spoiled this one
  } catch (e) {
    post({ type: 'compile-error', kind: 'worker', message: `the sandbox could not be reloaded: ${String(e)}` });
    return;
  }
  post({ type: 'loaded' });
  // Loaded once up front, so a broken program is one error, not one per test.
  const program = new Program(sandbox, code, limit);
  const error = program.load();
  if (error) {
    const message = error.timedOut
      ? `your code did not finish loading within ${seconds(limit)}: is there an endless loop outside the functions${error.codeLine ? ` (the loop on your line ${error.codeLine})` : ''}?`
      : error.message;
    post({ type: 'compile-error', kind: 'code', message, codeLine: error.codeLine, reason: error.reason });
    return;
  }
  post({ type: 'ready' });
  try {
    let timedOut: ImplementTest | undefined; // the first test that ran out of time: the rest are not run
    for (const [index, test] of tests.entries()) {
      post({ type: 'start', index });
      if (timedOut) {
        post({ type: 'result', index, result: skippedResult(test, timedOut) });
        continue;
      }
      const result = await gradeOne(lab, program, test, (line) => post({ type: 'line', index, line }));
      if (result.timedOut) timedOut = test;
      post({ type: 'result', index, result });
    }
  } finally {
    program.dispose();
  }
  post({ type: 'done' });
});
