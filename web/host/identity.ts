// Which element is which, across reloads: the key that names an element's
// part of a permalink, and where its learner's work is kept (which page it
// is on, or the key its author gave it).

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

/**
 * Query parameters that say how the reader arrived (campaign and click
 * tags), not which page they are on: a link shared with them opens the same
 * saved work as the page without them.
 */
const ARRIVAL_PARAMETER =
  /^(?:utm_.*|fbclid|gclid|gbraid|wbraid|dclid|msclkid|yclid|twclid|ttclid|igshid|mc_cid|mc_eid|_ga|_gl|_hsenc|_hsmi|mkt_tok)$/i;

/**
 * What identifies a page for saved work: its path and its query, without
 * the arrival parameters above, the rest sorted by name (so `?a=1&b=2` and
 * `?b=2&a=1` are one page) and encoded one way. An LMS that serves every
 * page from one path (`/mod/page/view.php?id=7`) keeps its pages apart; the
 * hash (anchors, share links) is never part of it. A page without a query
 * is its path alone, as every saved key was before queries counted.
 */
export function pageIdentity(location: Pick<Location, 'pathname' | 'search'>): string {
  const kept = [...new URLSearchParams(location.search)].filter(([name]) => !ARRIVAL_PARAMETER.test(name));
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)); // stable: repeated names keep their order
  const query = new URLSearchParams(kept).toString();
  return query ? `${location.pathname}?${query}` : location.pathname;
}

/** Where one piece of a learner's work is kept in localStorage. */
export interface StorageKeys {
  key: string;
  /**
   * Where an earlier version of the element kept it (the page's path alone,
   * without its query), when that differs from `key`: read while `key`
   * holds nothing yet, so no work saved before is lost.
   */
  legacy: string | null;
}

/**
 * The element's storage keys: `slowstart:key:<storage-key>` when its author
 * gave one (the same work on every page that uses that key), otherwise
 * `slowstart:<page identity>:<element key>`.
 */
export function storageKeys(host: HTMLElement, key: string): StorageKeys {
  const location = host.ownerDocument.location ?? { pathname: '', search: '' };
  const authored = host.getAttribute('storage-key');
  return keysFor(authored ? `slowstart:key:${authored}` : `slowstart:${pageIdentity(location)}:${key}`, `slowstart:${location.pathname}:${key}`);
}

/** `key`, and `legacy` unless it is the same key. */
export function keysFor(key: string, legacy: string | null): StorageKeys {
  return { key, legacy: legacy === key ? null : legacy };
}
