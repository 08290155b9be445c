/**
 * Text that is not valid Unicode, sent to the engine as what it is.
 *
 * A JavaScript string may hold a lone surrogate ('\uD800'), which no UTF-8
 * text can. TextEncoder would turn it into U+FFFD, and a conversion that
 * encodes unit by unit (embind's, which the balancer once went through)
 * glues it to the next character ('\uD800a' became '𐁡'), so a name would
 * silently change. Instead, each lone surrogate goes in as its
 * three generalised-UTF-8 bytes (WTF-8: U+D800 is ED A0 80), which the
 * engine rejects as invalid UTF-8 like the same bytes in a script file:
 * `backend name must be valid UTF-8, got '\xed\xa0\x80a'`. Every path
 * (run, setPool, add, down, up) therefore rejects such a name the same way.
 */

// In a /u pattern a well-formed pair is one code point: only lone surrogates match.
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const LONE_SURROGATES = /[\uD800-\uDFFF]/gu;
const encoder = new TextEncoder();

/** True when `text` has no lone surrogate (TextEncoder would keep it as it is). */
export function isWellFormed(text: string): boolean {
  const native = (text as { isWellFormed?: () => boolean }).isWellFormed;
  return native ? native.call(text) : !LONE_SURROGATE.test(text);
}

/** `text` as UTF-8, with every lone surrogate as its three WTF-8 bytes. */
export function wtf8(text: string): Uint8Array {
  const parts: Uint8Array[] = [];
  let from = 0;
  for (const match of text.matchAll(LONE_SURROGATES)) {
    const at = match.index!;
    const unit = text.charCodeAt(at);
    parts.push(encoder.encode(text.slice(from, at)), new Uint8Array([0xe0 | (unit >> 12), 0x80 | ((unit >> 6) & 0x3f), 0x80 | (unit & 0x3f)]));
    from = at + 1;
  }
  parts.push(encoder.encode(text.slice(from)));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** What to hand the engine (engine-abi.ts) for a name: the string itself, or its WTF-8 bytes (passed as they are). */
export function nameForEngine(name: unknown): string {
  const text = String(name);
  return (isWellFormed(text) ? text : wtf8(text)) as string;
}
