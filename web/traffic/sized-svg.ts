// An SVG that fills its box's width and is redrawn when that width changes,
// so text never scales: the Traffic view's charts and lanes. The width is
// the one the ResizeObserver last reported, never read from the layout
// while drawing: a dozen charts redrawn in one task, each asking for its
// width after the one before changed the page, made a dozen layouts of the
// whole page (most of a keystroke's 200 ms with the lab open).
import { h, svg } from '../shared/dom.js';

/** The width drawn at before the box has been laid out (the observer then redraws at the real one). */
const FIRST_WIDTH = 640;

export class SizedSvg {
  readonly element: HTMLDivElement;
  readonly svg: SVGSVGElement;
  #width = 0; // the box's width, as last observed (0: not yet)
  #drawn = 0; // the width of the last drawing

  /** `draw` is called with the new width whenever it changes. */
  constructor(parent: HTMLElement, className: string, label: string, draw: () => void) {
    const doc = parent.ownerDocument;
    this.element = h(doc, 'div', { class: className });
    this.svg = svg(doc, 'svg', { class: 'ss-chart-svg', attrs: { role: 'img', 'aria-label': label } });
    this.element.append(this.svg);
    parent.append(this.element);
    const view = doc.defaultView;
    if (view && 'ResizeObserver' in view) {
      new view.ResizeObserver((entries) => {
        const w = Math.round(entries[entries.length - 1].contentRect.width);
        if (w <= 0) return; // hidden: keep the last width
        this.#width = w;
        if (w !== this.#drawn) draw();
      }).observe(this.element);
    }
  }

  /** Empties the SVG and sizes it for a drawing: the box's width (at least 240 px), `height`. */
  reset(height: number): number {
    const width = (this.#drawn = Math.max(240, this.#width || FIRST_WIDTH));
    const s = this.svg;
    s.setAttribute('viewBox', `0 0 ${width} ${height}`);
    s.setAttribute('width', String(width));
    s.setAttribute('height', String(height));
    s.replaceChildren();
    return width;
  }
}
