// What every time chart of the lab shares (bucket-chart.ts, state-lanes.ts):
// an SVG as wide as its box, x the time axis's window (time-axis.ts) with
// the same left and right margins in every chart (so a lane lines up with
// the chart above it), the script's events and the stable moment marked,
// the cursor drawn, and the pointer: hover moves the group's cursor, a drag
// zooms to the stretch dragged over, a double click shows the whole run.
import { svg } from '../shared/dom.js';
import { niceTicks } from '../shared/ticks.js';
import { SizedSvg } from './sized-svg.js';
import type { ScenarioEvent } from './scenario-events.js';
import type { TimeAxis } from './time-axis.js';
import { decimal, seconds } from './time-words.js';

export const MARGIN = { left: 52, right: 12 };
/** Rows of event names above a chart that names them, their height, and a name's width per character (10.5 px text). */
export const LABEL_ROWS = 3;
export const LABEL_ROW_PX = 11;
const LABEL_CHAR_PX = 6;

/** Pixels per drawn bar at least: buckets finer than this are added up. */
export const PX_PER_BIN = 3;

/** Marks on the time axis. */
export interface TimeMarks {
  events?: readonly ScenarioEvent[];
  /** When the run became stable (seconds), or null. */
  stableAt?: number | null;
}

/**
 * How a run's buckets are drawn in a window: bins of `size` buckets (1 when
 * the window is narrow enough for each to have PX_PER_BIN pixels), from bin
 * `first` to `last` inclusive. Bin b covers buckets [b·size, (b+1)·size).
 */
export interface Binning {
  size: number;
  first: number;
  last: number;
}

export function binning(axis: TimeAxis, bucket: number, buckets: number, plotW: number): Binning {
  const shown = Math.max(1, (axis.end - axis.start) / bucket);
  const size = Math.max(1, Math.ceil(shown / Math.max(1, plotW / PX_PER_BIN)));
  const first = Math.max(0, Math.floor(axis.start / bucket / size));
  const last = Math.max(first, Math.min(Math.ceil(buckets / size) - 1, Math.ceil(axis.end / bucket / size) - 1));
  return { size, first, last };
}

export class TimeFrame {
  readonly element: HTMLDivElement;
  readonly svg: SVGSVGElement;
  readonly axis: TimeAxis;
  readonly #box: SizedSvg;
  readonly #doc: Document;
  #cursorLine: SVGLineElement | null = null;
  #plot = { top: 0, bottom: 0, width: 0 };
  #drag: { from: number; rect: SVGRectElement } | null = null;
  /** The axis's extent changed and nothing has drawn since. */
  #stale = false;

  /** `draw` redraws the chart (the window changed, or its width). */
  constructor(parent: HTMLElement, className: string, label: string, axis: TimeAxis, draw: () => void) {
    this.#doc = parent.ownerDocument;
    this.axis = axis;
    this.#box = new SizedSvg(parent, className, label, draw);
    this.element = this.#box.element;
    this.svg = this.#box.svg;
    axis.listen((change) => {
      if (change === 'window') draw();
      else if (change === 'cursor') this.#placeCursor();
      else {
        // A new run's extent: its owner draws the new run next (which calls begin()). One it does
        // not redraw (a run left as it was) redraws itself in a task of its own.
        this.#stale = true;
        this.#doc.defaultView?.setTimeout(() => this.#stale && draw(), 0);
      }
    });
    this.#pointer();
  }

  /** Empties the SVG for a drawing `height` tall; returns its width. */
  begin(height: number, plotTop: number, plotBottom: number): number {
    this.#stale = false;
    const width = this.#box.reset(height);
    this.#plot = { top: plotTop, bottom: plotBottom, width: width - MARGIN.left - MARGIN.right };
    this.#cursorLine = null;
    return width;
  }

  get plotWidth(): number {
    return this.#plot.width;
  }

  /** x of time `t` in the window. */
  x(t: number): number {
    const a = this.axis;
    return MARGIN.left + ((t - a.start) / (a.end - a.start || 1)) * this.#plot.width;
  }

  /** Time under x (clamped to the window). */
  timeAt(px: number): number {
    const a = this.axis;
    const f = Math.min(1, Math.max(0, (px - MARGIN.left) / (this.#plot.width || 1)));
    return a.start + f * (a.end - a.start);
  }

  /** Tick labels under the plot, at `y`. */
  drawTimeTicks(y: number): void {
    const a = this.axis;
    for (const t of niceTicks(a.start, a.end, Math.max(2, Math.floor(this.#plot.width / 80)), 0)) {
      const label = `${decimal(t)}s`;
      this.svg.append(svg(this.#doc, 'text', { class: 'ss-tick ss-tick-x', text: label, attrs: { x: `${this.x(t)}`, y: `${y}` } }));
    }
  }

  /**
   * The script's events (dashed lines over the plot) and the stable moment.
   * With `labels`, each event is named in the band above the plot
   * (LABEL_ROWS rows of it, from y 0): on the first row where it does not
   * cover another name; one that fits nowhere is named by its title alone
   * (and the table's caption).
   */
  drawMarks(marks: TimeMarks, labels: boolean): void {
    const { top, bottom } = this.#plot;
    const a = this.axis;
    const doc = this.#doc;
    const rowEnds = new Array<number>(LABEL_ROWS).fill(-Infinity);
    const right = MARGIN.left + this.#plot.width;
    for (const e of marks.events ?? []) {
      if (e.time < a.start || e.time > a.end) continue;
      const px = this.x(e.time);
      const g = svg(doc, 'g', { class: `ss-event ss-event-${e.command.toLowerCase()}` });
      g.append(svg(doc, 'line', { class: 'ss-event-line', attrs: { x1: `${px}`, x2: `${px}`, y1: `${labels ? 0 : top}`, y2: `${bottom}` } }));
      g.append(svg(doc, 'title', { text: `${seconds(e.time)}: ${e.label} (line ${e.line})` }));
      if (labels) {
        const width = e.label.length * LABEL_CHAR_PX + 6;
        // Past the right edge, the name goes to the left of its line.
        const [from, to, anchor] = px + width <= right ? [px, px + width, 'start'] : [px - width, px, 'end'];
        const row = rowEnds.findIndex((end) => end < from);
        if (row >= 0) {
          rowEnds[row] = to;
          const x = anchor === 'start' ? px + 3 : px - 3;
          g.append(svg(doc, 'text', { class: 'ss-event-label', text: e.label, attrs: { x: `${x}`, y: `${row * LABEL_ROW_PX + 9}`, 'text-anchor': anchor } }));
        }
      }
      this.svg.append(g);
    }
    const stable = marks.stableAt;
    if (stable !== undefined && stable !== null && stable >= a.start && stable <= a.end) {
      const px = this.x(stable);
      const g = svg(doc, 'g', { class: 'ss-stable' });
      g.append(svg(doc, 'line', { class: 'ss-stable-line', attrs: { x1: `${px}`, x2: `${px}`, y1: `${top}`, y2: `${bottom}` } }));
      g.append(svg(doc, 'title', { text: `Stable from ${seconds(stable)}` }));
      if (labels) g.append(svg(doc, 'text', { class: 'ss-stable-label', text: 'stable', attrs: { x: `${px - 3}`, y: `${bottom - 4}` } }));
      this.svg.append(g);
    }
    this.#placeCursor();
  }

  // The cursor's line, moved without a redraw.
  #placeCursor(): void {
    const t = this.axis.cursor;
    const { top, bottom } = this.#plot;
    if (t === null || t < this.axis.start || t > this.axis.end || !this.#plot.width) {
      this.#cursorLine?.remove();
      this.#cursorLine = null;
      return;
    }
    if (!this.#cursorLine) {
      this.#cursorLine = svg(this.#doc, 'line', { class: 'ss-cursor-line' });
      this.svg.append(this.#cursorLine);
    }
    const px = `${this.x(t).toFixed(1)}`;
    for (const [k, v] of [['x1', px], ['x2', px], ['y1', `${top}`], ['y2', `${bottom}`]]) this.#cursorLine.setAttribute(k, v);
  }

  // Hover: the cursor follows. Drag: the stretch dragged over is shown. Double click: the whole run.
  #pointer(): void {
    const s = this.svg;
    const at = (e: PointerEvent | MouseEvent) => {
      const r = s.getBoundingClientRect();
      return (e.clientX - r.left) * (Number(s.getAttribute('width')) / (r.width || 1));
    };
    s.addEventListener('pointermove', (e) => {
      const px = at(e);
      this.axis.cursor = this.timeAt(px);
      const d = this.#drag;
      if (!d) return;
      const [a, b] = [Math.min(d.from, px), Math.max(d.from, px)];
      d.rect.setAttribute('x', `${a}`);
      d.rect.setAttribute('width', `${b - a}`);
    });
    s.addEventListener('pointerleave', () => {
      if (!this.#drag) this.axis.cursor = null;
    });
    s.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      const { top, bottom } = this.#plot;
      const rect = svg(this.#doc, 'rect', { class: 'ss-zoom-drag', attrs: { x: `${at(e)}`, y: `${top}`, width: '0', height: `${bottom - top}` } });
      s.append(rect);
      this.#drag = { from: at(e), rect };
      s.setPointerCapture?.(e.pointerId);
    });
    const end = (e: PointerEvent) => {
      const d = this.#drag;
      if (!d) return;
      this.#drag = null;
      d.rect.remove();
      const to = at(e);
      if (Math.abs(to - d.from) >= 6) this.axis.show(this.timeAt(Math.min(d.from, to)), this.timeAt(Math.max(d.from, to)));
    };
    s.addEventListener('pointerup', end);
    s.addEventListener('pointercancel', () => {
      this.#drag?.rect.remove();
      this.#drag = null;
    });
    s.addEventListener('dblclick', () => this.axis.reset());
  }
}
