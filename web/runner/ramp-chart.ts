// The ramp chart, hand-written SVG (see docs/WEB.md for why not a library):
// x is the script clock (NOW), y the effective weight; a step line per
// backend (chart-series.ts), a pick lane below (pick-lane.ts), and the
// playhead: a marker at the current clock and a caret at the current step.
// The run plays out: lines and picks are drawn in full up to the playhead
// and faint after it, so the ramp grows as it plays; with reduced motion, or
// at the last step, all is drawn in full. The faint part is a veil over the
// chart (two HTML boxes of the chart's own background, 72 % opaque) that
// the compositor slides with the playhead: no repaint in a frame of
// playing. (An SVG mask moved with the playhead did the same look, but
// Chromium rasterized the whole masked chart again in every frame: about
// four times the page thread's own work per frame, headless.) Predict
// mode has no future to veil: only the steps revealed are drawn. The
// playhead's marks (clock line and label, caret, ring) are a small SVG of
// their own over the chart, so moving them in every frame lays out and
// repaints those four marks, not the chart.
// This module composes them, follows the element's width, moves the
// playhead and turns clicks into seeks. An overlay (chart-overlay.ts) can
// draw a second run of the same script on top: the implement mode's
// learner's weights and picks over the reference's. In predict mode the
// chart is given how many steps it may show (setReveal) and draws only
// those (timeline-prefix.ts), on the whole run's clock axis.
import type { Timeline } from '../api/index.js';
import { drawAxes } from './chart-axes.js';
import { ChartFrame } from './chart-frame.js';
import { buildChartModel, formatClock, revealedModel, type ChartModel } from './chart-model.js';
import { drawOverlay, mergeModels, overlayFits, renderOverlayKey, sameRun } from './chart-overlay.js';
import { drawSeries } from './chart-series.js';
import { h, setText, svg } from '../shared/dom.js';
import type { ExportKey } from '../shared/exports.js';
import { count, plural } from '../shared/format.js';
import { morphSketch, setAttr } from '../shared/morph.js';
import { MAX_SERIES } from '../shared/palette.js';
import { drawPickLane } from './pick-lane.js';
import { NO_WINNER } from '../api/winners.js';
import { timelinePrefix } from './timeline-prefix.js';

export interface RampChartOptions {
  /** Accessible name prefix, e.g. "Ramp chart". */
  label: string;
  /** The user clicked or dragged on the chart to this step. */
  onSeek(step: number): void;
  /** At most this many backends get a line and a lane row (default MAX_SERIES). */
  maxSeries?: number;
  /** The plot's height at most, px (default 340; it follows the width down to 150). */
  maxPlotHeight?: number;
  /** Read at every move: true draws the whole run at once (no playing out). */
  reducedMotion?: () => boolean;
}


interface Overlay {
  timeline: Timeline;
  model: ChartModel;
  label: string;
}

export class RampChart {
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #svg: SVGSVGElement;

  /** Predict mode: how many steps are shown (null: all). */
  #reveal: number | null = null;
  #revealNote = '';

  /**
   * Predict mode: draws the run's first `steps` steps only (null: all of
   * it), nothing after them, not even faint; `note` says what is held back.
   * A new run (setTimeline) then starts from none until this says more.
   */
  setReveal(steps: number | null, note = ''): void {
    this.#reveal = steps === null ? null : Math.max(0, steps);
    this.#revealNote = note;
    this.#applyReveal();
    this.#draw();
  }

  /** Steps drawn (the run's, or in predict mode those revealed). */
  get shownSteps(): number {
    return this.#timeline?.length ?? 0;
  }

  /**
   * What an export names: a title (the chart's accessible name, its first
   * sentence) and a key, each backend with a line drawn, in the chart's order.
   */
  exportParts(): { title: string; key: ExportKey[] } {
    const t = this.#timeline;
    const label = this.#svg.getAttribute('aria-label') ?? this.#options.label;
    const title = `slowstart · ${label.split('. ')[0].replace(/\.$/, '')}`;
    if (!t || !this.#frame) return { title, key: [] };
    const key: ExportKey[] = [];
    this.#svg.querySelectorAll<SVGPathElement>('.ss-series > path').forEach((path, id) => {
      if (path.getAttribute('d')) key.push({ name: t.names[id], sample: path });
    });
    return { title, key };
  }

  /** The chart's SVG (for export). */
  get svgElement(): SVGSVGElement {
    return this.#svg;
  }
  readonly #note: HTMLParagraphElement;
  readonly #overlayKey: HTMLParagraphElement;
  readonly #options: RampChartOptions;
  // Playhead parts, kept across redraws and moved each frame.
  readonly #clockLine: SVGLineElement;
  readonly #clockLabel: SVGTextElement;
  readonly #caret: SVGLineElement;
  readonly #pickRing: SVGRectElement;
  // The veils over what is still to come, while the run plays out: over the plot, over the lane.
  readonly #veils: [HTMLDivElement, HTMLDivElement];
  #veiled = ['', ''];
  // The chart's parts, kept across redraws: the plot (axes, lines, lane,
  // overlay: redrawn from scratch, then morphed into the live one, so an
  // edit touches only what it changed); and over the chart, the playhead's
  // marks in an SVG of their own.
  readonly #plot: SVGGElement;
  readonly #marks: SVGSVGElement;
  readonly #playhead: SVGGElement;
  #ran = false;
  /** The run, and its model. */
  #full: Timeline | null = null;
  #fullModel: ChartModel | null = null;
  /** What is drawn: the run, or in predict mode its first steps (maybe none). */
  #timeline: Timeline | null = null;
  #model: ChartModel | null = null;
  #frame: ChartFrame | null = null;
  #overlay: Overlay | null = null;
  #step = 0;
  #frac = 0;
  #width = 0;

  constructor(parent: HTMLElement, options: RampChartOptions) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#options = options;
    this.element = h(doc, 'div', { class: 'ss-chart' });
    this.#svg = svg(doc, 'svg', { class: 'ss-chart-svg', attrs: { role: 'img', 'aria-label': options.label } });
    this.#note = h(doc, 'p', { class: 'ss-chart-note' });
    this.#note.hidden = true;
    this.#overlayKey = h(doc, 'p', { class: 'ss-overlay-key' });
    this.#overlayKey.hidden = true;
    this.#veils = [
      h(doc, 'div', { class: 'ss-veil ss-veil-plot', attrs: { 'aria-hidden': 'true' } }),
      h(doc, 'div', { class: 'ss-veil ss-veil-lane', attrs: { 'aria-hidden': 'true' } }),
    ];
    for (const v of this.#veils) v.hidden = true;
    this.#clockLine = svg(doc, 'line', { class: 'ss-clock-line' });
    this.#clockLabel = svg(doc, 'text', { class: 'ss-clock-label' });
    this.#caret = svg(doc, 'line', { class: 'ss-caret' });
    this.#pickRing = svg(doc, 'rect', { class: 'ss-pick-ring', attrs: { rx: '1.5', width: '8' } });
    this.#marks = svg(doc, 'svg', { class: 'ss-chart-marks', attrs: { 'aria-hidden': 'true' } });
    this.#playhead = svg(doc, 'g', { class: 'ss-playhead' }, this.#clockLine, this.#caret, this.#pickRing, this.#clockLabel);
    this.#marks.append(this.#playhead);
    this.#marks.toggleAttribute('hidden', true);
    this.element.append(this.#overlayKey, h(doc, 'div', { class: 'ss-chart-frame' }, this.#svg, ...this.#veils, this.#marks), this.#note);
    parent.append(this.element);

    this.#plot = svg(doc, 'g', { class: 'ss-plot' });

    // The width is kept from the observer, so a run never forces a layout.
    // Redraw on the next frame, not inside the observer: a redraw changes
    // the page's height, which can bring a scrollbar and change the width.
    let pending = 0;
    new ResizeObserver((entries) => {
      const width = Math.floor(entries[entries.length - 1].contentRect.width);
      cancelAnimationFrame(pending);
      pending = requestAnimationFrame(() => {
        if (width === this.#width) return;
        this.#width = width;
        this.#draw();
      });
    }).observe(this.element);
    this.#listenForSeek();
  }

  /**
   * A new run (null: nothing to draw). Redraws everything. An overlay stays
   * only if this run recorded exactly what the previous one did (the same
   * script run again); otherwise it belonged to another script and goes.
   */
  setTimeline(timeline: Timeline | null): void {
    this.#ran = true;
    const previous = this.#full;
    this.#full = timeline && timeline.length > 0 ? timeline : null;
    this.#fullModel = this.#full ? buildChartModel(this.#full) : null;
    if (this.#reveal !== null) this.#reveal = 0;
    this.#applyReveal();
    if (this.#overlay && !(previous && this.#full && sameRun(previous, this.#full))) this.#setOverlay(null);
    this.#draw();
  }

  #applyReveal(): void {
    const full = this.#full;
    if (!full || this.#reveal === null || this.#reveal >= full.length) {
      this.#timeline = full;
      this.#model = this.#fullModel;
      return;
    }
    this.#timeline = timelinePrefix(full, this.#reveal);
    this.#model = revealedModel(this.#fullModel!, this.#timeline);
  }

  // Predict mode: the lines go on to where the clock next moves (the state
  // shown holds until then), not to the chart's end; all of it at a clock
  // that never moves again, so a run at clock 0 draws its lines across.
  #lineEnd(f: ChartFrame): number {
    const t = this.#timeline;
    const full = this.#fullModel;
    if (this.#reveal === null || !t || !full || t.length === 0 || t === this.#full) return f.right;
    const x = full.stepX[t.length - 1];
    for (let i = t.length; i < full.stepX.length; i++) if (full.stepX[i] > x) return f.x(full.stepX[i]);
    return f.right;
  }

  /**
   * Draws another run of the current script over it: its weights dashed and
   * thinner in the same colours, and its picks (outlined) where they differ.
   * `label` says whose weights they are, e.g. "your effectiveWeight";
   * `caption` (optional) leads the key, e.g. which test this is. Null
   * removes the overlay; a run of another script is not drawn.
   */
  setOverlay(timeline: Timeline | null, label = 'your effectiveWeight', caption = ''): void {
    this.#setOverlay(timeline, label, caption);
    this.#draw();
  }

  /** Whether an overlay is drawn (for the tests and the implement mode). */
  get hasOverlay(): boolean {
    return this.#overlay !== null;
  }

  /** Moves the playhead to `step`, `frac` of the way to the next (0 when not gliding). */
  setPlayhead(step: number, frac = 0): void {
    this.#step = step;
    this.#frac = frac;
    this.#placePlayhead();
  }

  #setOverlay(timeline: Timeline | null, label = '', caption = ''): void {
    const reference = this.#full;
    const fits = timeline && timeline.length > 0 && reference && overlayFits(reference, timeline);
    this.#overlay = fits ? { timeline, model: buildChartModel(timeline), label } : null;
    const key = this.#overlayKey;
    key.hidden = !this.#overlay;
    if (!this.#overlay) {
      key.replaceChildren();
      return;
    }
    renderOverlayKey(key, reference!, timeline!, label, caption);
  }

  #draw(): void {
    const t = this.#timeline;
    const o = this.#overlay;
    const m = this.#model && o ? mergeModels(this.#model, o.model) : this.#model;
    const doc = this.#doc;
    const root = this.#svg;
    if (!t || !m || this.#width <= 0) {
      this.#frame = null;
      root.setAttribute('viewBox', `0 0 ${Math.max(this.#width, 1)} 60`);
      root.setAttribute('height', '60');
      this.#marks.toggleAttribute('hidden', true);
      for (const v of this.#veils) v.hidden = true;
      root.replaceChildren(
        svg(doc, 'text', {
          class: 'ss-chart-empty',
          text: this.#ran
            ? 'Nothing to draw yet: a POOL or ADD line starts the chart.'
            : 'Not run yet: press Run to draw the chart.',
          attrs: { x: '12', y: '34' },
        }),
      );
      this.#note.hidden = true;
      return;
    }

    const f = (this.#frame = new ChartFrame(m, this.#width, t.names.length, this.#options.maxSeries ?? MAX_SERIES, this.#options.maxPlotHeight));
    const fresh = [drawAxes(f, m), drawSeries(f, t, m, this.#lineEnd(f)), drawPickLane(f, t)];
    if (o) fresh.push(drawOverlay(f, t, o.timeline, o.model, o.label));
    if (root.firstChild !== this.#plot) root.replaceChildren(this.#plot);
    for (const el of [root, this.#marks]) {
      setAttr(el, 'viewBox', `0 0 ${f.width} ${f.height}`);
      setAttr(el, 'width', String(f.width));
      setAttr(el, 'height', String(f.height));
    }
    this.#marks.toggleAttribute('hidden', false);
    morphSketch(this.#plot, fresh);
    const jumps = Math.max(0, m.stretches.length - 1);
    const n = t.names.length;
    const part = t !== this.#full;
    const upTo = part ? (t.length ? ` so far, up to line ${t.stepLine[t.length - 1]}` : ' so far: nothing yet') : '';
    setAttr(
      root,
      'aria-label',
      `${this.#options.label}${upTo}: effective weight of ${plural(n, 'backend')} from clock 0 to ${formatClock(m.maxNow)} s, ` +
        `and ${plural(m.picks, 'pick')}.${jumps ? ` The clock goes back ${jumps === 1 ? 'once' : `${jumps} times`} (a marked jump).` : ''}` +
        `${o ? ` Dashed: ${o.label}.` : ''} The Table has the same data as text.`,
    );

    const hidden = n - f.seriesCount;
    const note = [
      part ? this.#revealNote : '',
      hidden > 0 ? `The chart shows the first ${f.seriesCount} of ${count(n)} backends.` : '',
      t.truncated ? 'The script is too long to chart in full; the chart stops early.' : '',
    ]
      .filter(Boolean)
      .join(' ');
    this.#note.hidden = note === '';
    setText(this.#note, note);
    this.#placePlayhead();
  }

  #placePlayhead(): void {
    const t = this.#timeline;
    const f = this.#frame;
    if (!t || !f) return;
    // Predict mode before anything is shown: no playhead.
    setAttr(this.#playhead, 'visibility', t.length ? 'visible' : 'hidden');
    if (t.length === 0) {
      this.#playOut(f, null);
      return;
    }
    const i = Math.max(0, Math.min(t.length - 1, this.#step));
    const j = Math.min(t.length - 1, i + 1);
    const k = j > i ? this.#frac : 0; // gliding between steps i and j
    const m = this.#model!;
    const cx = Math.round(f.x(m.stepX[i] + (m.stepX[j] - m.stepX[i]) * k)) + 0.5;
    const px = f.laneX(i) + (f.laneX(j) - f.laneX(i)) * k;
    // Nothing to play out in predict mode: what is not revealed is not drawn.
    const full = this.#reveal !== null || i === t.length - 1 || (this.#options.reducedMotion?.() ?? false);
    this.#playOut(f, full ? null : { cx, px });
    setLine(this.#clockLine, cx, f.plotTop - 4, cx, f.plotBottom);
    setLine(this.#caret, px, f.laneTop - 6, px, f.laneTop + f.laneH + 3);
    this.#clockLabel.setAttribute('x', String(Math.min(Math.max(cx, f.left + 30), f.right - 30)));
    this.#clockLabel.setAttribute('y', String(f.plotTop - 8));
    setText(this.#clockLabel, `now ${formatClock(t.stepNow[i])} s`);

    // A ring around the current step's pick.
    const w = t.stepWinner[i];
    const ring = w === NO_WINNER || (w >= 0 && w < f.seriesCount);
    this.#pickRing.setAttribute('visibility', ring ? 'visible' : 'hidden');
    if (ring) {
      this.#pickRing.setAttribute('x', String(px - 4));
      this.#pickRing.setAttribute('y', String(f.rowY(w === NO_WINNER ? f.seriesCount : w) - 1));
      this.#pickRing.setAttribute('height', String(f.rowH + 2));
    }
  }

  // Full up to the playhead and faint after it; everything in full when
  // `at` is null. The plot's cut is at the clock (the clock's label above
  // it stays clear), the lane's just past the current step's tick and the
  // ring around it.
  #playOut(f: ChartFrame, at: { cx: number; px: number } | null): void {
    const bottom = f.laneTop + f.laneH + 4;
    const cuts: Array<[number, number, number]> = at
      ? [
          [at.cx + 1, f.plotTop - 2, f.laneTop - 2], // the plot and its x labels: lines up to the clock (its line clear)
          [at.px + 4, f.laneTop - 2, bottom], // the lane: picks up to the current step's
        ]
      : [];
    this.#veils.forEach((veil, k) => {
      const cut = cuts[k];
      veil.hidden = !cut;
      if (!cut) return;
      const [x, top, end] = cut;
      // Only what changed is written: in a frame of playing, the transform alone (the compositor's).
      const box = `${top}/${end - top}/${f.width}`;
      if (this.#veiled[k] !== box) {
        this.#veiled[k] = box;
        veil.style.top = `${top}px`;
        veil.style.height = `${end - top}px`;
        veil.style.width = `${f.width}px`;
      }
      veil.style.transform = `translateX(${Math.max(0, x)}px)`;
    });
  }

  #listenForSeek(): void {
    const seekAt = (e: PointerEvent) => {
      const t = this.#timeline;
      const f = this.#frame;
      if (!t || !f) return;
      const x = e.clientX - this.#svg.getBoundingClientRect().left;
      // The nearest step on the lane; a tie goes to the later step.
      let best = 0;
      let bestD = Infinity;
      for (let i = 0; i < t.length; i++) {
        const d = Math.abs(f.laneX(i) - x);
        if (d <= bestD) {
          bestD = d;
          best = i;
        }
      }
      this.#options.onSeek(best);
    };
    this.#svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      this.#svg.setPointerCapture(e.pointerId);
      seekAt(e);
    });
    this.#svg.addEventListener('pointermove', (e) => {
      if (this.#svg.hasPointerCapture(e.pointerId)) seekAt(e);
    });
  }
}

function setLine(el: SVGLineElement, x1: number, y1: number, x2: number, y2: number): void {
  setAttr(el, 'x1', String(x1));
  setAttr(el, 'y1', String(y1));
  setAttr(el, 'x2', String(x2));
  setAttr(el, 'y2', String(y2));
}
