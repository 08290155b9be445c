// The implement-it-yourself grading in Node: learner code run in the
// sandbox (QuickJS) by the engine through JavaScript rules, graded against
// the engine's own output, and each mistake of the engine's catalogue named.
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { builtInTests } from '../../../web/implement/suite.js';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { CORRECT, THROWS, WRONG } from '../fixtures/learner-solutions.js';
import { gradeAll, openError } from '../support/sandbox.js';

const TESTS = builtInTests(lab);

describe('grading', () => {
  it('runs the built-in tests that check the rules, in learner words', () => {
    const all = lab.builtInTests();
    expect(TESTS.length).toBeGreaterThanOrEqual(15);
    expect(TESTS.length).toBeLessThan(all.length); // parsing and commands are the engine's here
    expect(TESTS.map((t) => t.id)).toContain('clock-before-join');
    expect(TESTS.map((t) => t.id)).not.toContain('crlf-line-ends');
    for (const t of TESTS) expect(t.title).not.toMatch(/SPEC/);
  });

  it('passes a correct solution on every built-in test', () => {
    for (const r of gradeAll(CORRECT)) {
      expect(r.problems, r.id).toEqual([]);
      expect(r.difference, r.id).toBeUndefined();
      expect(r.pass, r.id).toBe(true);
      expect(r.mistakes, r.id).toEqual([]);
    }
  });

  it('fails the template, with the first difference', () => {
    const results = gradeAll(LEARNER_TEMPLATE);
    const example = results.find((r) => r.id === 'worked-example')!;
    expect(example.pass).toBe(false);
    // The template's pick returns null: the first PICK (line 2) prints NONE, not a.
    expect(example.difference).toEqual({ index: 0, line: 2, expected: 'a', actual: 'NONE' });
  });

  it('has a learner solution for every mistake the implement mode can name', () => {
    const names = lab.mistakes().filter((m) => m.scope === 'rules').map((m) => m.id);
    expect(Object.keys(WRONG).sort()).toEqual([...names].sort());
  });

  for (const id of Object.keys(WRONG)) {
    it(`names the mistake "${id}"`, () => {
      const results = gradeAll(WRONG[id]);
      const failing = results.filter((r) => !r.pass);
      expect(failing.length, 'some test must fail').toBeGreaterThan(0);
      // Every failing test whose output matches a known mistake names this
      // one (a test alone may name others too: the run narrows them down,
      // implement-diagnosis.test.ts).
      expect(failing.some((r) => r.mistakes.some((m) => m.id === id))).toBe(true);
      for (const r of failing) if (r.mistakes.length) expect(r.mistakes.map((m) => m.id)).toContain(id);
    });
  }

  it('prints the negative weight of a solution without the clamp, and names the mistake as the compare box does', () => {
    const r = gradeAll(WRONG['no-clamp']).find((x) => x.id === 'clock-before-join')!;
    // POOL a=1, NOW 100, ADD b=10 20, NOW 90, WEIGHTS (line 5): 10 × (90 − 100) / 20 = −5
    // without the clamp; b (weight −5) does not take part in the PICK; at 110: 10 × 10 / 20 = 5.
    expect(r.pass).toBe(false);
    // The negative weight is said (a problem), and the mistake is still named beside it.
    // (computed once, when NOW 90 on line 4 sets the clock back).
    expect(r.problems.map((p) => [p.line, p.message, p.symptom])).toEqual([
      [4, 'effectiveWeight(10, 20, 100, 90) for b returned -5: a weight cannot be negative (printed as returned; the chart draws 0)', true],
    ]);
    expect(r.actual.map((o) => o.text)).toEqual(['a=1 b=-5', 'a', 'a=1 b=5']);
    expect(r.difference).toEqual({ index: 0, line: 5, expected: 'a=1 b=0', actual: 'a=1 b=-5' });
    expect(r.mistakes.map((m) => m.id)).toEqual(['no-clamp']);
    // The compare box and slowstart grade name the same output the same way.
    expect(lab.nameMistakes(r.script, 'a=1 b=-5\na\na=1 b=5\n').map((m) => m.id)).toEqual(['no-clamp']);
    // In pasted output, whole numbers, negative ones included, are no problem to fix first.
    expect(lab.weightProblem(r.script, 'a=1 b=-5\na\na=1 b=5\n')).toBeNull();
    // The chart overlay draws the negative weight at 0 (it has no room below its axis).
    expect(Math.min(...r.timeline!.cellWeight)).toBe(0);
  });

  it('finds a weight that is not a whole number in a pasted output, only on lines printed by WEIGHTS', () => {
    // Lines 1 and 3 are WEIGHTS lines (script lines 5 and 8), line 2 a PICK's.
    const script = 'POOL a=1\nNOW 100\nADD b=10 20\nNOW 90\nWEIGHTS\nPICK\nNOW 110\nWEIGHTS\n';
    expect(lab.weightProblem(script, 'a=1 b=0\na\na=1 b=5.0\n')).toEqual({ outputLine: 3, weight: 'b=5.0' });
    expect(lab.weightProblem(script, 'a=1 b=NaN\na\na=1 b=5\n')).toEqual({ outputLine: 1, weight: 'b=NaN' });
    // A PICK's line is a name, whatever it looks like.
    expect(lab.weightProblem(script, 'a=1 b=0\nx=2.5\na=1 b=5\n')).toBeNull();
    expect(lab.weightProblem(script, 'a=1 b=0\na\na=1 b=5\n')).toBeNull();
  });

  it('reports an exception with the script line and the line of the learner code, and names no mistake there', () => {
    const r = gradeAll(THROWS).find((x) => x.id === 'worked-example')!;
    expect(r.pass).toBe(false);
    expect(r.problems[0].line).toBe(2);
    expect(r.problems[0].message).toBe("pick: TypeError: cannot read property 'length' of undefined");
    // The line "backends.nope.length;" in the source.
    expect(r.problems[0].codeLine).toBe(THROWS.split('\n').findIndex((l) => l.includes('backends.nope')) + 1);
    expect(r.mistakes).toEqual([]);
    expect(r.evidence?.problem).toBe(true);
  });

  it('flags a weight that is not a whole number', () => {
    const r = gradeAll(WRONG['floating-point'].replace('Math.floor(', '(')).find((x) => x.id === 'ramp-table')!;
    expect(r.problems[0].message).toBe(
      'effectiveWeight(10, 20, 0, 5) for web returned 2.5: a weight must be a whole number (round down)',
    );
    expect(r.mistakes).toEqual([]);
  });

  it('explains what is missing from code that defines no pick', () => {
    expect(openError('function effectiveWeight() { return 1; }').message).toBe('define a function pick(backends)');
  });
});
