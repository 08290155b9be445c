// Which element is which, across reloads: the key that names an element's
// saved script and its part of a permalink.

export const TAG = 'slow-start-runner';

/**
 * The element's `id`; without one, its 1-based position among the
 * `<slow-start-runner>` elements of its document (or shadow root). Positions
 * shift when elements are added above, so authors should give ids.
 */
export function elementKey(host: HTMLElement): string {
  if (host.id) return host.id;
  const root = host.getRootNode() as Document | ShadowRoot;
  const all: Element[] = Array.from(root.querySelectorAll(TAG));
  return String(all.indexOf(host) + 1);
}

/** The storage key: the page's path and the element's key (so pages and elements never share). */
export function storageKey(host: HTMLElement, key: string): string {
  return `slowstart:${host.ownerDocument.location?.pathname ?? ''}:${key}`;
}
