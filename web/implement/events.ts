// The implement mode's event for its host, in a module of its own so that a
// host can listen for it without loading the mode (the page loads the mode
// only when its tab is first shown).
import type { TestResult } from './grade.js';
import type { ImplementTest } from './suite.js';

/**
 * Dispatched on the implement view's root (bubbling, composed) after a
 * test's script was loaded into the runner: the host shows the runner.
 */
export const OPEN_IN_RUNNER_EVENT = 'slowstart-open-in-runner';

export interface OpenInRunnerDetail {
  test: ImplementTest;
  /** The learner's last result for it (null: not run yet). */
  result: TestResult | null;
}
