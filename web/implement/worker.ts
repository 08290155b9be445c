/**
 * The implement-mode worker: compiles the learner's code and grades it test
 * by test. It runs off the page's thread so that an endless loop cannot
 * freeze the page: the page terminates this worker when a test runs past
 * its time limit. Evaluating the learner's code needs eval in this worker
 * (see docs/EMBEDDING.md for the CSP).
 */
import { loadLab } from '../api/index.js';
import { gradeTest } from './grade.js';
import { compileLearnerCode, learnerLine } from './learner-rules.js';
import type { RunRequest, WorkerMessage } from './protocol.js';

const post = (m: WorkerMessage) => (self as unknown as Worker).postMessage(m);
const labReady = loadLab();

self.addEventListener('message', async (event: MessageEvent<RunRequest>) => {
  if (event.data?.type !== 'run') return;
  const lab = await labReady;
  let rules;
  try {
    rules = compileLearnerCode(event.data.code);
  } catch (e) {
    const err = e as Error;
    post({ type: 'compile-error', message: `${err.name}: ${err.message}`, codeLine: learnerLine(e) });
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
