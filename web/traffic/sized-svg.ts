// An SVG that fills its box's width and is redrawn when that width changes
// (ResizeObserver), so text never scales: the Traffic view's charts and lanes.
import { h, svg } from '../shared/dom.js';

export class SizedSvg {
  readonly element: HTMLDivElement;
  readonly svg: SVGSVGElement;
  #width = 0;

  /** `draw` is called with the new width whenever it changes. */
  constructor(parent: HTMLElement, className: string, label: string, draw: () => void) {
    const doc = parent.ownerDocument;
    this.element = h(doc, 'div', { class: className });
    this.svg = svg(doc, 'svg', { class: 'ss-chart-svg', attrs: { role: 'img', 'aria-label': label } });
    this.element.append(this.svg);
    parent.append(this.element);
    const view = doc.defaultView;
    if (view && 'ResizeObserver' in view) {
      new view.ResizeObserver(() => {
        const w = Math.round(this.element.clientWidth);
        if (w > 0 && w !== this.#width) draw();
      }).observe(this.element);
    }
  }

  /** Empties the SVG and sizes it for a drawing: the box's width (at least 240 px), `height`. */
  reset(height: number): number {
    const width = (this.#width = Math.max(240, Math.round(this.element.clientWidth) || 640));
    const s = this.svg;
    s.setAttribute('viewBox', `0 0 ${width} ${height}`);
    s.setAttribute('width', String(width));
    s.setAttribute('height', String(height));
    s.replaceChildren();
    return width;
  }
}
