/**
 * The tests of the implement-it-yourself mode: the engine's built-in suite
 * (cpp/grading/suite.cpp), the tests that check what the learner writes
 * (scope "rules": the weight, the pick, the score on joining), then the
 * course author's. Expected output is the engine's, computed when a test runs.
 */
import type { Lab } from '../api/lab.js';

export interface ImplementTest {
  id: string;
  title: string;
  script: string;
}

export function builtInTests(lab: Pick<Lab, 'builtInTests'>): ImplementTest[] {
  return lab.builtInTests('rules').map(({ id, title, script }) => ({ id, title, script }));
}
