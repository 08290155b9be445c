// Which colour and dash a backend gets, by its timeline id. The colours
// themselves are CSS custom properties in web/runner/styles.ts (one light and one dark
// value each), so the chart, the legend and the output all follow the theme.

/** Number of distinct colours; ids beyond it reuse them with a dash pattern. */
export const PALETTE_SIZE = 10;

/**
 * Classes for backend `id`: `ss-cN` sets `--ss-series` to its colour, and
 * `ss-dashN` (from the 11th backend on) gives its line a dash pattern, so
 * two backends never look the same in the first 30.
 */
export function seriesClasses(id: number): string {
  const dash = Math.floor(id / PALETTE_SIZE) % 3;
  return dash === 0 ? `ss-c${id % PALETTE_SIZE}` : `ss-c${id % PALETTE_SIZE} ss-dash${dash}`;
}

/**
 * How many backends a view draws one by one (a line, a lane, a legend entry, a table column):
 * the chart, the legend, the timeline table and the traffic lab's legend alike; the rest are
 * summed up or left out, as each view says.
 */
export const MAX_SERIES = 60;

/** The class for NONE picks (no winner). */
export const NONE_CLASS = 'ss-none';
