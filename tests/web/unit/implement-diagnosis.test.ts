// Naming the learner's mistake from a whole run (web/implement/diagnosis.ts,
// the engine's cpp/grading/diagnosis.cpp underneath): each known-wrong
// solution is named alone, code that is wrong in some other way is not
// blamed on a mistake it does not make, and problems in the code come first.
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { diagnoseRun } from '../../../web/implement/diagnosis.js';
import type { TestResult } from '../../../web/implement/grade.js';
import { builtInTests } from '../../../web/implement/suite.js';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { CORRECT, THROWS, WRONG } from '../fixtures/learner-solutions.js';
import { gradeAll } from '../support/sandbox.js';

const TESTS = builtInTests(lab);

/** What the worker sends for each test (the learner's code in the sandbox). */
function gradeRun(source: string): TestResult[] {
  return gradeAll(source);
}

const runIds = (results: TestResult[]) => diagnoseRun(lab, results).run.map((e) => e.mistake.id);

describe('run diagnosis', () => {
  for (const id of Object.keys(WRONG)) {
    it(`names "${id}" alone for the solution that makes it`, () => {
      const results = gradeRun(WRONG[id]);
      expect(runIds(results)).toEqual([id]);
      const { perTest } = diagnoseRun(lab, results);
      results.forEach((r, i) => {
        if (r.pass) expect(perTest[i]).toEqual([]);
        else if (perTest[i].length) expect(perTest[i].map((m) => m.id)).toEqual([id]);
      });
    });
  }

  it('names the missing clamp from the negative weight it prints, beside the problem it reports', () => {
    const results = gradeRun(WRONG['no-clamp']);
    // The only problems are the negative weights, each marked as a mistake's own output.
    expect(results.flatMap((r) => r.problems).every((p) => p.symptom && /returned -\d+: a weight cannot be negative/.test(p.message))).toBe(true);
    expect(results.flatMap((r) => r.problems).length).toBeGreaterThan(0);
    expect(runIds(results)).toEqual(['no-clamp']);
    // Only the test whose clock goes back before a join shows it.
    expect(results.filter((r) => !r.pass).map((r) => r.id)).toEqual(['clock-before-join']);
  });

  it('names nothing for a correct solution', () => {
    expect(diagnoseRun(lab, gradeRun(CORRECT))).toEqual({ perTest: TESTS.map(() => []), run: [] });
  });

  it('does not blame a pick that answers NONE on a ramp of 0', () => {
    // The template prints NONE for every PICK, as "pool-ramped" does on
    // POOL-only scripts; but its WEIGHTS of POOL members are right, which
    // rules that mistake out.
    expect(runIds(gradeRun(LEARNER_TEMPLATE))).not.toContain('pool-ramped');
  });

  it('puts problems in the code first: a pick that throws is named no classic mistake', () => {
    const results = gradeRun(THROWS);
    // Every test with a PICK threw; none of them names a mistake, and the
    // run names none (the tests without a PICK pass).
    expect(results.filter((r) => r.problems.length).length).toBeGreaterThan(10);
    expect(runIds(results)).toEqual([]);
  });

  it('names the mistake of the tests without problems, beside the problems of the others', () => {
    // Ties to the last, and a pick that throws on a pool of three.
    const code = WRONG['ties-to-last'].replace('  let total = 0;', '  let total = 0;\n  if (backends.length === 3) null.x;');
    const results = gradeRun(code);
    expect(results.some((r) => r.problems.length && !r.pass)).toBe(true);
    expect(runIds(results)).toEqual(['ties-to-last']);
    const { perTest } = diagnoseRun(lab, results);
    results.forEach((r, i) => {
      if (r.problems.length) expect(perTest[i]).toEqual([]);
    });
  });
});
