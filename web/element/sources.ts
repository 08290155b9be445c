// Where an element's starter script and expected output come from: its own
// children (text, and <template slot="...">), or files named by `src` and
// `expected-src` (fetched relative to the page, like any link).
import { nextTask } from '../shared/big-text.js';
import { joinPieces } from '../shared/doc-text.js';
import { dedentScript, inlineOutputLines, outputFileLines } from '../host/text.js';

export interface Sources {
  /** The starter script. */
  starter: string;
  /** Expected output lines: set for an exercise, null otherwise. */
  expected: string[] | null;
  /** What could not be loaded, for the element to show (each a sentence). */
  problems: string[];
}

/** A `<template slot="name">` child of the host. */
export function slotTemplate(host: HTMLElement, name: string): HTMLTemplateElement | null {
  for (const child of Array.from(host.children)) {
    if (child.localName === 'template' && child.getAttribute('slot') === name) return child as HTMLTemplateElement;
  }
  return null;
}

/** The host's own text: its text and elements, except <template>s (they hold the other parts). */
export function inlineText(host: HTMLElement): string {
  let text = '';
  for (const node of Array.from(host.childNodes)) {
    if (node.nodeName === 'TEMPLATE') continue;
    text += node.textContent ?? '';
  }
  return text;
}

// Decoded a chunk at a time, with a pause for the page every PAUSE_BYTES:
// `response.text()` turns the whole body into one string in one task (a
// 50 MB src blocked the page for 0.2–0.3 s). The chunks are read into one
// buffer of CHUNK_BYTES, used again and again (a "byob" reader): a reader
// that makes a new buffer per chunk has the browser touch 50 MB of fresh
// memory for a 50 MB src, on the page's thread.
const PAUSE_BYTES = 4 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;

async function fetchText(url: URL): Promise<string> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  if (!response.body) return response.text();
  // UTF-8, a leading BOM dropped and bad bytes as U+FFFD: what text() does.
  const decoder = new TextDecoder();
  const next = chunkReader(response.body);
  const pieces: string[] = [];
  let paused = false;
  for (let sincePause = 0; ; ) {
    const chunk = await next();
    if (chunk === null) break;
    pieces.push(decoder.decode(chunk, { stream: true }));
    sincePause += chunk.length;
    if (sincePause >= PAUSE_BYTES) {
      sincePause = 0;
      paused = true;
      await nextTask();
    }
  }
  pieces.push(decoder.decode());
  // Not pieces.join(''): that copies it all in this task (0.2 s for 50 MB). A
  // rope that keeps its pieces is copied only if something needs all of it.
  const text = joinPieces(pieces);
  if (paused) await nextTask(); // building the element is a task's worth of its own
  return text;
}

/** The body's next chunk (valid until the next call), or null at its end. */
function chunkReader(body: ReadableStream<Uint8Array>): () => Promise<Uint8Array | null> {
  let byob: ReadableStreamBYOBReader | null = null;
  try {
    byob = body.getReader({ mode: 'byob' });
  } catch {
    // not a byte stream here: a new buffer per chunk, as before
  }
  if (byob === null) {
    const reader = body.getReader();
    return async () => {
      const { done, value } = await reader.read();
      return done ? null : value;
    };
  }
  const reader = byob;
  let buffer = new ArrayBuffer(CHUNK_BYTES);
  return async () => {
    const { done, value } = await reader.read(new Uint8Array(buffer));
    if (done || value === undefined) return null;
    buffer = value.buffer as ArrayBuffer; // the same memory, handed back
    return value;
  };
}

/** Reads the starter and the expected output, fetching `src` and `expected-src` when given. */
export async function readSources(host: HTMLElement): Promise<Sources> {
  const problems: string[] = [];
  const load = async (attr: string): Promise<string | null> => {
    const value = host.getAttribute(attr);
    if (value === null || value.trim() === '') return null;
    let url: URL;
    try {
      url = new URL(value, host.baseURI);
    } catch {
      problems.push(`The ${attr} attribute is not a URL: ${value}`);
      return null;
    }
    try {
      return await fetchText(url);
    } catch (error) {
      problems.push(`Could not load ${attr} ${url.href}: ${error instanceof Error ? error.message : String(error)}.`);
      return null;
    }
  };
  const [scriptFile, expectedFile] = await Promise.all([load('src'), load('expected-src')]);

  // A file is taken as it is; inline text is dedented (it is indented like the HTML around it).
  const starter = scriptFile ?? dedentScript(inlineText(host));
  // (An expected-src that failed to load leaves no exercise; `problems` says why.)
  const template = slotTemplate(host, 'expected');
  const expected =
    expectedFile !== null ? outputFileLines(expectedFile) : template ? inlineOutputLines(template.content.textContent ?? '') : null;
  return { starter, expected, problems };
}
