// Predict mode's pure parts (#34 item 1): which lines are asked (every
// WEIGHTS and PICK line, or those a `#?` comment line marks), how far the
// page may show the run while a line is asked, the run's first steps as a
// timeline of their own, and what a wrong WEIGHTS answer is told. The
// browser tests (tests/web/e2e/predict-*.test.ts) drive the page and the
// element; here the cases are worked by hand.
import { describe, expect, it } from 'vitest';
import { askedLines, markerHint, revealedSteps } from '../../../web/runner/predict-questions.js';
import { samePrediction, weightsDifference } from '../../../web/runner/predict-words.js';
import { timelinePrefix } from '../../../web/runner/timeline-prefix.js';
import { buildChartModel, revealedModel } from '../../../web/runner/chart-model.js';
import { slowstart } from '../support/engine.js';

const SPEC_EXAMPLE = 'POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\n';

describe('which lines are asked', () => {
  it('asks every output line when no line is marked', () => {
    const run = slowstart.run(SPEC_EXAMPLE);
    const { questions, unused } = askedLines(SPEC_EXAMPLE.split('\n'), run.output);
    expect(questions.map((q) => [q.index, q.line, q.hint])).toEqual([
      [0, 2, ''],
      [1, 3, ''],
      [2, 5, ''],
      [3, 7, ''],
      [4, 8, ''],
      [5, 10, ''],
    ]);
    expect(unused).toEqual([]);
  });

  it('asks only the line that prints next after each #? (with its hint), and names a marker that asks nothing', () => {
    const script = [
      'POOL a=5 b=1 c=1', // 1
      'PICK', // 2: given
      '#? the scores after line 2?', // 3
      'PICK', // 4: asked
      'pick', // 5: rejected, prints nothing
      '  #?', // 6: marks line 8, not the rejected line 7
      'PICK x', // 7: rejected
      'WEIGHTS', // 8: asked
      'PICK', // 9: given
      '#? nothing prints after me', // 10
      'NOW 5', // 11
    ].join('\n');
    const run = slowstart.run(script);
    expect(run.output.map((o) => o.line)).toEqual([2, 4, 8, 9]);
    const { questions, unused } = askedLines(script.split('\n'), run.output);
    expect(questions).toEqual([
      { index: 1, line: 4, hint: 'the scores after line 2?' },
      { index: 2, line: 8, hint: '' },
    ]);
    expect(unused).toEqual([10]);
  });

  it('reads a marker as the language reads a comment: its first token, after spaces or tabs', () => {
    expect(markerHint('#?')).toBe('');
    expect(markerHint('\t #?who wins?  ')).toBe('who wins?');
    expect(markerHint('# ? not a marker')).toBeNull();
    expect(markerHint('PICK #?')).toBeNull();
    expect(markerHint('#? hint\r')).toBe('hint'); // a CR LF script
  });
});

describe('how far the page shows the run while a line is asked', () => {
  // Steps: 0 POOL, 1 PICK(2), 2 PICK(3), 3 ADD(4), 4 WEIGHTS(5), 5 NOW(6), 6 WEIGHTS(7), 7 PICK(8), 8 DOWN(9), 9 PICK(10).
  const run = slowstart.run(SPEC_EXAMPLE);
  const t = run.timeline!;
  const out = run.output;

  it('shows a PICK the steps before it: the weights and scores it works from', () => {
    expect(revealedSteps(t, out, 0, { line: 2, answered: false })).toBe(1);
    expect(revealedSteps(t, out, 4, { line: 8, answered: false })).toBe(7);
    expect(revealedSteps(t, out, 5, { line: 10, answered: false })).toBe(9);
  });

  it('stops a WEIGHTS line at the last output shown: the weights at the line are its answer', () => {
    // Line 5 after ADD d (step 3): the last output shown is line 3's (step 2), so 3 steps.
    expect(revealedSteps(t, out, 2, { line: 5, answered: false })).toBe(3);
    // Line 7 after NOW 5: the last output shown is line 5 (step 4): 5 steps, not the NOW that moved d to 2.
    expect(revealedSteps(t, out, 3, { line: 7, answered: false })).toBe(5);
    // A first WEIGHTS with nothing shown before it: no step at all.
    const w = slowstart.run('POOL a=1\nNOW 3\nWEIGHTS\n');
    expect(revealedSteps(w.timeline!, w.output, 0, { line: 3, answered: false })).toBe(0);
  });

  it('shows a line answered, and everything when no line is asked', () => {
    expect(revealedSteps(t, out, 1, { line: 2, answered: true })).toBe(2);
    expect(revealedSteps(t, out, 3, { line: 5, answered: true })).toBe(5);
    expect(revealedSteps(t, out, 6, null)).toBeNull();
  });
});

describe('the first steps of a run as a timeline', () => {
  // The oracle: a prefix of the run is the run of the script cut after the prefix's last line.
  const cases = [
    SPEC_EXAMPLE,
    'POOL a=3 b=2\nADD c=4 10\nNOW 4\nPICK\nPICK\nUP a 20\nNOW 9\nPICK\nWEIGHTS\nPOOL x=1\nPICK\nNOW 2\nPICK\n',
  ];
  for (const script of cases) {
    it(`equals the run of the script's first lines, at every length: ${JSON.stringify(script.slice(0, 24))}…`, () => {
      const full = slowstart.run(script).timeline!;
      const lines = script.split('\n');
      for (let k = 1; k <= full.length; k++) {
        const part = timelinePrefix(full, k);
        const cut = slowstart.run(lines.slice(0, full.stepLine[k - 1]).join('\n')).timeline!;
        expect(part.length).toBe(k);
        for (const key of ['stepLine', 'stepNow', 'stepWinner', 'stepBlock', 'blockStart', 'cellBackend', 'cellUp', 'cellWeight', 'cellScore'] as const) {
          expect(Array.from(part[key]), `${key} at ${k} steps`).toEqual(Array.from(cut[key]));
        }
        for (let i = 0; i < k; i++) expect(part.pool(i)).toEqual(cut.pool(i).map((b) => ({ ...b, id: full.names.indexOf(b.name) })));
      }
    });
  }

  it('keeps every name (the script’s) and none of the steps past the cut', () => {
    const full = slowstart.run(SPEC_EXAMPLE).timeline!;
    const none = timelinePrefix(full, 0);
    expect(none.length).toBe(0);
    expect(none.names).toEqual(['a', 'b', 'c', 'd']);
    expect(none.cellBackend.length).toBe(0);
    expect(timelinePrefix(full, 99)).toBe(full);
  });

  it('charts the part on the whole run’s clock axis, with its own weights and picks', () => {
    const full = slowstart.run('POOL a=2 b=1\nPICK\nADD c=8 10\nNOW 10\nPICK\n').timeline!;
    const part = timelinePrefix(full, 2);
    const m = revealedModel(buildChartModel(full), part);
    expect(m.xMax).toBe(buildChartModel(full).xMax); // 10 + 1
    expect(m.yMax).toBe(2); // not c's 8: that is still to come
    expect(m.picks).toBe(1);
    expect(Array.from(m.stepX)).toEqual([0, 0]);
  });
});

describe('what a wrong answer is told', () => {
  it('compares predictions with spaces aside, and nothing else aside', () => {
    expect(samePrediction('  a=1   b=2 ', 'a=1 b=2')).toBe(true);
    expect(samePrediction('A', 'a')).toBe(false);
  });

  it('names the wrong weights, the missing and the extra backends, or the order', () => {
    expect(weightsDifference('a=5 b=1 c=1 d=1', 'a=5 b=1 c=1 d=2')).toBe('d is 2, not 1.');
    expect(weightsDifference('a=5 c=1', 'a=5 b=1 c=1 d=2')).toBe('Left out: b and d (every backend in the pool is listed, a DOWN one as 0).');
    expect(weightsDifference('a=4 b=1 x=3', 'a=5 b=1')).toBe('a is 5, not 4. Not in the pool: x.');
    expect(weightsDifference('b=1 a=5', 'a=5 b=1')).toMatch(/^The weights are right, the order is not: by name, in byte order/);
    expect(weightsDifference('a b', 'a=5 b=1')).toBe('a is 5 and b is 1.');
  });
});
