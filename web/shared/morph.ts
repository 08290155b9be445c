// Brings a live DOM subtree in line with a freshly built one, changing only
// what differs. A view that redraws after every keystroke (the ramp chart,
// the legend) can build its parts from scratch, which keeps its code plain,
// and still leave the page's DOM alone where nothing changed: the browser
// then restyles, lays out and repaints only what did (a chart rebuilt whole
// was repainted whole after every edit of a 10,000-line script).
// morphSketch does the same from a sketch (sketch.ts): plain objects, so
// the fresh parts cost no elements (SVG).
import { SVG_NS } from './dom.js';
import type { Sketch } from './sketch.js';

/**
 * Makes `live`'s children match `fresh`'s: a live node of the same kind (the
 * same tag, or text) at the same place is kept and its attributes and text
 * brought in line; any other is replaced by the fresh node, and extra live
 * nodes go. `fresh` is emptied (its nodes may move into `live`).
 */
export function morphChildren(live: Element, fresh: Element): void {
  morphList(live, [...fresh.childNodes], sameKind, morphNode, (node) => node);
}

// Both morphs' walk: a live node that is `same` kind as the part at its
// place is kept and `update`d; any other is replaced by one `make` makes;
// extra live nodes go.
function morphList<T>(live: Element, fresh: readonly T[], same: (node: Node, part: T) => boolean, update: (node: Node, part: T) => void, make: (part: T) => Node): void {
  let at = live.firstChild;
  for (const part of fresh) {
    if (at && same(at, part)) {
      update(at, part);
      at = at.nextSibling;
    } else if (at) {
      const old = at;
      at = at.nextSibling;
      live.replaceChild(make(part), old);
    } else {
      live.append(make(part));
    }
  }
  while (at) {
    const extra = at;
    at = at.nextSibling;
    extra.remove();
  }
}

/** Sets `name` only when its value differs (an unchanged attribute is not touched). */
export function setAttr(el: Element, name: string, value: string): void {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}

function sameKind(a: Node, b: Node): boolean {
  if (a.nodeType !== b.nodeType) return false;
  return a.nodeType !== Node.ELEMENT_NODE || ((a as Element).namespaceURI === (b as Element).namespaceURI && (a as Element).localName === (b as Element).localName);
}

function morphNode(live: Node, fresh: Node): void {
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== fresh.nodeValue) live.nodeValue = fresh.nodeValue;
    return;
  }
  const a = live as Element;
  const b = fresh as Element;
  for (const name of a.getAttributeNames()) if (!b.hasAttribute(name)) a.removeAttribute(name);
  for (const name of b.getAttributeNames()) setAttr(a, name, b.getAttribute(name)!);
  morphChildren(a, b);
}

/**
 * Makes `live`'s children match the sketched `fresh` (SVG elements and
 * text) as morphChildren does: a live node of the same kind at the same
 * place is kept and brought in line; elements are made only where none is.
 */
export function morphSketch(live: Element, fresh: readonly (Sketch | string)[]): void {
  const doc = live.ownerDocument;
  morphList(live, fresh, sameSketchKind, updateFromSketch, (part) => (typeof part === 'string' ? doc.createTextNode(part) : create(doc, part)));
}

function sameSketchKind(node: Node, part: Sketch | string): boolean {
  if (typeof part === 'string') return node.nodeType === Node.TEXT_NODE;
  return node.nodeType === Node.ELEMENT_NODE && (node as Element).namespaceURI === SVG_NS && (node as Element).localName === part.tag;
}

function updateFromSketch(node: Node, part: Sketch | string): void {
  if (typeof part === 'string') {
    if (node.nodeValue !== part) node.nodeValue = part;
    return;
  }
  const el = node as Element;
  for (const name of el.getAttributeNames()) if (!(name in part.attrs)) el.removeAttribute(name);
  for (const name in part.attrs) setAttr(el, name, part.attrs[name]);
  morphSketch(el, part.children);
}

function create(doc: Document, part: Sketch): Element {
  const el = doc.createElementNS(SVG_NS, part.tag);
  for (const name in part.attrs) el.setAttribute(name, part.attrs[name]);
  for (const child of part.children) el.append(typeof child === 'string' ? doc.createTextNode(child) : create(doc, child));
  return el;
}
