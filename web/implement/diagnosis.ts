// Naming the learner's mistake from a whole run, not one test at a time:
// the engine's diagnosis (cpp/grading/diagnosis.cpp, through the lab module)
// narrows each test's evidence (grade.ts) with that of every test graded so
// far, exactly as `slowstart grade` does. Tests with problems in the code
// (an exception, a weight that is not a whole number) name no mistake: the
// problems come first (run-summary.ts).
import type { Lab } from '../api/lab.js';
import type { NamedMistake, TestResult } from './grade.js';

export type { NamedMistake } from './grade.js';

export interface RunDiagnosis {
  /** Per test (same order): the mistakes to show for it. */
  perTest: NamedMistake[][];
  /** The mistakes for the whole run, most tests first, with the titles of those tests. */
  run: { mistake: NamedMistake; tests: string[] }[];
}

/** Narrows the per-test mistakes with the evidence of every test graded so far. */
export function diagnoseRun(lab: Pick<Lab, 'diagnoseRun' | 'mistakes'>, results: readonly (TestResult | undefined)[]): RunDiagnosis {
  const d = lab.diagnoseRun(results.map((r) => r?.evidence));
  const catalogue = lab.mistakes();
  const named = (id: string): NamedMistake => {
    const { title, why } = catalogue.find((m) => m.id === id)!;
    return { id, title, why };
  };
  return {
    perTest: d.perTest.map((ids) => ids.map(named)),
    run: d.run.map((e) => ({ mistake: named(e.mistake), tests: e.tests.map((i) => results[i]!.title) })),
  };
}
