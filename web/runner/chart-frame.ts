// The ramp chart's geometry for one width: where the plot and the pick lane
// are, and how clock, weight and step map to pixels. Pure: no DOM.
import type { ChartModel } from './chart-model.js';

const M_LEFT = 72; // y tick labels and lane row names
const M_RIGHT = 16;
const M_TOP = 24; // the playhead's "now" label
const X_AXIS = 34; // x tick labels and axis title, between the plot and the lane
const LANE_MAX = 168; // the lane's height at most
const BOTTOM = 8;
const Y_PAD_BOTTOM = 8; // weight 0 sits this far above the x axis
const Y_HEADROOM = 0.1; // the largest weight sits this share of the plot below its top
const MAX_SLOT_PX = 7; // widest spacing of the steps of one burst
const MAX_DODGE = 3; // px between lines of equal weight...
const DODGE_SPAN = 12; // ...and across all of them

export class ChartFrame {
  readonly width: number;
  readonly height: number;
  readonly left = M_LEFT;
  readonly right: number;
  readonly plotTop = M_TOP;
  readonly plotH: number;
  readonly plotBottom: number;
  readonly plotW: number;
  readonly laneTop: number;
  readonly laneH: number;
  readonly rowH: number;
  /** Lane rows: one per charted backend, then NONE if any pick found no one. */
  readonly rows: number;
  /** Backends with a line and a lane row (ids 0 .. seriesCount-1). */
  readonly seriesCount: number;
  readonly hasNone: boolean;
  readonly #model: ChartModel;
  readonly #unit: number; // px per second

  constructor(model: ChartModel, width: number, backends: number, maxSeries: number, maxPlotH = 340) {
    this.#model = model;
    this.width = width;
    this.seriesCount = Math.min(backends, maxSeries);
    this.hasNone = model.hasNone;
    this.rows = this.seriesCount + (this.hasNone ? 1 : 0);
    // The plot's height follows the width, within bounds.
    this.plotH = Math.round(Math.min(maxPlotH, Math.max(150, width * 0.42)));
    this.plotBottom = this.plotTop + this.plotH;
    this.plotW = Math.max(1, width - M_LEFT - M_RIGHT);
    this.right = M_LEFT + this.plotW;
    this.rowH = Math.max(3, Math.min(14, Math.floor(LANE_MAX / Math.max(1, this.rows))));
    this.laneTop = this.plotBottom + X_AXIS;
    this.laneH = this.rowH * this.rows;
    this.height = this.laneTop + this.laneH + BOTTOM;
    this.#unit = this.plotW / (model.xMax - model.xMin);
  }

  /** x pixel of a point on the model's x scale (a clock value, shifted past any jump back). */
  x(at: number): number {
    return M_LEFT + (at - this.#model.xMin) * this.#unit;
  }

  /** Pixels per second of clock. */
  get unit(): number {
    return this.#unit;
  }

  /**
   * y pixel of a weight. Weight 0 sits a little above the axis, so a line at
   * 0 never hides in it; the largest weight leaves room above it.
   */
  y(weight: number): number {
    const h = (this.plotH - Y_PAD_BOTTOM) * (1 - Y_HEADROOM);
    return this.plotBottom - Y_PAD_BOTTOM - (weight / this.#model.yMax) * h;
  }

  /**
   * How far backend `id`'s line is nudged, so lines of equal weight do not
   * hide each other (the exact values are in the legend and the table).
   */
  dodge(id: number): number {
    const n = this.seriesCount;
    if (n < 2) return 0;
    return (id - (n - 1) / 2) * Math.min(MAX_DODGE, DODGE_SPAN / (n - 1));
  }

  /** Top of a lane row. */
  rowY(row: number): number {
    return this.laneTop + row * this.rowH;
  }

  /** x pixel of a step on the lane: its clock, then its place in its burst. */
  laneX(step: number): number {
    const m = this.#model;
    return this.x(m.stepX[step]) + m.stepRank[step] * Math.min(MAX_SLOT_PX, m.stepSlot[step] * this.#unit);
  }
}
