// A drawing's parts as plain objects (a tag, its attributes, its text and
// children), for a view that redraws from scratch on every edit and then
// morphs the result into its live DOM (morph.ts's morphSketch). Building the
// fresh parts as real SVG elements, only to throw most of them away in the
// morph, was most of the ramp chart's redraw (createElementNS alone, PL-29);
// a sketch costs an object per part, and an element is made only where the
// live DOM has none to keep.
import type { ElementProps } from './dom.js';

export class Sketch {
  readonly attrs: Record<string, string> = {};
  /** Text (a text node) and parts, in order. */
  readonly children: (Sketch | string)[] = [];

  constructor(readonly tag: string) {}

  append(...parts: (Sketch | string)[]): void {
    for (const p of parts) this.children.push(p);
  }
}

/** The sketch of an SVG element: `props` as svg() (dom.ts) takes them (class, text, attributes, in that order). */
export function sketch(tag: keyof SVGElementTagNameMap, props: ElementProps = {}, ...children: Sketch[]): Sketch {
  const s = new Sketch(tag);
  if (props.class) s.attrs.class = props.class;
  if (props.text !== undefined && props.text !== '') s.children.push(props.text);
  if (props.attrs) Object.assign(s.attrs, props.attrs);
  s.append(...children);
  return s;
}
