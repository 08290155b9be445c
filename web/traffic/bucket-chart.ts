// A hand-written SVG chart of a simulation's buckets over the time axis's
// window (time-frame.ts), in one of three modes:
//   - `stack`: each backend's share of the requests as a stacked band (bands
//     sum to 100 %; requests nobody could take are the grey top band);
//   - `lines`: one honest step line per series (latency), gaps where a
//     bucket had no requests;
//   - `bars`:  counts per bucket as stacked bars (failed attempts).
// A run is simulated at a fine bucket (a tenth of a second over five
// minutes); the chart adds buckets up into bins of a few pixels, and adds
// fewer as the window is zoomed in, so what is drawn is always the run's own
// numbers, never a resampling. Names go in as SVG text / textContent only.
import { formatTick, niceTicks } from '../shared/ticks.js';
import { svg } from '../shared/dom.js';
import { NONE_CLASS, seriesClasses } from '../shared/palette.js';
import { binning, LABEL_ROW_PX, LABEL_ROWS, MARGIN, TimeFrame, type Binning, type TimeMarks } from './time-frame.js';
import type { TimeAxis } from './time-axis.js';

export interface BucketSeries {
  id: number;
  name: string;
  /** Bucket k's value: a count (stack, bars) or a mean (lines). */
  at(k: number): number;
  /** lines: bucket k's weight in a bin's mean (its requests); without it, bins show their largest value (a p99). */
  weight?(k: number): number;
  /** A class for the series' colour (default: the backend's, from its id). */
  className?: string;
}

export interface BucketChartData {
  mode: 'stack' | 'lines' | 'bars';
  bucket: number;
  buckets: number;
  series: BucketSeries[];
  /** stack: all requests of bucket k (the shares' denominator). */
  total?(k: number): number;
  /** stack: requests nobody took in bucket k (counted, and drawn as the top band). */
  rest?(k: number): number;
  /** The unit on the y axis ("ms", "failed"). */
  unit?: string;
  /** lines and bars: the top of the y axis before its headroom, so that charts side by side share one scale. */
  yMax?: number;
  marks?: TimeMarks;
  /** Label the events on this chart (the top chart of a group). */
  eventLabels?: boolean;
}

const TOP = 12;
const BOTTOM = 26;

export class BucketChart {
  readonly element: HTMLDivElement;
  readonly frame: TimeFrame;
  readonly #height: number;
  #data: BucketChartData | null = null;

  constructor(parent: HTMLElement, label: string, axis: TimeAxis, height = 200) {
    this.#height = height;
    this.frame = new TimeFrame(parent, 'ss-bucket-chart', label, axis, () => this.#draw());
    this.element = this.frame.element;
  }

  set(data: BucketChartData | null): void {
    this.#data = data;
    this.#draw();
  }

  get data(): BucketChartData | null {
    return this.#data;
  }

  /** The bins this chart draws now (the readout and the table use the same). */
  binning(): Binning | null {
    const d = this.#data;
    return d && d.buckets ? binning(this.frame.axis, d.bucket, d.buckets, this.frame.plotWidth || 600) : null;
  }

  #draw(): void {
    const data = this.#data;
    const f = this.frame;
    // A chart that names the events has a band above its plot for them.
    const top = data?.eventLabels && data.marks?.events?.length ? LABEL_ROWS * LABEL_ROW_PX + 4 : TOP;
    const height = this.#height + top - TOP;
    const plotBottom = height - BOTTOM;
    f.begin(height, top, plotBottom);
    if (!data || data.buckets === 0) return;
    const bins = this.binning()!;
    const binned = binValues(data, bins);
    const doc = f.svg.ownerDocument;
    let yMax = 1;
    if (data.mode !== 'stack') {
      yMax = data.yMax ?? 0;
      if (data.yMax === undefined) for (const v of binned.top) if (v > yMax) yMax = v;
      yMax = yMax > 0 ? yMax * 1.08 : 1;
    }
    const plotH = plotBottom - top;
    const y = (v: number) => top + plotH - (v / yMax) * plotH;
    const yTicks = data.mode === 'stack' ? [0, 0.25, 0.5, 0.75, 1] : niceTicks(0, yMax, data.mode === 'bars' ? 2 : 3);
    for (const v of yTicks) {
      const py = y(v);
      f.svg.append(svg(doc, 'line', { class: 'ss-grid', attrs: { x1: `${MARGIN.left}`, x2: `${MARGIN.left + f.plotWidth}`, y1: `${py}`, y2: `${py}` } }));
      const label = data.mode === 'stack' ? `${Math.round(v * 100)}%` : tickLabel(v, data.unit);
      f.svg.append(svg(doc, 'text', { class: 'ss-tick ss-tick-y', text: label, attrs: { x: `${MARGIN.left - 6}`, y: `${py}` } }));
    }
    f.drawTimeTicks(plotBottom + 16);
    f.svg.append(svg(doc, 'line', { class: 'ss-axis', attrs: { x1: `${MARGIN.left}`, x2: `${MARGIN.left + f.plotWidth}`, y1: `${plotBottom}`, y2: `${plotBottom}` } }));
    // The plot's contents stay inside it when the window starts inside a bin.
    const clip = svg(doc, 'svg', { attrs: { x: `${MARGIN.left}`, y: '0', width: `${f.plotWidth}`, height: `${height}`, viewBox: `${MARGIN.left} 0 ${f.plotWidth} ${height}`, overflow: 'hidden' } });
    f.svg.append(clip);
    // Each bin's left edge, written once (bin i + 1's is bin i's right edge).
    const edges: string[] = [];
    for (let b = bins.first; b <= bins.last + 1; b++) edges.push(f.x(Math.min(b * bins.size, data.buckets) * data.bucket).toFixed(1));
    const edge = (b: number) => edges[b - bins.first];
    for (const band of binned.bands) {
      let d = '';
      if (data.mode === 'lines') {
        let open = false;
        for (let i = 0; i < band.top.length; i++) {
          const v = band.top[i];
          if (!(v > 0)) {
            open = false; // no requests in this bin: a gap, not a zero
            continue;
          }
          const b = bins.first + i;
          d += `${open ? 'L' : 'M'}${edge(b)} ${y(v).toFixed(1)}H${edge(b + 1)}`;
          open = true;
        }
      } else {
        for (let i = 0; i < band.top.length; i++) {
          const b = bins.first + i;
          d += `${i === 0 ? 'M' : 'L'}${edge(b)} ${y(band.top[i]).toFixed(1)}H${edge(b + 1)}`;
        }
        for (let i = band.top.length - 1; i >= 0; i--) {
          const b = bins.first + i;
          d += `L${edge(b + 1)} ${y(band.bottom[i]).toFixed(1)}H${edge(b)}`;
        }
        if (d) d += 'Z';
      }
      if (!d) continue;
      const kind = data.mode === 'lines' ? 'ss-line' : data.mode === 'bars' ? 'ss-bar' : 'ss-band';
      const path = svg(doc, 'path', { class: `${kind} ${band.className}`, attrs: { d } });
      path.append(svg(doc, 'title', { text: band.name }));
      clip.append(path);
    }
    f.drawMarks(data.marks ?? {}, data.eventLabels === true);
  }
}

/** A y tick's label: "500 ms", "1.5 s" (milliseconds from a second on: the margin holds about 7 characters), "40". */
function tickLabel(v: number, unit = ''): string {
  if (unit === 'ms' && v >= 1000) return `${Number((v / 1000).toFixed(2))} s`;
  return `${formatTick(Math.round(v))}${unit ? ` ${unit}` : ''}`;
}

interface Band {
  name: string;
  className: string;
  top: Float64Array;
  bottom: Float64Array;
}

/** Each series' value per bin (stack: the share; bars: stacked counts; lines: the mean or the largest). */
export function binValues(data: BucketChartData, bins: Binning): { bands: Band[]; top: Float64Array } {
  const n = bins.last - bins.first + 1;
  const base = new Float64Array(n);
  const bands: Band[] = [];
  const range = (b: number) => [b * bins.size, Math.min((b + 1) * bins.size, data.buckets)] as const;
  let totals: Float64Array | null = null;
  if (data.mode === 'stack') {
    totals = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const [from, to] = range(bins.first + i);
      for (let k = from; k < to; k++) totals[i] += data.total?.(k) ?? 0;
    }
  }
  const add = (name: string, className: string, at: (k: number) => number, weight?: (k: number) => number) => {
    const top = new Float64Array(n);
    const bottom = base.slice();
    for (let i = 0; i < n; i++) {
      const [from, to] = range(bins.first + i);
      let sum = 0;
      let w = 0;
      let most = Number.NaN;
      for (let k = from; k < to; k++) {
        const v = at(k);
        if (data.mode === 'lines') {
          if (weight) {
            const wk = weight(k);
            if (wk > 0) (sum += v * wk), (w += wk);
          } else if (!(v <= most)) most = v;
        } else sum += v || 0;
      }
      const value = data.mode === 'stack' ? (totals![i] ? sum / totals![i] : 0) : data.mode === 'lines' ? (weight ? (w ? sum / w : Number.NaN) : most) : sum;
      top[i] = data.mode === 'lines' ? value : bottom[i] + value;
      if (data.mode !== 'lines') base[i] = top[i];
    }
    bands.push({ name, className, top, bottom });
  };
  for (const s of data.series) add(s.name, s.className ?? seriesClasses(s.id), s.at, s.weight);
  if (data.mode === 'stack' && data.rest) add('no backend', NONE_CLASS, data.rest);
  const top = new Float64Array(n);
  for (const b of bands) for (let i = 0; i < n; i++) if (b.top[i] > top[i]) top[i] = b.top[i];
  return { bands, top };
}
