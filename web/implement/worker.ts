/**
 * The implement-mode worker: compiles the learner's code and grades it test
 * by test. It runs off the page's thread so that an endless loop cannot
 * freeze the page: the page terminates this worker when a test runs past
 * its time limit. Evaluating the learner's code needs eval in this worker
 * (see docs/IMPLEMENT.md for the Content-Security-Policy).
 */
import { Lab } from '../api/lab.js';
import createLab from '../wasm/lab.mjs';
import { gradeTest } from './grade.js';
import { compileLearnerCode, EvalBlockedError, learnerLine, type LearnerRules } from './learner-rules.js';
import type { RunRequest, WorkerMessage } from './protocol.js';

const post = (m: WorkerMessage) => (self as unknown as Worker).postMessage(m);
// Only the lab module: the worker never needs the page's engine.
const labReady = createLab().then((m) => new Lab(m));

self.addEventListener('message', async (event: MessageEvent<RunRequest>) => {
  if (event.data?.type !== 'run') return;
  let lab: Lab;
  try {
    lab = await labReady;
  } catch (e) {
    post({ type: 'compile-error', kind: 'worker', message: `the engine did not load in the worker: ${String(e)}` });
    return;
  }
  post({ type: 'loaded' });
  let rules: LearnerRules;
  try {
    rules = compileLearnerCode(event.data.code);
  } catch (e) {
    const err = e as Error;
    if (e instanceof EvalBlockedError) post({ type: 'compile-error', kind: 'eval-blocked', message: err.message });
    else post({ type: 'compile-error', kind: 'code', message: `${err.name}: ${err.message}`, codeLine: learnerLine(e) });
    return;
  }
  post({ type: 'ready' });
  event.data.tests.forEach((test, index) => {
    post({ type: 'start', index });
    const result = gradeTest(lab, rules, test, (line) => post({ type: 'line', index, line }));
    post({ type: 'result', index, result });
  });
  post({ type: 'done' });
});
