// Each backend's state over time, one lane per backend under a share chart:
// serving (its colour), ramping (its colour, lighter, dashed), ejected
// (dark), out (nothing). Drawn at the run's own bucket, not the chart's
// bins: every ejection and readmission shows where it happened (to the
// bucket, as the CLI's CSV says it), however short the stretch of serving
// between two ejections; zooming the time axis spreads them out. Each lane's
// title lists its stretches, and the key says how many times each backend
// was ejected. Names go in as SVG text only.
import type { Traffic } from '../api/index.js';
import { h, setText, svg } from '../shared/dom.js';
import { seriesClasses } from '../shared/palette.js';
import { MARGIN, TimeFrame, type TimeMarks } from './time-frame.js';
import { decimal as num, seconds } from './time-words.js';
import type { TimeAxis } from './time-axis.js';

/** Lanes drawn at most (the rest are counted in the key). */
export const LANES_SHOWN = 12;

const ROW = 14;
const STATE_CLASS = ['', 'ss-lane-serving', 'ss-lane-ramping', 'ss-lane-ejected'];
const STATE_NAME = ['out', 'serving', 'ramping', 'ejected'];
/** Stretches listed in a lane's title at most (the count says how many there are). */
const LISTED = 24;

/** A stretch of one state: buckets [from, to). */
export interface Stretch {
  state: number;
  from: number;
  to: number;
}

/** Backend `id`'s stretches over the whole run, at the run's bucket (one per change of state). */
export function stretches(t: Traffic, id: number): Stretch[] {
  const n = t.names.length;
  const out: Stretch[] = [];
  for (let k = 0; k < t.buckets; ) {
    const state = t.state[k * n + id];
    let end = k + 1;
    while (end < t.buckets && t.state[end * n + id] === state) end++;
    out.push({ state, from: k, to: end });
    k = end;
  }
  return out;
}

/** "41.3–80 s, 81.4–120 s": the stretches of one state, in seconds. */
export function listStretches(list: readonly Stretch[], bucket: number): string {
  const shown = list.slice(0, LISTED).map((s) => `${num(s.from * bucket)}–${seconds(s.to * bucket)}`);
  return shown.join(', ').replace(/ s(?=,)/g, '') + (list.length > LISTED ? `, and ${list.length - LISTED} more` : '');
}


export class StateLanes {
  readonly element: HTMLDivElement;
  readonly frame: TimeFrame;
  readonly #key: HTMLParagraphElement;
  readonly #counts: HTMLSpanElement;
  readonly #doc: Document;
  #traffic: Traffic | null = null;
  #marks: TimeMarks = {};
  #stretches: Stretch[][] = [];

  constructor(parent: HTMLElement, label: string, axis: TimeAxis) {
    const doc = (this.#doc = parent.ownerDocument);
    this.frame = new TimeFrame(parent, 'ss-lanes', label, axis, () => this.#draw());
    this.element = this.frame.element;
    this.#key = h(doc, 'p', { class: 'ss-lanes-key' });
    this.#key.append(
      ...[1, 2, 3].map((s) =>
        h(doc, 'span', { class: 'ss-lanes-key-item' }, h(doc, 'span', { class: `ss-lanes-swatch ${STATE_CLASS[s]}`, attrs: { 'aria-hidden': 'true' } }), doc.createTextNode(STATE_NAME[s])),
      ),
    );
    this.#counts = h(doc, 'span', { class: 'ss-lanes-counts' });
    this.#key.append(this.#counts);
    this.element.append(this.#key);
  }

  set(traffic: Traffic | null, marks: TimeMarks = {}): void {
    this.#traffic = traffic;
    this.#marks = marks;
    const t = traffic;
    this.#stretches = t ? t.names.slice(0, LANES_SHOWN).map((_, id) => stretches(t, id)) : [];
    this.#draw();
    if (!t) return void setText(this.#counts, '');
    const ejected = t.names.map((name, id) => ({ name, times: t.ejections[id] })).filter((e) => e.times > 0);
    setText(
      this.#counts,
      ejected.length
        ? `Ejected: ${ejected.map((e) => `${e.name} ${e.times === 1 ? 'once' : `${e.times.toLocaleString('en-US')} times`}`).join(', ')}.`
        : 'Nobody ejected.',
    );
    if (t.names.length > LANES_SHOWN) this.#key.dataset.more = `first ${LANES_SHOWN} of ${t.names.length} backends`;
    else delete this.#key.dataset.more;
  }

  /** The title of backend `id`'s lane: its stretches of each state, in seconds, and its ejections. */
  laneTitle(id: number): string {
    const t = this.#traffic;
    if (!t) return '';
    const list = this.#stretches[id] ?? stretches(t, id);
    const parts: string[] = [];
    for (const state of [3, 1, 2]) {
      const of = list.filter((s) => s.state === state);
      if (!of.length) continue;
      parts.push(`${STATE_NAME[state]} ${listStretches(of, t.bucket)}`);
    }
    const times = t.ejections[id];
    const head = `${t.names[id]}: ${times ? `ejected ${times === 1 ? 'once' : `${times.toLocaleString('en-US')} times`}` : 'never ejected'}`;
    return parts.length ? `${head}; ${parts.join('; ')}` : head;
  }

  #draw(): void {
    const t = this.#traffic;
    const f = this.frame;
    const doc = this.#doc;
    const shown = t ? Math.min(t.names.length, LANES_SHOWN) : 0;
    const height = shown * ROW + 2;
    f.begin(height, 0, height);
    if (!t) return;
    const clip = svg(doc, 'svg', { attrs: { x: `${MARGIN.left}`, y: '0', width: `${f.plotWidth}`, height: `${height}`, viewBox: `${MARGIN.left} 0 ${f.plotWidth} ${height}`, overflow: 'hidden' } });
    const a = f.axis;
    for (let id = 0; id < shown; id++) {
      const y = id * ROW + 1;
      f.svg.append(svg(doc, 'text', { class: 'ss-tick ss-lane-name', text: t.names[id], attrs: { x: `${MARGIN.left - 6}`, y: `${y + ROW / 2}` } }));
      const row = svg(doc, 'g', { class: `ss-lane-row ${seriesClasses(id)}` });
      row.append(svg(doc, 'title', { text: this.laneTitle(id) }));
      for (const s of this.#stretches[id]) {
        if (!s.state || s.to * t.bucket < a.start || s.from * t.bucket > a.end) continue;
        const x0 = f.x(s.from * t.bucket);
        const x1 = f.x(s.to * t.bucket);
        const rect = svg(doc, 'rect', {
          class: `ss-lane ${STATE_CLASS[s.state]}`,
          attrs: { x: x0.toFixed(1), y: `${y}`, width: Math.max(1, x1 - x0).toFixed(1), height: `${ROW - 4}` },
        });
        rect.append(svg(doc, 'title', { text: `${t.names[id]}: ${STATE_NAME[s.state]} ${num(s.from * t.bucket)}–${seconds(s.to * t.bucket)}` }));
        row.append(rect);
      }
      clip.append(row);
    }
    f.svg.append(clip);
    f.drawMarks(this.#marks, false);
  }
}
