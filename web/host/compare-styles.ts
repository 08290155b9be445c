// The CSS of the first-difference view and of the "Compare with my program"
// box, shared by the element (inside its ELEMENT_CSS) and the page
// (adoptCompareStyles(document)). It reads the runner's variables (--ss-*),
// so it goes after the runner's styles.

import { stylesheetAdopter } from '../shared/adopt-styles.js';

export const COMPARE_CSS = /* css */ `
.ss-runner { --sse-pass: light-dark(#1a7f37, #56d364); }
.sse-diff { margin-top: 6px; }
.sse-diff-where, .sse-rejected, .sse-diff-note { margin: 4px 0; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 8px; }
.sse-diff-note { color: var(--ss-muted); font-size: 13px; }
.sse-diff-lines {
  display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 12px; margin: 4px 0 0;
  padding: 6px 10px; background: var(--ss-editor-bg); border: 1px solid var(--ss-border); border-radius: 6px;
}
.sse-diff-lines dt { color: var(--ss-muted); font-size: 13px; }
.sse-diff-lines dd { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.sse-line { font: 13px var(--ss-mono); white-space: pre-wrap; background: var(--ss-current-bg); border-radius: 3px; padding: 0 3px; }
/* Where the two lines part: from the first character that differs. */
.sse-from-here {
  color: inherit; background: light-dark(#ffd8a8, #6b4310); border-radius: 2px;
  text-decoration: underline 2px var(--ss-error); text-underline-offset: 3px;
}
.sse-absent { color: var(--ss-muted); font-style: italic; font-size: 13px; }
.sse-disclosure > summary { cursor: pointer; width: max-content; max-width: 100%; padding: 4px 0; font-weight: 600; }

.sse-compare {
  margin-bottom: 10px; border: 1px solid var(--ss-border); border-radius: 8px; padding: 4px 12px; background: var(--ss-panel);
}
.sse-compare[open] { padding-bottom: 10px; }
.sse-paste-label { display: block; margin: 4px 0; font-size: 13px; color: var(--ss-muted); }
.sse-paste {
  display: block; box-sizing: border-box; width: 100%; resize: vertical; font: 13px/1.5 var(--ss-mono); color: var(--ss-fg);
  background: var(--ss-editor-bg); border: 1px solid var(--ss-border); border-radius: 6px; padding: 6px 8px;
}
.sse-compare-result { margin: 6px 0 0; font-weight: 600; }
.sse-compare-result:empty { display: none; }
[data-match="yes"] .sse-compare-result { color: var(--sse-pass); }
[data-match="no"] .sse-compare-result { color: var(--ss-error); }
/* "Looks like: …": the mistake the pasted output points to (the engine's catalogue). */
.sse-mistake {
  margin-top: 8px; padding: 6px 10px; border: 1px solid light-dark(#e0b100, #8a6d12); border-left-width: 4px;
  border-radius: 6px; background: light-dark(#fff6dc, #33290f);
}
.sse-mistake-lead { margin: 0; font-size: 12px; font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; }
.sse-mistake-title { margin: 2px 0 0; font-weight: 700; }
.sse-mistake-why { margin: 2px 0 0; max-width: 75ch; }
`;

/** Adopts the compare box's stylesheet into a document (the page; the element has it in its own). */
export const adoptCompareStyles: (root: Document) => void = stylesheetAdopter(() => COMPARE_CSS);
