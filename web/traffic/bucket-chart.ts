// A small hand-written SVG chart for bucketed simulation results: x is time
// (bucket k covers [k·w, (k+1)·w)), and either
//   - `stack`: each backend's share of the requests as a stacked band
//     (bands sum to 100 %; requests nobody could take are the grey top band), or
//   - `lines`: one honest step line per backend (latency, outstanding).
// Sized to its container's width (ResizeObserver), so text never scales.
// Names go in as SVG text / textContent only.
import { formatTick, niceTicks } from '../shared/ticks.js';
import { svg } from '../shared/dom.js';
import { SizedSvg } from './sized-svg.js';
import { NONE_CLASS, seriesClasses } from '../shared/palette.js';

export interface BucketSeries {
  id: number;
  name: string;
  /** One value per bucket (stack: a fraction 0...1; lines: any unit). NaN = no value. */
  values: ArrayLike<number>;
}

export interface BucketChartData {
  mode: 'stack' | 'lines';
  bucket: number;
  buckets: number;
  series: BucketSeries[];
  /** stack: the fraction nobody took, per bucket. */
  rest?: ArrayLike<number>;
  /** lines: the unit shown on the y axis, e.g. "ms". */
  unit?: string;
  /** lines: the top of the y axis (before its headroom), so that charts side by side share one scale. */
  yMax?: number;
  /** A time to mark with a vertical rule (e.g. the playhead clock). */
  marker?: number;
}

const M = { left: 52, right: 12, top: 10, bottom: 30 };

export class BucketChart {
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #svg: SVGSVGElement;
  readonly #box: SizedSvg;
  readonly #height: number;
  #data: BucketChartData | null = null;

  constructor(parent: HTMLElement, label: string, height = 200) {
    this.#doc = parent.ownerDocument;
    this.#height = height;
    this.#box = new SizedSvg(parent, 'ss-bucket-chart', label, () => this.#draw());
    this.element = this.#box.element;
    this.#svg = this.#box.svg;
  }

  set(data: BucketChartData): void {
    this.#data = data;
    this.#draw();
  }

  #draw(): void {
    const data = this.#data;
    const doc = this.#doc;
    const height = this.#height;
    const width = this.#box.reset(height);
    const s = this.#svg;
    if (!data || data.buckets === 0) return;

    const plotW = width - M.left - M.right;
    const plotH = height - M.top - M.bottom;
    const t1 = data.buckets * data.bucket;
    const x = (t: number) => M.left + (t / t1) * plotW;
    let yMax = 1;
    if (data.mode === 'lines') {
      yMax = data.yMax ?? 0;
      if (data.yMax === undefined) for (const se of data.series) for (let k = 0; k < data.buckets; k++) if (se.values[k] > yMax) yMax = se.values[k];
      yMax = yMax > 0 ? yMax * 1.08 : 1;
    }
    const y = (v: number) => M.top + plotH - (v / yMax) * plotH;

    // Grid and axes.
    const yTicks = data.mode === 'stack' ? [0, 0.25, 0.5, 0.75, 1] : niceTicks(0, yMax, 4);
    for (const v of yTicks) {
      const py = y(v);
      s.append(svg(doc, 'line', { class: 'ss-grid', attrs: { x1: `${M.left}`, x2: `${M.left + plotW}`, y1: `${py}`, y2: `${py}` } }));
      const label = data.mode === 'stack' ? `${Math.round(v * 100)}%` : `${formatTick(Math.round(v))}${data.unit ? ` ${data.unit}` : ''}`;
      s.append(svg(doc, 'text', { class: 'ss-tick ss-tick-y', text: label, attrs: { x: `${M.left - 6}`, y: `${py}` } }));
    }
    for (const t of niceTicks(0, t1, Math.max(2, Math.floor(plotW / 70)))) {
      s.append(svg(doc, 'text', { class: 'ss-tick ss-tick-x', text: `${formatTick(t)}s`, attrs: { x: `${x(t)}`, y: `${M.top + plotH + 16}` } }));
    }
    s.append(svg(doc, 'line', { class: 'ss-axis', attrs: { x1: `${M.left}`, x2: `${M.left + plotW}`, y1: `${M.top + plotH}`, y2: `${M.top + plotH}` } }));

    if (data.mode === 'stack') this.#drawStack(data, x, y);
    else this.#drawLines(data, x, y);

    if (data.marker !== undefined && data.marker >= 0 && data.marker <= t1) {
      const px = x(data.marker);
      s.append(svg(doc, 'line', { class: 'ss-clock-line', attrs: { x1: `${px}`, x2: `${px}`, y1: `${M.top}`, y2: `${M.top + plotH}` } }));
    }
  }

  // Bands from the bottom up in pool-id order; each band is a step polygon.
  #drawStack(data: BucketChartData, x: (t: number) => number, y: (v: number) => number): void {
    const n = data.buckets;
    const base = new Float64Array(n);
    const bands: Array<{ cls: string; name: string; top: Float64Array; bottom: Float64Array }> = [];
    const add = (cls: string, name: string, values: ArrayLike<number>) => {
      const bottom = base.slice();
      for (let k = 0; k < n; k++) base[k] += values[k] || 0;
      bands.push({ cls, name, top: base.slice(), bottom });
    };
    for (const se of data.series) add(seriesClasses(se.id), se.name, se.values);
    if (data.rest) add(NONE_CLASS, 'no backend', data.rest);
    for (const band of bands) {
      let d = '';
      for (let k = 0; k < n; k++) {
        const ty = y(band.top[k]).toFixed(1);
        d += `${k === 0 ? 'M' : 'L'}${x(k * data.bucket).toFixed(1)} ${ty}H${x((k + 1) * data.bucket).toFixed(1)}`;
      }
      for (let k = n - 1; k >= 0; k--) {
        const by = y(band.bottom[k]).toFixed(1);
        d += `L${x((k + 1) * data.bucket).toFixed(1)} ${by}H${x(k * data.bucket).toFixed(1)}`;
      }
      const path = svg(this.#doc, 'path', { class: `ss-band ${band.cls}`, attrs: { d: `${d}Z` } });
      path.append(svg(this.#doc, 'title', { text: band.name }));
      this.#svg.append(path);
    }
  }

  #drawLines(data: BucketChartData, x: (t: number) => number, y: (v: number) => number): void {
    for (const se of data.series) {
      let d = '';
      let open = false;
      for (let k = 0; k < data.buckets; k++) {
        const v = se.values[k];
        if (!(v > 0)) {
          open = false; // no requests in this bucket: a gap, not a zero
          continue;
        }
        const py = y(v).toFixed(1);
        d += `${open ? 'L' : 'M'}${x(k * data.bucket).toFixed(1)} ${py}H${x((k + 1) * data.bucket).toFixed(1)}`;
        open = true;
      }
      if (!d) continue;
      const path = svg(this.#doc, 'path', { class: `ss-line ${seriesClasses(se.id)}`, attrs: { d } });
      path.append(svg(this.#doc, 'title', { text: se.name }));
      this.#svg.append(path);
    }
  }
}
