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

/**
 * The host's child that holds the part `name` (`expected`, `tests`): a
 * `<template slot="name">`, or any element with that slot (a `<pre>` keeps
 * its whitespace in Vue and Svelte templates; the element's shadow root has
 * no slots, so none is shown).
 */
export function slotElement(host: HTMLElement, name: string): Element | null {
  for (const child of Array.from(host.children)) {
    if (child.getAttribute('slot') === name) return child;
  }
  return null;
}

/**
 * A slot element's children as the page has them. A `<template>` parsed
 * from HTML keeps them in its `.content`; one built by a framework (React,
 * Vue, Svelte) has them as ordinary children. A template with children of
 * its own is read by them (after a framework re-rendered one that the HTML
 * had filled, those are the current ones), otherwise by its content.
 */
function holder(slot: Element): ParentNode {
  return slot instanceof HTMLTemplateElement && slot.childNodes.length === 0 ? slot.content : slot;
}

export function slotChildren(slot: Element): Element[] {
  return Array.from(holder(slot).children);
}

/** A slot element's text, wherever its children are (see holder). */
export function slotText(slot: Element): string {
  return (holder(slot) as Node).textContent ?? '';
}

/** The host's own text: its text and elements, except <template>s and slotted parts (they hold the other parts). */
export function inlineText(host: HTMLElement): string {
  let text = '';
  for (const node of Array.from(host.childNodes)) {
    if (node.nodeName === 'TEMPLATE' || (node instanceof Element && node.hasAttribute('slot'))) continue;
    text += node.textContent ?? '';
  }
  return text;
}

/** The starter and expected output given as properties (they win over attributes, files and children). */
export interface GivenSources {
  starter: string | null;
  expected: string | readonly string[] | null;
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

/**
 * Reads the starter and the expected output. Each comes from, in order: the
 * property (`given`), the attribute (`starter`, `expected`: text, lines
 * separated by newlines), the file (`src`, `expected-src`, fetched), the
 * children (the host's text; a `slot="expected"` child).
 */
export async function readSources(host: HTMLElement, given: GivenSources = { starter: null, expected: null }): Promise<Sources> {
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
  const starterText = given.starter ?? host.getAttribute('starter');
  const expectedText = given.expected ?? host.getAttribute('expected');
  const [scriptFile, expectedFile] = await Promise.all([
    starterText === null ? load('src') : null,
    expectedText === null ? load('expected-src') : null,
  ]);

  // A file is taken as it is; text written in the page is dedented (it is indented like the HTML around it).
  const starter = starterText !== null ? dedentScript(starterText) : (scriptFile ?? dedentScript(inlineText(host)));
  // (An expected-src that failed to load leaves no exercise; `problems` says why.)
  const slot = slotElement(host, 'expected');
  let expected: string[] | null;
  if (Array.isArray(expectedText)) expected = [...(expectedText as readonly string[])];
  else if (expectedText !== null) expected = inlineOutputLines(expectedText as string);
  else if (expectedFile !== null) expected = outputFileLines(expectedFile);
  else expected = slot ? inlineOutputLines(slotText(slot)) : null;
  return { starter, expected, problems };
}
