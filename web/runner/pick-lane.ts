// The ramp chart's pick lane: one row per backend (and one for NONE), each
// PICK a tick in its winner's colour and row, so the winner reads from
// position as well as colour. Row names are SVG text, cut to fit.
import type { Timeline } from '../api/index.js';
import type { ChartFrame } from './chart-frame.js';
import { sketch, type Sketch } from '../shared/sketch.js';
import { NONE_CLASS, seriesClasses } from '../shared/palette.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

const CHAR_PX = 6.6; // average width of a label character at 11 px

export function drawPickLane(f: ChartFrame, t: Timeline): Sketch {
  const g = sketch('g', { class: 'ss-lane' });
  g.append(
    sketch('rect', {
      class: 'ss-lane-bg',
      attrs: { x: `${f.left}`, y: `${f.laneTop}`, width: `${f.plotW}`, height: `${f.laneH}` },
    }),
  );
  const rowName = (row: number) => (row < f.seriesCount ? t.names[row] : 'NONE');
  const labelChars = Math.floor((f.left - 12) / CHAR_PX);
  for (let row = 0; row < f.rows; row++) {
    const y = f.rowY(row);
    if (row > 0 && f.rowH >= 6) {
      g.append(sketch('line', { class: 'ss-lane-sep', attrs: { x1: `${f.left}`, x2: `${f.right}`, y1: `${y}`, y2: `${y}` } }));
    }
    if (f.rowH >= 9) {
      const name = rowName(row);
      const short = name.length > labelChars ? `${name.slice(0, labelChars - 1)}…` : name;
      const label = sketch('text', { class: 'ss-lane-label', text: short, attrs: { x: `${f.left - 6}`, y: `${y + f.rowH / 2}` } });
      label.append(sketch('title', { text: name }));
      g.append(label);
    }
  }

  // One path per row. A tick within a pixel of the row's previous one is
  // merged into it, so 10,000 picks cost at most a few hundred segments.
  const d: string[][] = Array.from({ length: f.rows }, () => []);
  const lastX = new Float64Array(f.rows).fill(-Infinity);
  const markH = Math.max(2, f.rowH - 2);
  for (let i = 0; i < t.length; i++) {
    const w = t.stepWinner[i];
    if (w === NOT_A_PICK || w >= f.seriesCount) continue; // not a pick, or a backend past the chart's limit
    const row = w === NO_WINNER ? f.seriesCount : w;
    const x = Math.round(f.laneX(i) * 2) / 2;
    if (Math.abs(x - lastX[row]) < 1) continue;
    lastX[row] = x;
    d[row].push(`M${x - 1.5} ${f.rowY(row) + 1}h3v${markH}h-3z`);
  }
  // The ticks in a group of their own: the chart plays them out (ramp-chart.ts).
  const ticks = sketch('g', { class: 'ss-lane-picks' });
  for (let row = 0; row < f.rows; row++) {
    if (d[row].length === 0) continue;
    const cls = row < f.seriesCount ? seriesClasses(row) : NONE_CLASS;
    const path = sketch('path', { class: `ss-pick ${cls}`, attrs: { d: d[row].join('') } });
    path.append(sketch('title', { text: `picks: ${rowName(row)}` }));
    ticks.append(path);
  }
  g.append(ticks);
  return g;
}
