// Each backend's state over time, one lane per backend under a share chart:
// serving (its colour), ramping (its colour, lighter, striped), ejected
// (the error colour), out (nothing). The x axis matches BucketChart's
// (same left and right margins), so a lane lines up with the chart above.
// Names go in as SVG text only.
import type { Traffic } from '../api/index.js';
import { h, svg } from '../shared/dom.js';
import { seriesClasses } from '../shared/palette.js';
import { SizedSvg } from './sized-svg.js';

/** Lanes drawn at most (the rest are counted in the caption). */
export const LANES_SHOWN = 12;

const M = { left: 52, right: 12 };
const ROW = 13;
const STATE_CLASS = ['', 'ss-lane-serving', 'ss-lane-ramping', 'ss-lane-ejected'];
const STATE_NAME = ['out', 'serving', 'ramping', 'ejected'];

export class StateLanes {
  readonly element: HTMLDivElement;
  readonly #box: SizedSvg;
  readonly #caption: HTMLParagraphElement;
  readonly #doc: Document;
  #traffic: Traffic | null = null;

  constructor(parent: HTMLElement, label: string) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#box = new SizedSvg(parent, 'ss-lanes', label, () => this.#draw());
    this.element = this.#box.element;
    this.#caption = h(doc, 'p', { class: 'ss-lanes-key' });
    this.#caption.append(
      ...[1, 2, 3].map((s) =>
        h(doc, 'span', { class: 'ss-lanes-key-item' }, h(doc, 'span', { class: `ss-lanes-swatch ${STATE_CLASS[s]}`, attrs: { 'aria-hidden': 'true' } }), doc.createTextNode(STATE_NAME[s])),
      ),
    );
    this.element.append(this.#caption);
  }

  set(traffic: Traffic): void {
    this.#traffic = traffic;
    this.#draw();
  }

  #draw(): void {
    const t = this.#traffic;
    const doc = this.#doc;
    if (!t) return void this.#box.reset(0);
    const s = this.#box.svg;
    const n = t.names.length;
    const shown = Math.min(n, LANES_SHOWN);
    const width = this.#box.reset(shown * ROW + 2);
    const plotW = width - M.left - M.right;
    const x = (k: number) => M.left + (k / t.buckets) * plotW;
    for (let id = 0; id < shown; id++) {
      const y = id * ROW + 1;
      const text = svg(doc, 'text', { class: 'ss-tick ss-lane-name', text: t.names[id], attrs: { x: `${M.left - 6}`, y: `${y + ROW / 2}` } });
      s.append(text);
      const row = svg(doc, 'g', { class: seriesClasses(id) });
      // Runs of one state become one rectangle.
      for (let k = 0; k < t.buckets; ) {
        const state = t.state[k * n + id];
        let end = k + 1;
        while (end < t.buckets && t.state[end * n + id] === state) end++;
        if (state) {
          const rect = svg(doc, 'rect', {
            class: `ss-lane ${STATE_CLASS[state]}`,
            attrs: { x: x(k).toFixed(1), y: `${y}`, width: Math.max(1, x(end) - x(k)).toFixed(1), height: `${ROW - 3}` },
          });
          rect.append(svg(doc, 'title', { text: `${t.names[id]}: ${STATE_NAME[state]} ${k * t.bucket}–${end * t.bucket} s` }));
          row.append(rect);
        }
        k = end;
      }
      s.append(row);
    }
    if (n > shown) this.#caption.dataset.more = `first ${shown} of ${n} backends`;
    else delete this.#caption.dataset.more;
  }
}
