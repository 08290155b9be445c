// Grading learner code in the QuickJS sandbox from Node, the way the
// implement mode's worker does: one fresh session per test.
import { gradeTest, type TestResult } from '../../../web/implement/grade.js';
import { LearnerSandbox, type OpenError, type SandboxSession } from '../../../web/implement/sandbox/sandbox.js';
import { builtInTests, type ImplementTest } from '../../../web/implement/suite.js';
import { lab } from './lab.js';

export const sandbox = await LearnerSandbox.load();

/** Opens a session or fails the test with the compile error. */
export function open(source: string, timeMs = 1000): SandboxSession {
  const opened = sandbox.open(source, { timeMs });
  if ('error' in opened) throw new Error(`did not open: ${opened.error.message}`);
  return opened.session;
}

/** The compile error `source` gives (fails the test if it opens). */
export function openError(source: string, timeMs = 1000): OpenError {
  const opened = sandbox.open(source, { timeMs });
  if ('session' in opened) {
    opened.session.dispose();
    throw new Error('opened, but an error was expected');
  }
  return opened.error;
}

/** One test graded in a fresh session; `stopped` says how the session ended early, if it did. */
export function grade(source: string, test: ImplementTest, timeMs = 1000): TestResult & { stopped?: string } {
  const session = open(source, timeMs);
  try {
    return { ...gradeTest(lab, session, test), stopped: session.stopped };
  } finally {
    session.dispose();
  }
}

/** Every built-in test, each in its own session. */
export function gradeAll(source: string, tests: readonly ImplementTest[] = builtInTests(lab)) {
  return tests.map((t) => grade(source, t));
}
