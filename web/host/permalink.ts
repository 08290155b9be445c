// Sharing a script through the page's URL: `#ss-<key>=<payload>`, the
// payload being link-codec.ts's. Each element has its own key, so one hash
// can carry several scripts, and whatever else the hash holds (an anchor,
// another tool's state) is kept as it is.
import { decodeLinkCode, encodeLinkCode, MAX_LINK_LENGTH, type LinkProblem } from './link-codec.js';

/** The hash parameter of the element with this key. */
export function paramName(key: string): string {
  return `ss-${encodeURIComponent(key)}`;
}

function parts(hash: string): string[] {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  return body ? body.split('&') : [];
}

/** The encoded script for `key` in a location hash, or null. */
export function codeInHash(hash: string, key: string): string | null {
  const prefix = `${paramName(key)}=`;
  const part = parts(hash).find((p) => p.startsWith(prefix));
  return part === undefined ? null : part.slice(prefix.length);
}

/** `hash` with `key`'s script set to `code` (added at the end, or replaced in place); everything else kept. */
export function hashWithCode(hash: string, key: string, code: string): string {
  const name = paramName(key);
  const mine = `${name}=${code}`;
  const list = parts(hash);
  const at = list.findIndex((p) => p.startsWith(`${name}=`));
  if (at >= 0) list[at] = mine;
  else list.push(mine);
  return `#${list.join('&')}`;
}

/** A link for one element: its payload and the whole URL; or how long it would be, when too long to open. */
export type Permalink = { code: string; url: string } | { tooLong: number };

/**
 * The link that opens `pageUrl` with `script` in element `key` (other
 * elements' scripts in the hash stay), unless it would be longer than a
 * browser opens (Chromium: 2 MiB).
 */
export async function permalink(pageUrl: string, key: string, script: string): Promise<Permalink> {
  const url = new URL(pageUrl);
  const room = MAX_LINK_LENGTH - url.href.length - paramName(key).length - 2;
  const code = await encodeLinkCode(script, room);
  if (typeof code !== 'string') return { tooLong: MAX_LINK_LENGTH - room + code.length };
  url.hash = hashWithCode(url.hash, key, code);
  return url.href.length > MAX_LINK_LENGTH ? { tooLong: url.href.length } : { code, url: url.href };
}

/** What the page's hash holds for element `key`: its payload and the script in it (or why there is none). */
export type LinkInHash = { code: string } & ({ script: string } | { problem: LinkProblem });

/** The link part for element `key` in `hash`, decoded; null when there is none. */
export async function readLink(hash: string, key: string): Promise<LinkInHash | null> {
  const code = codeInHash(hash, key);
  return code === null ? null : { code, ...(await decodeLinkCode(code)) };
}
