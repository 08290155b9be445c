// Naming the learner's mistake from a whole run (web/implement/diagnosis.ts):
// each known-wrong solution is named alone, and code that is wrong in some
// other way is not blamed on a mistake it does not make.
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { diagnoseRun, mistakeLines, type Graded } from '../../../web/implement/diagnosis.js';
import { MISTAKES } from '../../../web/implement/mistakes.js';
import { BUILT_IN_TESTS } from '../../../web/implement/suite.js';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { CORRECT, THROWS, WRONG } from '../fixtures/learner-solutions.js';
import { gradeAll } from '../support/sandbox.js';

/** What the worker sends for each test (each graded in a fresh sandbox session). */
function gradeRun(source: string): Graded[] {
  return gradeAll(source).map((result, i) => ({ result, mistakeLines: mistakeLines(lab, BUILT_IN_TESTS[i].script, result.expected) }));
}

const runIds = (graded: Graded[]) => diagnoseRun(graded).run.map((e) => e.mistake.id);

describe('run diagnosis', () => {
  for (const mistake of MISTAKES) {
    it(`names "${mistake.id}" alone for the solution that makes it`, () => {
      const graded = gradeRun(WRONG[mistake.id]);
      expect(runIds(graded)).toEqual([mistake.id]);
      const { perTest } = diagnoseRun(graded);
      graded.forEach((g, i) => {
        if (g.result.pass) expect(perTest[i]).toEqual([]);
        else if (perTest[i].length) expect(perTest[i].map((m) => m.id)).toEqual([mistake.id]);
      });
    });
  }

  it('names nothing for a correct solution', () => {
    expect(diagnoseRun(gradeRun(CORRECT))).toEqual({ perTest: BUILT_IN_TESTS.map(() => []), run: [] });
  });

  it('does not blame a pick that answers NONE (or throws) on a ramp of 0', () => {
    // Both print NONE for every PICK, as "pool-ramped" does on POOL-only
    // scripts; but their WEIGHTS of POOL members are right, which rules it out.
    expect(runIds(gradeRun(LEARNER_TEMPLATE))).not.toContain('pool-ramped');
    expect(runIds(gradeRun(THROWS))).not.toContain('pool-ramped');
  });

  it('records where each mistake departs from the reference', () => {
    const t = BUILT_IN_TESTS.find((x) => x.id === 'ties-first')!;
    const lines = mistakeLines(lab, t.script, lab.run(t.script, {}, { timeline: false }).output);
    // POOL z=1 y=1 x=1, then three picks. Reference: z (1,1,1: first of
    // the tie), y (-1,2,2), x (0,0,3). Ties to the last: x (1,1,1), y
    // (2,2,-1: the later of z and y), z (3,0,0). Line 3 agrees.
    expect(lines['ties-to-last']).toEqual([2, 4]);
    expect(lines['round-up']).toEqual([]);
  });
});
