// The ramp chart's model (pure, no DOM): where each step goes on the x
// scale. A clock that goes backwards starts a new stretch after a gap, so
// nothing is drawn over what came before. Expected values by hand.
import { describe, expect, it } from 'vitest';
import { buildChartModel } from '../../../web/runner/chart-model.js';
import { slowstart } from '../support/engine.js';

const model = (script: string) => buildChartModel(slowstart.run(script).timeline!);

describe('the chart model', () => {
  it('puts a forward-only run on one stretch: x is the clock', () => {
    const m = model('POOL a=1\nNOW 5\nPICK\nNOW 20\nPICK');
    expect(m.stretches).toEqual([{ from: 0, to: 20, x0: 0, firstStep: 0 }]);
    expect(m.gap).toBe(0);
    expect(Array.from(m.stepX)).toEqual([0, 5, 5, 20, 20]);
    // The axis goes on a little after the last clock (8 %, at least 1 s): 20 + 2.
    expect(m.xMax).toBe(22);
  });

  it('starts a new stretch where the clock goes back, after a gap', () => {
    // Clock 0, 10, 30, then back to 15 and on to 25.
    const m = model('POOL a=4\nNOW 10\nPICK\nNOW 30\nPICK\nNOW 15\nPICK\nNOW 25\nPICK');
    expect(m.stretches.map(({ from, to, firstStep }) => ({ from, to, firstStep }))).toEqual([
      { from: 0, to: 30, firstStep: 0 },
      { from: 15, to: 25, firstStep: 5 },
    ]);
    // One jump takes 10 % of the chart: gap = 40 × 0.1 / 0.9 for the 30 + 10 s of clock.
    expect(m.gap).toBeCloseTo((40 * 0.1) / 0.9, 10);
    expect(m.stretches[1].x0).toBeCloseTo(30 + m.gap, 10);
    // x never goes back: the steps after the jump sit past the gap.
    const x = Array.from(m.stepX);
    expect(x.slice(0, 5)).toEqual([0, 10, 10, 30, 30]);
    expect(x[5]).toBeCloseTo(30 + m.gap, 10);
    expect(x[7]).toBeCloseTo(30 + m.gap + 10, 10);
    for (let i = 1; i < x.length; i++) expect(x[i]).toBeGreaterThanOrEqual(x[i - 1]);
    // Each block's x is its steps' x.
    expect(m.blockX[m.blockX.length - 1]).toBeCloseTo(x[x.length - 1], 10);
  });

  it('keeps many jumps within 30 % of the chart', () => {
    const lines = ['POOL a=1'];
    for (let k = 0; k < 20; k++) lines.push('NOW 10', 'PICK', 'NOW 5', 'PICK');
    const m = model(lines.join('\n'));
    // 0 → 10, then 20 times back to 5 (and on to 10, but for the last time):
    // 21 stretches, 10 + 19 × 5 + 0 = 105 s of clock.
    expect(m.stretches.length).toBe(21);
    const span = m.stretches.reduce((s, r) => s + r.to - r.from, 0);
    expect(span).toBe(105);
    expect(m.gap * 20).toBeCloseTo((span * 0.3) / 0.7, 8);
  });
});
