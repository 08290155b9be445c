// Tiny DOM builders. Every piece of text goes in through textContent (or an
// SVG text node), never through innerHTML: backend names are user data and
// may look like markup.

export const SVG_NS = 'http://www.w3.org/2000/svg';

export interface ElementProps {
  class?: string;
  text?: string;
  attrs?: Record<string, string>;
}

/** Creates an HTML element in `doc` (the runner's own document, never a global). */
export function h<K extends keyof HTMLElementTagNameMap>(
  doc: Document,
  tag: K,
  props: ElementProps = {},
  ...children: Node[]
): HTMLElementTagNameMap[K] {
  const el = doc.createElement(tag);
  apply(el, props);
  for (const child of children) el.append(child);
  return el;
}

/** Creates an SVG element; `attrs` are plain attribute values. */
export function svg<K extends keyof SVGElementTagNameMap>(
  doc: Document,
  tag: K,
  props: ElementProps = {},
  ...children: Node[]
): SVGElementTagNameMap[K] {
  const el = doc.createElementNS(SVG_NS, tag) as SVGElementTagNameMap[K];
  apply(el, props);
  for (const child of children) el.append(child);
  return el;
}

function apply(el: Element, props: ElementProps): void {
  if (props.class) el.setAttribute('class', props.class);
  if (props.text !== undefined) el.textContent = props.text;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
}

/** Sets an element's text only when it changed (cheap to call every frame). */
export function setText(el: Element, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}

/** A short unique id prefix, so several runners can share one document. */
let counter = 0;
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}
