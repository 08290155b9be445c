// Sharing a script through the page's URL: `#ss-<key>=<base64url of the
// UTF-8 script>`. Each element has its own key, so one hash can carry
// several scripts, and whatever else the hash holds (an anchor, another
// tool's state) is kept as it is.

/** The script as base64url (RFC 4648 §5, no padding) of its UTF-8 bytes. */
export function encodeScript(script: string): string {
  const bytes = new TextEncoder().encode(script);
  let binary = '';
  // In slices: String.fromCharCode(...all) overflows the stack on big scripts.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The script back, or null when `code` is not base64url of valid UTF-8 (a mangled link). */
export function decodeScript(code: string): string | null {
  if (!/^[A-Za-z0-9_-]*$/.test(code) || code.length % 4 === 1) return null;
  try {
    const binary = atob(code.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

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

/** The link that opens `pageUrl` with `script` in element `key` (other elements' scripts in the hash stay). */
export function permalink(pageUrl: string, key: string, script: string): string {
  const url = new URL(pageUrl);
  url.hash = hashWithCode(url.hash, key, encodeScript(script));
  return url.href;
}
