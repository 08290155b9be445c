// Naming the learner's mistake from a whole run, not one test at a time.
//
// Grading names, per failing test, every classic mistake whose output equals
// the learner's (grade.ts). One test alone is often ambiguous: a pick that
// always answers NONE prints what "a ramp of 0 is treated as a ramp" prints
// on a script of POOL and PICK lines. The other tests settle it:
//  1. Ruled out: a mistake is not the learner's if, on some line of some
//     test, the mistake prints something other than the reference while the
//     learner prints what the reference prints.
//  2. Outranked: a mistake named in fewer tests than another that is named in
//     all of the same tests (and more) is dropped in favour of that one.
// The worker records, per test, the lines where each mistake departs from
// the reference (`mistakeLines`); the page narrows as results arrive.
import type { Lab as LabClass } from '../api/lab.js';
import type { OutputLine } from '../api/types.js';
import { runLearner, type TestResult } from './grade.js';
import { MISTAKES } from './mistakes.js';

type Lab = Pick<LabClass, 'run' | 'runWithRules'>;

/** Per mistake id: the script lines where its output differs from the reference's. */
export type MistakeLines = Record<string, number[]>;

export type NamedMistake = TestResult['mistakes'][number];

/** A graded test with what the run-level diagnosis needs. */
export interface Graded {
  result: TestResult;
  mistakeLines?: MistakeLines;
}

export interface RunDiagnosis {
  /** Per test (same order): the mistakes to show for it. */
  perTest: NamedMistake[][];
  /** The mistakes for the whole run, most tests first, with the titles of those tests. */
  run: { mistake: NamedMistake; tests: string[] }[];
}

function outputByLine(output: readonly OutputLine[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const o of output) map.set(o.line, o.text);
  return map;
}

/** Where each mistake departs from the reference on this script (run in the worker). */
export function mistakeLines(lab: Lab, script: string, expected: readonly OutputLine[]): MistakeLines {
  const reference = outputByLine(expected);
  const out: MistakeLines = {};
  for (const m of MISTAKES) {
    const mine = outputByLine(runLearner(lab, m.rules, script).result.output);
    const lines = new Set<number>();
    for (const [line, text] of reference) if (mine.get(line) !== text) lines.add(line);
    for (const line of mine.keys()) if (!reference.has(line)) lines.add(line);
    out[m.id] = [...lines].sort((a, b) => a - b);
  }
  return out;
}

/** Narrows the per-test mistakes with the evidence of every test graded so far. */
export function diagnoseRun(graded: readonly (Graded | undefined)[]): RunDiagnosis {
  const ruledOut = new Set<string>();
  for (const g of graded) {
    if (!g?.mistakeLines || (g.result.expected.length === 0 && g.result.actual.length === 0)) continue;
    const reference = outputByLine(g.result.expected);
    const learner = outputByLine(g.result.actual);
    for (const [id, lines] of Object.entries(g.mistakeLines)) {
      if (lines.some((line) => learner.get(line) === reference.get(line))) ruledOut.add(id);
    }
  }

  const candidates = graded.map((g) => (g && !g.result.pass ? g.result.mistakes.filter((m) => !ruledOut.has(m.id)) : []));
  const testsOf = new Map<string, Set<number>>();
  candidates.forEach((list, i) => {
    for (const m of list) {
      const set = testsOf.get(m.id) ?? new Set<number>();
      set.add(i);
      testsOf.set(m.id, set);
    }
  });
  const outranked = new Set<string>();
  for (const [id, tests] of testsOf) {
    for (const [other, more] of testsOf) {
      if (other !== id && more.size > tests.size && [...tests].every((t) => more.has(t))) outranked.add(id);
    }
  }

  const perTest = candidates.map((list) => {
    const kept = list.filter((m) => !outranked.has(m.id));
    return kept.length ? kept : list;
  });
  const run = new Map<string, { mistake: NamedMistake; tests: string[] }>();
  perTest.forEach((list, i) => {
    for (const m of list) {
      const entry = run.get(m.id) ?? { mistake: m, tests: [] };
      entry.tests.push(graded[i]!.result.title);
      run.set(m.id, entry);
    }
  });
  return { perTest, run: [...run.values()].sort((a, b) => b.tests.length - a.tests.length) };
}
