// Axis ticks, shared by the ramp chart (web/runner/chart-axes.ts) and the
// Traffic tab's bucket charts (web/traffic/bucket-chart.ts): round values
// and short labels. Pure functions: no DOM.
import { count } from './format.js';

/** Round tick values from `min` to `max`, about `count` of them; integers only. */
export function niceTicks(min: number, max: number, count: number): number[] {
  const span = max - min;
  if (!(span > 0)) return [min];
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / mag;
  const step = Math.max(1, (norm < 1.5 ? 1 : norm < 3.5 ? 2 : norm < 7.5 ? 5 : 10) * mag);
  const ticks: number[] = [];
  for (let v = Math.ceil(min / step) * step; v <= max + 1e-9; v += step) ticks.push(v);
  return ticks;
}

/** Compact tick labels: 950, 1,500, 12k, 1.5M. */
export function formatTick(v: number): string {
  const abs = Math.abs(v);
  if (abs >= 1e9) return `${trim(v / 1e9)}G`;
  if (abs >= 1e6) return `${trim(v / 1e6)}M`;
  if (abs >= 1e4) return `${trim(v / 1e3)}k`;
  return count(v);
}

function trim(v: number): string {
  return String(Math.round(v * 10) / 10);
}
