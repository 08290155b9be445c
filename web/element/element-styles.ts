// The element's own CSS, adopted into its shadow root after the runner's
// (web/runner/styles.ts). Three jobs:
// - Isolation. Page selectors cannot reach into the shadow root, but
//   inherited properties (font, color, line-height, letter-spacing, ...)
//   flow in through the host. `.sse-reset` sets every property to its
//   initial value (`all: initial`), so nothing the page sets on the host
//   arrives inside. The host itself only insists on being a block.
// - Theme: the `theme` attribute picks the color-scheme that the runner's
//   light-dark() colours read; without it the page's color-scheme applies.
// - CSP: CodeMirror's lint draws its underline and gutter dot as data: SVG
//   images, which a page with `img-src 'self'` (or `default-src 'self'`)
//   blocks. Here they are drawn with CSS instead, so no img-src is needed.
// The first-difference view and the compare box are shared with the page
// (compare-styles.ts).

import { stylesheetAdopter } from '../shared/adopt-styles.js';
import { COMPARE_CSS } from '../host/compare-styles.js';
import { adoptSavedWorkStyles } from '../host/saved-work-styles.js';

export const ELEMENT_CSS = /* css */ `
${COMPARE_CSS}
:host { display: block !important; }
:host([hidden]) { display: none !important; }
.sse-reset { all: initial; display: block; color-scheme: inherit; }
:host([theme="light"]) .sse-reset { color-scheme: light; }
:host([theme="dark"]) .sse-reset { color-scheme: dark; }
:host([theme="auto"]) .sse-reset { color-scheme: light dark; }

.sse-loading {
  margin: 0; padding: 12px 14px; border: 1px dashed light-dark(#d6dae0, #2b3039); border-radius: 8px;
  font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: light-dark(#5a6370, #9ba4b0);
}

/* A card of its own: the theme may differ from the page's, so the element
   paints its own background rather than showing the page through. */
.sse-reset > .ss-runner {
  background: var(--ss-bg); border: 1px solid var(--ss-border); border-radius: 10px; padding: 12px;
}
/* mode="implement": the implement view's card above the runner's. */
.sse-reset > .ss-runner + .ss-runner { margin-top: 16px; }
/* Live re-running means nothing when the script cannot change. */
:host([readonly]) .ss-check { display: none; }
.sse-exercise { margin-bottom: 10px; }
.sse-author-note {
  margin: 0 0 10px; padding: 8px 12px; border: 1px dashed light-dark(#b42318, #ff8a80); border-radius: 8px;
  font: 13.5px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: light-dark(#1f2329, #e6e9ee);
  background: light-dark(#fff8f6, #2a1d1c);
}

.sse-exercise {
  border: 1px solid var(--ss-border); border-left: 4px solid var(--ss-muted); border-radius: 8px;
  background: var(--ss-panel); padding: 8px 12px;
}
.sse-exercise[data-verdict="pass"] { border-left-color: var(--sse-pass); }
.sse-exercise[data-verdict="fail"] { border-left-color: var(--ss-error); }
.sse-verdict-head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; }
.sse-label { font-size: 12px; font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; color: var(--ss-muted); }
.sse-verdict-text { margin: 0; font-weight: 600; }
[data-verdict="pass"] .sse-verdict-text { color: var(--sse-pass); }
[data-verdict="fail"] .sse-verdict-text { color: var(--ss-error); }
.sse-exercise .sse-disclosure > summary { font-weight: 400; font-size: 13px; color: var(--ss-muted); }
.sse-expected {
  margin: 4px 0 0; padding: 6px 10px; max-height: 240px; overflow: auto; font: 13px/1.5 var(--ss-mono);
  background: var(--ss-editor-bg); border: 1px solid var(--ss-border); border-radius: 6px;
}

/* Lint marks without data: images (see the comment at the top). */
.ss-runner .cm-editor .cm-lintRange-error {
  background-image: none; text-decoration: underline wavy var(--ss-error) 1px;
  text-decoration-skip-ink: none; text-underline-offset: 3px;
}
.ss-runner .cm-editor .cm-lint-marker-error {
  content: normal; display: block; box-sizing: border-box; width: 0.8em; height: 0.8em; margin: 0.1em;
  border-radius: 50%; background: light-dark(#f87, #ff8a80); border: 2px solid light-dark(#e33, #ff5f52);
}
`;

const adoptElementSheet: (root: ShadowRoot) => void = stylesheetAdopter(() => ELEMENT_CSS);

/** Adopts the element's stylesheets into its shadow root (one sheet per document, shared). */
export function adoptElementStyles(root: ShadowRoot): void {
  adoptElementSheet(root);
  adoptSavedWorkStyles(root);
}
