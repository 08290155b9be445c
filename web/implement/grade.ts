/**
 * Grading one test: the learner's output against the engine's, the first
 * line that differs, and which classic mistake (if any) produces exactly the
 * learner's output.
 */
import type { Lab as LabClass } from '../api/lab.js';
import type { OutputLine, RunResult } from '../api/types.js';
import { toScriptRules, type CodeProblem, type LearnerRules } from './learner-rules.js';
import { MISTAKES, type Mistake } from './mistakes.js';
import type { ImplementTest } from './suite.js';

/** What grading needs of the lab (structural, so any build of it will do). */
type Lab = Pick<LabClass, 'run' | 'runWithRules'>;

export interface FirstDifference {
  /** 0-based index in the output. */
  index: number;
  /** Script line that printed the expected (or, past its end, the actual) line. */
  line: number;
  /** null when the output ended early / late. */
  expected: string | null;
  actual: string | null;
}

export interface TestResult {
  id: string;
  title: string;
  script: string;
  pass: boolean;
  expected: OutputLine[];
  actual: OutputLine[];
  difference?: FirstDifference;
  /** Exceptions and bad return values in the learner's code. */
  problems: CodeProblem[];
  /** Mistakes whose output equals the learner's (only for a failing test). */
  mistakes: Pick<Mistake, 'id' | 'title' | 'why'>[];
  /** Effective weights per timeline step, for the chart overlay. */
  timeline?: RunResult['timeline'];
}

export function firstDifference(expected: OutputLine[], actual: OutputLine[]): FirstDifference | undefined {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e?.text !== a?.text || e?.line !== a?.line) {
      return { index: i, line: (e ?? a)!.line, expected: e?.text ?? null, actual: a?.text ?? null };
    }
  }
  return undefined;
}

function sameOutput(a: OutputLine[], b: OutputLine[]): boolean {
  return a.length === b.length && a.every((x, i) => x.text === b[i].text && x.line === b[i].line);
}

/** Runs a script with learner-shaped rules. */
export function runLearner(lab: Lab, rules: LearnerRules, script: string, onLine?: (line: number) => void) {
  const adapted = toScriptRules(rules, onLine);
  const result = lab.runWithRules(script, adapted.rules);
  return { result, problems: adapted.problems };
}

/** The mistakes that print exactly `actual` for this script. */
export function diagnose(lab: Lab, script: string, actual: OutputLine[]): Mistake[] {
  return MISTAKES.filter((m) => sameOutput(runLearner(lab, m.rules, script).result.output, actual));
}

export function gradeTest(
  lab: Lab,
  rules: LearnerRules,
  test: ImplementTest,
  onLine?: (line: number) => void,
): TestResult {
  const expected = lab.run(test.script, {}, { timeline: false }).output;
  const { result, problems } = runLearner(lab, rules, test.script, onLine);
  const difference = firstDifference(expected, result.output);
  const pass = !difference && problems.length === 0;
  return {
    id: test.id,
    title: test.title,
    script: test.script,
    pass,
    expected,
    actual: result.output,
    difference,
    problems,
    mistakes: pass ? [] : diagnose(lab, test.script, result.output).map(({ id, title, why }) => ({ id, title, why })),
    timeline: result.timeline,
  };
}
