// The ramp chart's grid, tick labels and axis titles, and the marks of a
// clock that goes backwards: each stretch of the run in which the clock only
// goes forward gets its own ticks, and between two stretches a shaded band
// says where the clock was set back ("clock back 30 → 10 s").
import type { ChartFrame } from './chart-frame.js';
import { formatTick, niceTicks } from '../shared/ticks.js';
import { formatClock, type ChartModel } from './chart-model.js';
import { sketch, type Sketch } from '../shared/sketch.js';

export function drawAxes(f: ChartFrame, m: ChartModel): Sketch {
  const g = sketch('g', { class: 'ss-axes', attrs: { 'aria-hidden': 'true' } });
  const line = (cls: string, x1: number, y1: number, x2: number, y2: number) =>
    sketch('line', { class: cls, attrs: { x1: `${x1}`, y1: `${y1}`, x2: `${x2}`, y2: `${y2}` } });
  const text = (cls: string, label: string, x: number, y: number, anchor?: string) =>
    sketch('text', { class: cls, text: label, attrs: { x: `${x}`, y: `${y}`, ...(anchor ? { 'text-anchor': anchor } : {}) } });

  for (const v of niceTicks(0, m.yMax, Math.max(2, Math.floor(f.plotH / 45)))) {
    const y = Math.round(f.y(v)) + 0.5; // crisp 1 px lines
    g.append(line('ss-grid', f.left, y, f.right, y), text('ss-tick ss-tick-y', formatTick(v), f.left - 6, y));
  }
  // Enough room between x labels for the widest one.
  const room = 28 + 7 * formatTick(Math.floor(m.maxNow + 1)).length;
  m.stretches.forEach((s, k) => {
    const last = k === m.stretches.length - 1;
    // The last stretch runs on to the end of the axis.
    const to = last ? s.from + (m.xMax - s.x0) : s.to;
    const at = (clock: number) => Math.round(f.x(s.x0 + clock - s.from)) + 0.5;
    let ticks = niceTicks(s.from, to, Math.max(1, Math.floor(((to - s.from) * f.unit) / room)));
    if (k > 0) {
      // After a jump, the clock it starts from is always labelled.
      ticks = [s.from, ...ticks.filter((v) => at(v) - at(s.from) >= room * 0.8)];
    }
    if (!last) {
      // ...and the labels before a jump keep clear of it (the band says where the clock was).
      const next = f.x(m.stretches[k + 1].x0);
      ticks = ticks.filter((v) => next - at(v) >= room * 0.8);
    }
    for (const v of ticks) {
      const x = at(v);
      g.append(line('ss-grid ss-grid-x', x, f.plotTop, x, f.plotBottom), text('ss-tick ss-tick-x', formatTick(v), x, f.plotBottom + 15));
    }
    if (k > 0) g.append(jumpMark(f, m, k));
  });
  g.append(
    line('ss-axis', f.left, f.plotBottom + 0.5, f.right, f.plotBottom + 0.5),
    text('ss-axis-title', 'weight', f.left - 6, f.plotTop - 10, 'end'),
    text('ss-axis-title', 'clock (s) →', f.right, f.plotBottom + 30, 'end'),
    text('ss-axis-title', 'picks', f.left, f.laneTop - 4),
  );
  return g;
}

// The band between stretch k − 1 and stretch k: shaded over the plot and the
// pick lane, a dashed rule in its middle, and along it the two clock values.
function jumpMark(f: ChartFrame, m: ChartModel, k: number): Sketch {
  const before = m.stretches[k - 1];
  const after = m.stretches[k];
  const x0 = f.x(after.x0 - m.gap);
  const x1 = f.x(after.x0);
  const mid = Math.round((x0 + x1) / 2) + 0.5;
  const bottom = f.laneTop + f.laneH;
  const label = `clock back ${formatClock(before.to)} → ${formatClock(after.from)} s`;
  const g = sketch('g', { class: 'ss-jump' });
  g.append(
    sketch('rect', { class: 'ss-jump-band', attrs: { x: `${x0}`, y: `${f.plotTop}`, width: `${Math.max(1, x1 - x0)}`, height: `${bottom - f.plotTop}` } }),
    sketch('line', { class: 'ss-jump-rule', attrs: { x1: `${mid}`, y1: `${f.plotTop}`, x2: `${mid}`, y2: `${bottom}` } }),
    sketch('text', {
      class: 'ss-jump-label',
      text: label,
      attrs: { x: `${mid - 4}`, y: `${f.plotTop + 4}`, transform: `rotate(-90 ${mid - 4} ${f.plotTop + 4})` },
    }),
  );
  return g;
}
