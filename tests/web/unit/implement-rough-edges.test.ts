// The implement mode's rough edges (#26, problem 3), in Node with the real
// sandbox and lab: a pick that sorts `backends` in place and returns index 0
// is told that the index is read in pool order (it was told "a backend that
// sits a pick out loses its score"); an endless loop's time-out names the
// learner's line; the others-reset "why" no longer says that resetting a
// DOWN backend's score changes who wins (UP and ADD reset it anyway).
import { describe, expect, it } from 'vitest';
import { REORDERED } from '../../../web/implement/learner-rules.js';
import { gradeTest } from '../../../web/implement/grade.js';
import { builtInTests } from '../../../web/implement/suite.js';
import { CORRECT, withPick } from '../fixtures/learner-solutions.js';
import { lab } from '../support/lab.js';
import { grade, open } from '../support/sandbox.js';

const SPEC = builtInTests(lab).find((t) => t.id === 'worked-example')!;

// The rule worked right, then the array sorted in place and index 0 returned.
const SORT_THEN_INDEX = CORRECT.replace(
  '  if (best) best.score -= total;\n  return best;',
  '  if (!best) return null;\n  backends.sort((a, b) => b.score - a.score);\n  backends[0].score -= total;\n  return 0;',
);

describe('a pick that sorts backends in place and returns an index', () => {
  it('is told that the index is read in pool order, and is not named as another mistake', () => {
    expect(SORT_THEN_INDEX).not.toBe(CORRECT);
    const r = grade(SORT_THEN_INDEX, SPEC);
    expect(r.pass).toBe(false);
    expect(r.problems.map((p) => p.message)).toContain(REORDERED);
    expect(r.mistakes.map((m) => m.id)).not.toContain('others-reset');
  });

  it('says nothing to a pick that returns an index without reordering, or sorts a copy', () => {
    const copy = CORRECT.replace('  if (best) best.score -= total;\n  return best;', '  if (best) best.score -= total;\n  return best ? backends.indexOf(best) : null;');
    expect(grade(copy, SPEC).problems).toEqual([]);
    const sortedCopy = withPick('const s = [...backends].sort((a, b) => a.name < b.name ? -1 : 1);\nreturn backends.indexOf(s[0]);');
    expect(grade(sortedCopy, SPEC).problems.map((p) => p.message)).not.toContain(REORDERED);
  });
});

describe('an endless loop', () => {
  it('is stopped at the time limit with the line of the learner’s loop it was running', () => {
    // withPick: line 1 effectiveWeight, line 2 "function pick(backends) {", the body from line 3.
    // The loop is on line 4 (QuickJS's stack alone gave line 2, where pick starts: endless-loop-line.test.ts).
    const session = open(withPick('let n = 0;\nwhile (true) { n++; }'), 200);
    try {
      gradeTest(lab, session, SPEC);
      expect(session.stopped).toBe('time');
      expect(session.stoppedLine).toBe(4);
    } finally {
      session.dispose();
    }
  });
});

describe('the catalogue’s others-reset', () => {
  it('no longer says that resetting a DOWN backend changes who wins', () => {
    const why = lab.mistakes().find((m) => m.id === 'others-reset')!.why;
    expect(why).not.toMatch(/A DOWN backend, or one at weight 0, keeps its score/);
    expect(why).toContain('On a DOWN backend the reset cannot show (UP and ADD bring it back at score 0 anyway)');
  });
});
