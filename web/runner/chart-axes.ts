// The ramp chart's grid, tick labels and axis titles.
import type { ChartFrame } from './chart-frame.js';
import { formatTick, niceTicks, type ChartModel } from './chart-model.js';
import { svg } from './dom.js';

export function drawAxes(doc: Document, f: ChartFrame, m: ChartModel): SVGGElement {
  const g = svg(doc, 'g', { class: 'ss-axes', attrs: { 'aria-hidden': 'true' } });
  const line = (cls: string, x1: number, y1: number, x2: number, y2: number) =>
    svg(doc, 'line', { class: cls, attrs: { x1: `${x1}`, y1: `${y1}`, x2: `${x2}`, y2: `${y2}` } });
  const text = (cls: string, label: string, x: number, y: number, anchor?: string) =>
    svg(doc, 'text', { class: cls, text: label, attrs: { x: `${x}`, y: `${y}`, ...(anchor ? { 'text-anchor': anchor } : {}) } });

  for (const v of niceTicks(0, m.yMax, Math.max(2, Math.floor(f.plotH / 45)))) {
    const y = Math.round(f.y(v)) + 0.5; // crisp 1 px lines
    g.append(line('ss-grid', f.left, y, f.right, y), text('ss-tick ss-tick-y', formatTick(v), f.left - 6, y));
  }
  // Enough room between x labels for the widest one.
  const widest = formatTick(Math.floor(m.xMax)).length;
  for (const v of niceTicks(m.xMin, m.xMax, Math.max(2, Math.floor(f.plotW / (28 + 7 * widest))))) {
    const x = Math.round(f.x(v)) + 0.5;
    g.append(
      line('ss-grid ss-grid-x', x, f.plotTop, x, f.plotBottom),
      text('ss-tick ss-tick-x', formatTick(v), x, f.plotBottom + 15),
    );
  }
  g.append(
    line('ss-axis', f.left, f.plotBottom + 0.5, f.right, f.plotBottom + 0.5),
    text('ss-axis-title', 'weight', f.left - 6, f.plotTop - 10, 'end'),
    text('ss-axis-title', 'clock (s) →', f.right, f.plotBottom + 30, 'end'),
    text('ss-axis-title', 'picks', f.left, f.laneTop - 4),
  );
  return g;
}
