// Brings a live DOM subtree in line with a freshly built one, changing only
// what differs. A view that redraws after every keystroke (the ramp chart,
// the legend) can build its parts from scratch, which keeps its code plain,
// and still leave the page's DOM alone where nothing changed: the browser
// then restyles, lays out and repaints only what did (a chart rebuilt whole
// was repainted whole after every edit of a 10,000-line script).

/**
 * Makes `live`'s children match `fresh`'s: a live node of the same kind (the
 * same tag, or text) at the same place is kept and its attributes and text
 * brought in line; any other is replaced by the fresh node, and extra live
 * nodes go. `fresh` is emptied (its nodes may move into `live`).
 */
export function morphChildren(live: Element, fresh: Element): void {
  const next = [...fresh.childNodes];
  let at = live.firstChild;
  for (const node of next) {
    if (at && sameKind(at, node)) {
      morphNode(at, node);
      at = at.nextSibling;
    } else if (at) {
      const old = at;
      at = at.nextSibling;
      live.replaceChild(node, old);
    } else {
      live.append(node);
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
