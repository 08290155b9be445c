// The implement-it-yourself grading in Node: learner code run in the
// sandbox (QuickJS) by the engine through JavaScript rules, graded against
// the engine's own output, and each classic mistake named.
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { gradeTest } from '../../../web/implement/grade.js';
import { BUILT_IN_TESTS } from '../../../web/implement/suite.js';
import { MISTAKES, REFERENCE } from '../../../web/implement/mistakes.js';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { CORRECT, THROWS, WRONG } from '../fixtures/learner-solutions.js';
import { gradeAll, openError } from '../support/sandbox.js';


describe('grading', () => {
  it('passes a correct solution on every built-in test', () => {
    for (const r of gradeAll(CORRECT)) {
      expect(r.problems, r.id).toEqual([]);
      expect(r.difference, r.id).toBeUndefined();
      expect(r.pass, r.id).toBe(true);
    }
  });

  it('has the reference rules pass too (the mistakes are edits of it)', () => {
    for (const t of BUILT_IN_TESTS) expect(gradeTest(lab, REFERENCE, t).pass, t.id).toBe(true);
  });

  it('fails the template, with the first difference', () => {
    const results = gradeAll(LEARNER_TEMPLATE);
    const spec = results.find((r) => r.id === 'spec-example')!;
    expect(spec.pass).toBe(false);
    // The template's pick returns null: the first PICK (line 2) prints NONE, not a.
    expect(spec.difference).toEqual({ index: 0, line: 2, expected: 'a', actual: 'NONE' });
  });

  for (const mistake of MISTAKES) {
    it(`names the mistake "${mistake.id}"`, () => {
      const results = gradeAll(WRONG[mistake.id]);
      const failing = results.filter((r) => !r.pass);
      expect(failing.length, 'some test must fail').toBeGreaterThan(0);
      // Every failing test whose output matches a known mistake names this
      // one, and at least one failing test names only this one.
      expect(failing.some((r) => r.mistakes.length === 1 && r.mistakes[0].id === mistake.id)).toBe(true);
      for (const r of failing) if (r.mistakes.length) expect(r.mistakes.map((m) => m.id)).toContain(mistake.id);
    });
  }

  it('reports an exception with the script line and the line of the learner code', () => {
    const r = gradeAll(THROWS).find((x) => x.id === 'spec-example')!;
    expect(r.pass).toBe(false);
    expect(r.problems[0].line).toBe(2);
    expect(r.problems[0].message).toBe("pick: TypeError: cannot read property 'length' of undefined");
    // The line "backends.nope.length;" in the source.
    expect(r.problems[0].codeLine).toBe(THROWS.split('\n').findIndex((l) => l.includes('backends.nope')) + 1);
  });

  it('flags a weight that is not a whole number', () => {
    const r = gradeAll(WRONG['round-up'].replace('Math.ceil(', '(')).find((x) => x.id === 'ramp-table')!;
    expect(r.problems[0].message).toBe(
      'effectiveWeight(10, 20, 0, 5) for web returned 2.5: a weight must be a whole number (round down)',
    );
  });

  it('explains what is missing from code that defines no pick', () => {
    expect(openError('function effectiveWeight() { return 1; }').message).toBe('define a function pick(backends)');
  });
});
