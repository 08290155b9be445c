/**
 * The implement-mode worker: runs the learner's code in the sandbox
 * (sandbox/sandbox.ts: QuickJS compiled to WebAssembly, with its memory,
 * time and stack limited and no reach outside) and grades it test by test,
 * each test in a fresh sandbox session. Results are made here, from
 * numbers and short texts the sandbox hands out, by code the learner's
 * code cannot touch. Nothing is evaluated by the browser's own JavaScript
 * engine, so the worker needs no 'unsafe-eval'.
 *
 * The worker also keeps all of this off the page's thread: the page never
 * waits on the learner's code, and it still terminates the worker if a
 * test overruns its limit by far (client.ts).
 */
import { Lab } from '../api/lab.js';
import createLab from '../wasm/lab.mjs';
import { mistakeLines, type MistakeLines } from './diagnosis.js';
import { gradeTest, type TestResult } from './grade.js';
import { seconds, stoppedResult, type RunRequest, type WorkerMessage } from './protocol.js';
import { LearnerSandbox } from './sandbox/sandbox.js';
import type { ImplementTest } from './suite.js';

const post = (m: WorkerMessage) => (self as unknown as Worker).postMessage(m);
// Only the lab module (never the page's engine), and QuickJS.
const labReady = createLab().then((m) => new Lab(m));
const sandboxReady = LearnerSandbox.load();

/** A test that could not be graded, with why (one problem). */
function failed(test: ImplementTest, message: string, codeLine?: number): TestResult {
  return { ...stoppedResult(test, undefined, 0), problems: [{ line: 0, codeLine, message }] };
}

/** One test in a fresh session of the sandbox. */
async function gradeOne(
  lab: Lab,
  sandbox: LearnerSandbox,
  code: string,
  test: ImplementTest,
  limit: number,
  onLine: (line: number) => void,
): Promise<{ result: TestResult; mistakeLines?: MistakeLines }> {
  try {
    await sandbox.ready(); // a fresh QuickJS if the last test spoiled this one
  } catch (e) {
    return { result: failed(test, `the sandbox could not be reloaded: ${String(e)}`) };
  }
  const opened = sandbox.open(code, { timeMs: limit });
  if ('error' in opened) {
    const e = opened.error;
    return { result: e.timedOut ? stoppedResult(test, undefined, limit) : failed(test, `your code failed to load: ${e.message}`, e.codeLine) };
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
    if (session.stopped === 'time') return { result: stoppedResult(test, line, limit) };
    return { result, mistakeLines: mistakeLines(lab, test.script, result.expected) };
  } catch (e) {
    // Not the learner's doing (their exceptions are problems): say so, and go on.
    return { result: failed(test, `the tests' worker failed on this test: ${String(e)}`) };
  } finally {
    session.dispose();
  }
}

self.addEventListener('message', async (event: MessageEvent<RunRequest>) => {
  if (event.data?.type !== 'run') return;
  const { code, tests, timeLimitMs: limit } = event.data;
  let lab: Lab;
  let sandbox: LearnerSandbox;
  try {
    [lab, sandbox] = await Promise.all([labReady, sandboxReady]);
  } catch (e) {
    post({ type: 'compile-error', kind: 'worker', message: `the engine did not load in the worker: ${String(e)}` });
    return;
  }
  post({ type: 'loaded' });
  // Compile once up front, so a broken program is one error, not one per test.
  const check = sandbox.open(code, { timeMs: limit });
  if ('error' in check) {
    const e = check.error;
    const message = e.timedOut
      ? `your code did not finish loading within ${seconds(limit)}: is there an endless loop outside the functions?`
      : e.message;
    post({ type: 'compile-error', kind: 'code', message, codeLine: e.codeLine });
    return;
  }
  check.session.dispose();
  post({ type: 'ready' });
  for (const [index, test] of tests.entries()) {
    post({ type: 'start', index });
    const graded = await gradeOne(lab, sandbox, code, test, limit, (line) => post({ type: 'line', index, line }));
    post({ type: 'result', index, ...graded });
  }
  post({ type: 'done' });
});
