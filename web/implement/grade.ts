/**
 * Grading one test: the learner's output against the engine's, the first
 * line that differs, and which classic mistakes (the engine's catalogue,
 * cpp/grading/mistakes.cpp) print exactly the learner's output.
 */
import type { Lab as LabClass } from '../api/lab.js';
import { stdoutText, type TestEvidence } from '../api/grading.js';
import type { OutputLine, RunResult } from '../api/types.js';
import { firstDifference } from '../shared/first-difference.js';
import { toScriptRules, type CodeProblem, type LearnerRules } from './learner-rules.js';
import type { ImplementTest } from './suite.js';

/** What grading needs of the lab (structural, so any build of it will do). */
type Lab = Pick<LabClass, 'run' | 'runWithRules' | 'testEvidence' | 'mistakes'>;

export interface FirstDifference {
  /** 0-based index in the output. */
  index: number;
  /** Script line that printed the expected (or, past its end, the actual) line. */
  line: number;
  /** null when the output ended early / late. */
  expected: string | null;
  actual: string | null;
}

/** A mistake as a test names it. */
export interface NamedMistake {
  id: string;
  title: string;
  why: string;
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
  /** Mistakes whose output equals the learner's (only for a failing test with no problem). */
  mistakes: NamedMistake[];
  /** What this test says about the learner's mistake, for the run's diagnosis (diagnosis.ts). */
  evidence?: TestEvidence;
  /** Set when the learner's code ran out of time on this test. */
  timedOut?: boolean;
  /** Set when the test was not run (an earlier test ran out of time). */
  skipped?: boolean;
  /** Effective weights per timeline step, for the chart overlay. */
  timeline?: RunResult['timeline'];
}

/** The first output line that differs in text or in the script line that printed it. */
export function outputDifference(expected: readonly OutputLine[], actual: readonly OutputLine[]): FirstDifference | undefined {
  const d = firstDifference(expected, actual, (e, a) => e.text === a.text && e.line === a.line);
  if (!d) return undefined;
  const { index, expected: e, actual: a } = d;
  return { index, line: (e ?? a)!.line, expected: e?.text ?? null, actual: a?.text ?? null };
}

/** Runs a script with learner-shaped rules. */
export function runLearner(lab: Pick<LabClass, 'runWithRules'>, rules: LearnerRules, script: string, onLine?: (line: number) => void) {
  const adapted = toScriptRules(rules, onLine);
  const result = lab.runWithRules(script, adapted.rules);
  return { result, problems: adapted.problems };
}

export function gradeTest(
  lab: Lab,
  rules: LearnerRules,
  test: ImplementTest,
  onLine?: (line: number) => void,
): TestResult {
  const expected = lab.run(test.script, {}, { timeline: false }).output;
  const { result, problems } = runLearner(lab, rules, test.script, onLine);
  // The chart overlay has no room below its axis: a negative weight (the
  // no-clamp mistake) is drawn at 0 there; the output lines show its value.
  const weights = result.timeline?.cellWeight;
  if (weights) for (let c = 0; c < weights.length; c++) if (weights[c] < 0) weights[c] = 0;
  const difference = outputDifference(expected, result.output);
  const pass = !difference && problems.length === 0;
  // Only the mistakes the implement mode's learner can make (scope "rules").
  // A problem that is a mistake's own output (a negative weight) does not
  // stop the diagnosis from naming it.
  const evidence = lab.testEvidence(test.script, stdoutText(expected), stdoutText(result.output), {
    scope: 'rules',
    problem: problems.some((p) => !p.symptom),
  });
  const catalogue = lab.mistakes();
  return {
    id: test.id,
    title: test.title,
    script: test.script,
    pass,
    expected,
    actual: result.output,
    difference,
    problems,
    mistakes: evidence.named.map((id) => {
      const { title, why } = catalogue.find((m) => m.id === id)!;
      return { id, title, why };
    }),
    evidence,
    timeline: result.timeline,
  };
}
