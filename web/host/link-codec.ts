// A script as the payload of a share link, and back.
//
// Links made now are `~` + base64url (RFC 4648 §5, unpadded) of the script's
// UTF-8 compressed with raw DEFLATE (the browser's CompressionStream, no
// library): a learner's script shrinks to a few percent of its size, since
// scripts repeat the same few commands. Links made before compression (plain
// base64url of the UTF-8, no `~`) still open, as do payloads with `=`
// padding or the standard alphabet's `+` and `/`, which other tools write.

/** Chromium's longest URL (url::kMaxURLChars): a longer link does not open. */
export const MAX_LINK_LENGTH = 2 * 1024 * 1024;

/** The largest script a link may unpack to (a tiny link could otherwise inflate to gigabytes). */
export const MAX_LINKED_SCRIPT_BYTES = 64 * 1024 * 1024;

const COMPRESSED = '~';

/** Why a link's payload did not give a script. */
export type LinkProblem = 'damaged' | 'too-big';

/**
 * The payload for `script`: `~` + base64url of its deflated UTF-8 (never
 * empty, even for an empty script); or, when it would be longer than
 * `maxLength`, just that length (nothing is spent making a link that
 * cannot be used).
 */
export async function encodeLinkCode(script: string, maxLength = Infinity): Promise<string | { length: number }> {
  const packed = (await pipe(new TextEncoder().encode(script), new CompressionStream('deflate-raw'), Infinity)) as Uint8Array;
  const length = COMPRESSED.length + Math.ceil((packed.length * 4) / 3);
  return length > maxLength ? { length } : COMPRESSED + toBase64url(packed);
}

/** What a link's payload holds: a script, or why there is none. */
export type Decoded = { script: string } | { problem: LinkProblem };

/** The script in a link's payload, or why there is none. An empty payload is damaged. */
export async function decodeLinkCode(code: string): Promise<Decoded> {
  const compressed = code.startsWith(COMPRESSED);
  const bytes = fromBase64(compressed ? code.slice(1) : code);
  if (bytes === null || bytes.length === 0) return { problem: 'damaged' };
  let utf8: Uint8Array | 'too-big';
  try {
    utf8 = compressed ? await pipe(bytes, new DecompressionStream('deflate-raw'), MAX_LINKED_SCRIPT_BYTES) : bytes;
  } catch {
    return { problem: 'damaged' }; // not DEFLATE, or cut short
  }
  if (utf8 === 'too-big') return { problem: 'too-big' };
  try {
    return { script: new TextDecoder('utf-8', { fatal: true }).decode(utf8) };
  } catch {
    return { problem: 'damaged' };
  }
}

/** base64url without padding. */
export function toBase64url(bytes: Uint8Array): string {
  let binary = '';
  // In slices: String.fromCharCode(...all) overflows the stack on big inputs.
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Bytes from base64 or base64url, padded or not; null when it is not base64 at all. */
export function fromBase64(text: string): Uint8Array | null {
  const body = text.replace(/={1,2}$/, '');
  if (!/^[A-Za-z0-9_\-+/]*$/.test(body) || body.length % 4 === 1) return null;
  // Padding, when present, must be what the length calls for.
  if (body.length !== text.length && (body.length + (text.length - body.length)) % 4 !== 0) return null;
  try {
    const binary = atob(body.replace(/-/g, '+').replace(/_/g, '/'));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

// Runs bytes through a (de)compression stream, giving up past `limit` bytes out.
async function pipe(bytes: Uint8Array, transform: TransformStream<BufferSource, Uint8Array>, limit: number): Promise<Uint8Array | 'too-big'> {
  const reader = new Blob([bytes as BlobPart]).stream().pipeThrough(transform).getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      return 'too-big';
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
