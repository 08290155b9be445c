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

/** A flat string in slices of SLICE, each ending on a whole code point (so each encodes alone). */
export function* slicesOf(text: string): Generator<string> {
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
