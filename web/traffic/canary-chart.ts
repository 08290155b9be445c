// The "Your system" panel's chart of a canary restart: each request's
// latency as a dot over seconds since the backend started, and the fitted
// cold start drawn over them (coldLatency: warm time x (1 + (cold - 1) x
// coldness)), so the fit can be judged by eye. Sized to its box's width.
import { coldLatency, type CanaryFit } from '../api/your-system.js';
import { svg } from '../shared/dom.js';
import { formatTick, niceTicks } from '../shared/ticks.js';
import { SizedSvg } from './sized-svg.js';

const M = { left: 52, right: 12, top: 10, bottom: 32 };
/** More dots than this are thinned evenly (the fit used them all). */
const MAX_DOTS = 2500;

export class CanaryChart {
  readonly element: HTMLDivElement;
  readonly #box: SizedSvg;
  readonly #height: number;
  #fit: CanaryFit | null = null;

  constructor(parent: HTMLElement, height = 220) {
    this.#height = height;
    this.#box = new SizedSvg(parent, 'ss-canary-chart', 'The canary’s latency per request and the fitted cold start', () => this.#draw());
    this.element = this.#box.element;
  }

  set(fit: CanaryFit | null): void {
    this.#fit = fit;
    this.element.hidden = !fit || fit.t.length === 0;
    this.#draw();
  }

  #draw(): void {
    const fit = this.#fit;
    const width = this.#box.reset(this.#height);
    if (!fit || fit.t.length === 0) return;
    const s = this.#box.svg;
    const doc = s.ownerDocument;
    const n = fit.t.length;
    const tMax = Math.max(fit.t[n - 1], 1e-3);
    // The y axis to the 99th percentile (a few outliers would flatten the rest), and the curve's top.
    const sorted = Float64Array.from(fit.latencyMs).sort();
    const top = Math.max(sorted[Math.min(n - 1, Math.floor(n * 0.99))], fit.coldStart ? coldLatency(fit, 0) : 0, 1) * 1.1;
    const plotW = width - M.left - M.right;
    const plotH = this.#height - M.top - M.bottom;
    const x = (t: number) => M.left + (t / tMax) * plotW;
    const y = (ms: number) => M.top + plotH - (Math.min(ms, top) / top) * plotH;

    for (const v of niceTicks(0, top, 4)) {
      s.append(svg(doc, 'line', { class: 'ss-grid', attrs: { x1: `${M.left}`, x2: `${M.left + plotW}`, y1: `${y(v)}`, y2: `${y(v)}` } }));
      s.append(svg(doc, 'text', { class: 'ss-tick ss-tick-y', text: formatTick(v), attrs: { x: `${M.left - 6}`, y: `${y(v)}` } }));
    }
    for (const v of niceTicks(0, tMax, 8))
      s.append(svg(doc, 'text', { class: 'ss-tick ss-tick-x', text: `${formatTick(v)} s`, attrs: { x: `${x(v)}`, y: `${M.top + plotH + 16}` } }));
    s.append(svg(doc, 'text', { class: 'ss-axis-title', text: 'ms', attrs: { x: '4', y: `${M.top + 10}` } }));
    s.append(svg(doc, 'line', { class: 'ss-axis', attrs: { x1: `${M.left}`, x2: `${M.left + plotW}`, y1: `${M.top + plotH}`, y2: `${M.top + plotH}` } }));

    // The dots as one path of tiny squares: thousands of rows stay one element.
    const step = Math.max(1, Math.ceil(n / MAX_DOTS));
    let dots = '';
    for (let i = 0; i < n; i += step) dots += `M${x(fit.t[i]).toFixed(1)} ${y(fit.latencyMs[i]).toFixed(1)}h2v2h-2z`;
    s.append(svg(doc, 'path', { class: 'ss-canary-dots', attrs: { d: dots } }));

    if (fit.refused || fit.serviceMs === undefined) return;
    // The fitted curve: by time at each t, or by requests at each row's index (requests before it).
    const byRequests = fit.warmBy === 'requests';
    let d = '';
    const points = Math.min(n, 400);
    for (let k = 0; k < points; k++) {
      const i = Math.round((k / Math.max(1, points - 1)) * (n - 1));
      const ms = coldLatency(fit, byRequests ? i : fit.t[i]);
      d += `${k ? 'L' : 'M'}${x(fit.t[i]).toFixed(1)} ${y(ms).toFixed(1)}`;
    }
    s.append(svg(doc, 'path', { class: 'ss-canary-fit', attrs: { d } }, svg(doc, 'title', { text: 'the fitted cold start' })));
  }
}
