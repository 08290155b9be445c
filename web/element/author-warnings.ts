// Telling the course author what the element did not understand. Every
// attribute value it cannot use gives one console warning (once per
// element, attribute and value) naming the attribute, the value and the
// values it accepts, and what it does instead. The two that change what the
// element is (an unknown `mode`, a `<template slot>` it does not know) also
// show a note inside the element, because an author checking the page sees
// the element, not the console: a mistyped `mode="implment"` used to give a
// plain runner without a word.
import { h } from '../shared/dom.js';
import { MODES, paneHeight, VIEWS } from './attributes.js';

/** The slots a `<template slot="...">` child may name. */
export const SLOTS = ['expected', 'tests'] as const;

export interface AuthorProblem {
  /** What is wrong, for the console and the note: `mode="implment" is not a mode the element knows`. */
  text: string;
  /** Shown inside the element too (it changes what the element is). */
  visible: boolean;
}

const list = (values: readonly string[]) => values.map((v) => `"${v}"`).join(', ');

/** What the element does not understand among its attributes and template slots. */
export function authorProblems(host: HTMLElement): AuthorProblem[] {
  const out: AuthorProblem[] = [];
  const attr = (name: string) => host.getAttribute(name);
  const theme = attr('theme');
  if (theme !== null && !['light', 'dark', 'auto'].includes(theme)) {
    out.push({ text: `theme="${theme}" is not a theme; accepted: ${list(['light', 'dark', 'auto'])} (the page's color-scheme is used)`, visible: false });
  }
  const height = attr('height');
  const win = host.ownerDocument.defaultView;
  if (height !== null && win && paneHeight(height, win) === null) {
    out.push({
      text: `height="${height}" is not a height; accepted: a number of pixels (120 to 4000) or a CSS length such as "18rem" or "40vh" (the default height is used)`,
      visible: false,
    });
  }
  const level = attr('heading-level');
  if (level !== null && !['2', '3', '4', '5', '6'].includes(level.trim())) {
    out.push({ text: `heading-level="${level}" is not a heading level; accepted: ${list(['2', '3', '4', '5', '6'])} (3 is used)`, visible: false });
  }
  const mode = attr('mode');
  if (mode !== null && !(MODES as readonly string[]).includes(mode)) {
    out.push({ text: `mode="${mode}" is not a mode; accepted: ${list(MODES)} (the plain runner is shown)`, visible: true });
  }
  const view = attr('view');
  if (view !== null && !(VIEWS as readonly string[]).includes(view)) {
    out.push({ text: `view="${view}" is not a view; accepted: ${list(VIEWS)} (the ramp chart is shown)`, visible: false });
  }
  for (const child of host.children) {
    if (child.localName !== 'template') continue;
    const slot = child.getAttribute('slot');
    if (slot === null || (SLOTS as readonly string[]).includes(slot)) continue;
    out.push({ text: `<template slot="${slot}"> is not a slot; accepted: ${list(SLOTS)} (the template is ignored)`, visible: true });
  }
  return out;
}

/**
 * Warns in the console about each problem not said before for this element
 * (`said` remembers), and returns the note to show inside it (null when
 * nothing visible is wrong).
 */
export function tellAuthor(host: HTMLElement, problems: readonly AuthorProblem[], said: Set<string>): HTMLElement | null {
  const name = `<slow-start-runner${host.id ? ` id="${host.id}"` : ''}>`;
  for (const p of problems) {
    if (said.has(p.text)) continue;
    said.add(p.text);
    console.warn(`${name}: ${p.text}.`);
  }
  const visible = problems.filter((p) => p.visible);
  if (!visible.length) return null;
  const doc = host.ownerDocument;
  const note = h(doc, 'div', { class: 'sse-author-note', attrs: { role: 'note' } }, h(doc, 'strong', { text: 'For the page’s author: ' }));
  note.append(doc.createTextNode(visible.map((p) => `${p.text}.`).join(' ')));
  return note;
}
