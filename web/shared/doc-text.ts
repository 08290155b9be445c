// The editor's document as text, without a long task. CodeMirror keeps the
// text as a tree of lines; `doc.toString()` joins them all in one go (about
// 60 ms per MB of short lines). A big document is read in slices, one per
// task; the slices go to the run worker one by one, and their join is a
// rope that V8 only flattens when something needs the characters. A
// CodeMirror Text never changes, so each document is read once.
import type { Text } from '@codemirror/state';
import { BIG_TEXT, nextTask } from './big-text.js';

/** The size of a slice: a few milliseconds to cut, copy or post. */
export const SLICE = 256 * 1024;
const cache = new WeakMap<Text, string[]>();

/** Remembers that `doc` reads as `text` (e.g. the text it was just loaded from). */
export function rememberText(doc: Text, text: string): void {
  cache.set(doc, [...slicesOf(text)]);
}

/** The document's text now (joined in this task unless it was read before). */
export function textOf(doc: Text): string {
  const known = cache.get(doc);
  if (known) return known.join('');
  const text = doc.toString();
  cache.set(doc, [text]);
  return text;
}

/** The document's text in slices, read one per task when it is big. `onProgress` gets the share read (0..1). */
export async function readSlices(doc: Text, onProgress?: (share: number) => void): Promise<readonly string[]> {
  const known = cache.get(doc);
  if (known) return known;
  if (doc.length <= BIG_TEXT) {
    textOf(doc);
    return cache.get(doc)!;
  }
  const slices: string[] = [];
  for (let at = 0; at < doc.length; ) {
    let end = Math.min(doc.length, at + SLICE);
    if (end < doc.length && isHighSurrogate(doc.sliceString(end - 1, end).charCodeAt(0))) end += 1;
    slices.push(doc.sliceString(at, end));
    at = end;
    onProgress?.(at / doc.length);
    if (at < doc.length) await nextTask();
  }
  cache.set(doc, slices);
  return slices;
}

// A text joined from pieces (a fetched src, say) keeps its slices. Its join
// is a rope, and cutting or searching a rope first copies all of it into one
// string: for a 50 MB src one task of 0.2 s or more (most of it the first
// touch of the fresh memory). So its slices and its start come from the
// pieces, and it is copied only when something needs all its characters.
// Only the latest such text is kept (the element that fetched it keeps it
// anyway, as its starter: this holds no memory of its own while it lives).
let joined: { text: string; slices: string[] } | null = null;

/** The pieces as one string (a rope: nothing copied yet), remembered for slicesOf() and lineHead(). */
export function joinPieces(pieces: readonly string[]): string {
  let text = '';
  const slices: string[] = [];
  for (const piece of pieces) {
    text += piece;
    for (const slice of slicesOf(piece)) slices.push(slice);
  }
  joined = { text, slices };
  return text;
}

// The same string (===) is the same object here, or a copy of the same
// length: a copy is compared character by character, which is still right.
function knownSlices(text: string): readonly string[] | null {
  return joined !== null && joined.text.length === text.length && joined.text === text ? joined.slices : null;
}

/**
 * The text's start: its first `units` UTF-16 units and on to the end of that
 * line ('\n' included), or its first `units` when no line ends after them.
 */
export function lineHead(text: string, units: number): string {
  const known = knownSlices(text);
  if (known === null) {
    const cut = text.indexOf('\n', units);
    return cut < 0 ? text.slice(0, units) : text.slice(0, cut + 1);
  }
  let head = '';
  for (const slice of known) {
    head += slice;
    if (head.length <= units) continue;
    const cut = head.indexOf('\n', units);
    if (cut >= 0) return head.slice(0, cut + 1);
  }
  return head.slice(0, units);
}

/** `text.slice(start, end)` (0 <= start <= end <= length), cut from its slices when it was joined from pieces. */
export function sliceText(text: string, start: number, end: number): string {
  const known = knownSlices(text);
  if (known === null) return text.slice(start, end);
  let part = '';
  let at = 0; // where the slice begins in text
  for (const slice of known) {
    const next = at + slice.length;
    if (next > start && at < end) part += slice.slice(Math.max(0, start - at), Math.min(slice.length, end - at));
    if (next >= end) break;
    at = next;
  }
  return part;
}

/** A string in slices of SLICE, each ending on a whole code point (so each encodes alone). */
export function* slicesOf(text: string): Generator<string> {
  const known = knownSlices(text);
  if (known !== null) {
    yield* known;
    return;
  }
  for (let at = 0; at < text.length; ) {
    let end = Math.min(text.length, at + SLICE);
    if (end < text.length && isHighSurrogate(text.charCodeAt(end - 1))) end += 1;
    yield text.slice(at, end);
    at = end;
  }
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}
