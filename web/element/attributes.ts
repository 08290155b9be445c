// The element's attributes, read once per build of its contents. `theme`
// is pure CSS (:host([theme=...])) and `height` a CSS variable, so those
// two change live; any other change rebuilds the element's contents (the
// learner's script survives: it is saved first).
import { slicesOf } from '../shared/doc-text.js';

export interface ElementConfig {
  /** Run the script as soon as the engine has loaded (otherwise at the learner's first Run or edit). */
  autorun: boolean;
  readOnly: boolean;
  chart: boolean;
  traffic: boolean;
  examples: boolean;
  /** Show the "Compare with my program" box (always on in an exercise). */
  compare: boolean;
  headingLevel: 2 | 3 | 4 | 5 | 6;
  /** `run` (the default), `implement` (the implement-it-yourself view above the runner), or `predict` (predict, then reveal). */
  mode: (typeof MODES)[number];
  /** In implement mode, run the built-in tests before the author's (off with `no-builtin-tests`). */
  builtinTests: boolean;
}

/** The values `mode` accepts. */
export const MODES = ['run', 'implement', 'predict'] as const;

/** Attributes whose change rebuilds the element's contents. */
export const REBUILD_ATTRIBUTES = [
  'starter',
  'expected',
  'src',
  'expected-src',
  'autorun',
  'readonly',
  'no-chart',
  'traffic',
  'examples',
  'compare',
  'heading-level',
  'mode',
  'no-builtin-tests',
  'storage-key',
];

/** Attributes applied in place. */
export const LIVE_ATTRIBUTES = ['height', 'theme'];

/**
 * Every attribute is a property too (frameworks set properties: React 19
 * sets one when the element has it), named in camel case: a boolean
 * attribute is a boolean property, the others strings (`headingLevel` a
 * number). `starter` and `expected` are the element's own (element.ts).
 */
export const BOOLEAN_PROPERTIES = {
  autorun: 'autorun',
  readOnly: 'readonly',
  noChart: 'no-chart',
  traffic: 'traffic',
  examples: 'examples',
  compare: 'compare',
  noBuiltinTests: 'no-builtin-tests',
} as const;
export const STRING_PROPERTIES = {
  src: 'src',
  expectedSrc: 'expected-src',
  mode: 'mode',
  storageKey: 'storage-key',
  height: 'height',
  theme: 'theme',
} as const;

export function readConfig(host: HTMLElement): ElementConfig {
  // Boolean attributes as in HTML: present (with any value) means on.
  const has = (name: string) => host.hasAttribute(name);
  const level = Number(host.getAttribute('heading-level'));
  return {
    autorun: has('autorun'),
    readOnly: has('readonly'),
    chart: !has('no-chart'),
    traffic: has('traffic'),
    examples: has('examples'),
    compare: has('compare'),
    headingLevel: level >= 2 && level <= 6 && Number.isInteger(level) ? (level as 2) : 3,
    mode: (MODES as readonly string[]).includes(host.getAttribute('mode') ?? '') ? (host.getAttribute('mode') as ElementConfig['mode']) : 'run',
    builtinTests: !has('no-builtin-tests'),
  };
}

/** The `height` attribute's bounds: a few lines of script at least, a sensible page at most. */
export const MIN_HEIGHT_PX = 120;
export const MAX_HEIGHT_PX = 4000;

export interface PaneHeight {
  /** The CSS length to use. */
  css: string;
  /** Set when the attribute was out of bounds and was clamped: what to tell the author. */
  clamped: string | null;
}

/**
 * The `height` attribute as a CSS length, kept between MIN_HEIGHT_PX and
 * MAX_HEIGHT_PX (so `height="0"` cannot hide the editor, nor
 * `height="999999999"` make a 33-million-pixel element): a plain number is
 * pixels, clamped here (and `clamped` says so); any other length the browser
 * accepts (`24rem`, `50vh`) goes through CSS `clamp()`. Null for anything
 * else (the default height applies).
 */
export function paneHeight(value: string | null, win: Window): PaneHeight | null {
  if (value === null) return null;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) {
    const px = Number(v);
    const kept = Math.min(MAX_HEIGHT_PX, Math.max(MIN_HEIGHT_PX, px));
    const clamped =
      kept === px ? null : `height="${value}" is ${px < MIN_HEIGHT_PX ? 'below' : 'above'} the ${kept} px ${px < MIN_HEIGHT_PX ? 'minimum' : 'maximum'}; using ${kept} px`;
    return { css: `${kept}px`, clamped };
  }
  const css = (win as Window & { CSS?: typeof CSS }).CSS;
  const bounded = `clamp(${MIN_HEIGHT_PX}px, ${v}, ${MAX_HEIGHT_PX}px)`;
  return css?.supports('height', v) && css.supports('height', bounded) ? { css: bounded, clamped: null } : null;
}

/**
 * Without a `height`, the editor (and beside it the output) is as tall as
 * the starter script plus a line, between 160 and 440 px: a four-line
 * exercise does not sit in a half-empty 400 px box, a long one scrolls.
 */
export function autoPaneHeight(starter: string): string {
  // Counted up to what the maximum shows (a 50 MB starter is not split into
  // lines for this), slice by slice (a fetched one is not copied whole).
  let lines = 2;
  for (const slice of slicesOf(starter)) {
    for (let at = slice.indexOf('\n'); at >= 0 && lines < 30; at = slice.indexOf('\n', at + 1)) lines++;
    if (lines >= 30) break;
  }
  const px = Math.round(lines * 21.7 + 12); // the editor's 14 px × 1.55 lines and its padding
  return `${Math.min(440, Math.max(160, px))}px`;
}
