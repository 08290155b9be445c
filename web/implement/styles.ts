// The implement mode's CSS, adopted next to the runner's (web/runner/styles.ts)
// as a constructable stylesheet, so it works in a document or a shadow root
// under a strict Content-Security-Policy. It uses the runner's CSS variables
// (the view's root carries the `ss-runner` class that defines them) and adds
// three of its own for pass and fail. It also styles the ramp chart's
// overlay (web/runner/chart-overlay.ts), which only this mode draws.

import { stylesheetAdopter } from '../shared/adopt-styles.js';

export const IMPLEMENT_CSS = /* css */ `
.ss-implement {
  --ss-impl-ok: light-dark(#1a7f37, #56d364);
  --ss-impl-ok-bg: light-dark(#e6f4ea, #16301f);
  --ss-impl-fail-bg: light-dark(#fdecec, #3a1c1f);
  --ss-impl-note-bg: light-dark(#fff6dc, #33290f);
  --ss-impl-note-border: light-dark(#e0b100, #8a6d12);
}
.ss-impl-intro { margin: 0 0 10px; max-width: 95ch; color: var(--ss-muted); }
/* The panel titles stay on one line; the hints beside them give way. */
.ss-implement .ss-panel-head > :first-child { flex: none; white-space: nowrap; }
.ss-impl-status { flex: 1 1 18rem; min-width: 0; color: var(--ss-muted); overflow-wrap: anywhere; }
.ss-impl-status-problem { color: var(--ss-error); }
.ss-impl-versions { margin: -4px 0 8px; font-size: 13px; }
.ss-impl-versions > summary { cursor: pointer; width: max-content; max-width: 100%; padding: 2px 0; color: var(--ss-muted); }
.ss-impl-versions-list { margin: 4px 0 0; padding-left: 1.6em; }
.ss-impl-versions-list li { margin: 3px 0; overflow-wrap: anywhere; }
.ss-impl-small { min-height: 28px; padding: 2px 10px; font-size: 13px; }

/* Panels: stacked when narrow; code and results side by side from 900 px
   (of the view, not the window), the code staying in view while the
   results scroll by with the page. */
.ss-impl-panels { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); align-items: start; }
@container (min-width: 900px) {
  .ss-impl-panels { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
  .ss-impl-code { position: sticky; top: 8px; }
}
.ss-impl-editor { height: var(--ss-impl-editor-height, clamp(320px, 70vh, 760px)); background: var(--ss-editor-bg); }
.ss-impl-editor .cm-editor { height: 100%; }
.ss-impl-results-body { padding: 10px 12px 12px; display: grid; gap: 10px; min-width: 0; }
/* One column as wide as the panel: the test rows' one-line notes (nowrap) must
   not widen it, or the panel is cut off on the right. */
.ss-impl-results-body { grid-template-columns: minmax(0, 1fr); }

/* Summary: progress bar, counts, why nothing ran, the run's diagnosis. */
.ss-impl-summary-box { display: grid; gap: 8px; min-width: 0; }
.ss-impl-bar { display: flex; gap: 2px; height: 8px; }
.ss-impl-seg { flex: 1 1 0; border-radius: 2px; background: var(--ss-grid); }
.ss-impl-seg[data-state="running"] { background: var(--ss-accent); opacity: 0.6; }
.ss-impl-seg[data-state="pass"] { background: var(--ss-impl-ok); }
.ss-impl-seg[data-state="fail"] { background: var(--ss-error); }
.ss-impl-counts { margin: 0; font-weight: 600; }
.ss-impl-stale .ss-impl-counts { color: var(--ss-muted); font-weight: 400; }
.ss-impl-stale .ss-impl-tests { opacity: 0.75; }
.ss-impl-banner {
  border: 1px solid var(--ss-error); border-left-width: 4px; border-radius: 6px;
  background: var(--ss-impl-fail-bg); padding: 8px 12px;
}
.ss-impl-banner p { margin: 0 0 4px; }
.ss-impl-banner-title { font-weight: 700; color: var(--ss-error); }
.ss-impl-banner-text { font-family: var(--ss-mono); font-size: 13px; overflow-wrap: anywhere; }
.ss-impl-banner-hint { color: var(--ss-muted); font-size: 13px; }
.ss-impl-go { margin-top: 4px; }

/* "Looks like: …", for the run and for each failing test. */
.ss-impl-diagnosis, .ss-impl-mistake {
  border: 1px solid var(--ss-impl-note-border); border-left-width: 4px; border-radius: 6px;
  background: var(--ss-impl-note-bg); padding: 8px 12px;
}
.ss-impl-mistake-lead { margin: 0 0 2px; font-size: 12px; font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; }
.ss-impl-diagnosis-list { margin: 0; padding: 0; list-style: none; display: grid; gap: 8px; }
.ss-impl-mistake-item + .ss-impl-mistake-item { margin-top: 8px; }
.ss-impl-mistake-title { margin: 0; font-weight: 700; font-size: 15px; }
.ss-impl-mistake-why { margin: 2px 0 0; max-width: 75ch; }
.ss-impl-diagnosis-tests { margin: 2px 0 0; font-size: 12.5px; color: var(--ss-muted); }
.ss-impl-fix-first { margin-bottom: 8px; }
.ss-impl-fix-first code { font-family: var(--ss-mono); font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }

/* The test list. */
.ss-impl-tests { margin: 0; padding: 0; list-style: none; border: 1px solid var(--ss-border); border-radius: 6px; background: var(--ss-editor-bg); }
.ss-impl-test + .ss-impl-test { border-top: 1px solid var(--ss-border); }
.ss-impl-summary {
  display: flex; align-items: baseline; gap: 8px; padding: 6px 10px; cursor: pointer; list-style: none; min-width: 0;
}
.ss-impl-summary::-webkit-details-marker { display: none; }
.ss-impl-summary::after { content: "▸"; flex: none; color: var(--ss-muted); font-size: 11px; }
.ss-impl-text { flex: 1 1 auto; min-width: 0; display: flex; align-items: baseline; gap: 8px; }
.ss-impl-details[open] > .ss-impl-summary::after { content: "▾"; }
.ss-impl-summary:hover { background: var(--ss-active-line); }
.ss-impl-summary:focus-visible { outline-offset: -2px; }
.ss-impl-icon { flex: none; width: 1.2em; text-align: center; font-weight: 700; color: var(--ss-muted); }
.ss-impl-test[data-state="pass"] .ss-impl-icon { color: var(--ss-impl-ok); }
.ss-impl-test[data-state="fail"] .ss-impl-icon { color: var(--ss-error); }
.ss-impl-test[data-state="running"] .ss-impl-icon { color: var(--ss-accent); }
.ss-impl-title { flex: none; max-width: 60%; font-weight: 600; }
.ss-impl-note { flex: 1 1 auto; min-width: 0; color: var(--ss-muted); font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.ss-impl-test[data-state="fail"] .ss-impl-note { color: var(--ss-error); }
/* An open row's report says it in full: the note would repeat it. */
.ss-impl-details[open] .ss-impl-note { display: none; }
@container (max-width: 520px) {
  .ss-impl-text { display: block; }
  .ss-impl-title, .ss-impl-note { display: block; max-width: none; }
  .ss-impl-note { white-space: normal; }
  .ss-impl-note:empty { display: none; }
  .ss-impl-report { padding-left: 10px; }
}

/* One test's report. */
.ss-impl-report { display: grid; gap: 8px; padding: 4px 10px 12px calc(1.2em + 18px); min-width: 0; }
.ss-impl-diff { margin: 0; }
.ss-impl-report code { font-family: var(--ss-mono); font-size: 13px; white-space: pre-wrap; overflow-wrap: anywhere; }
code.ss-impl-expected { background: var(--ss-impl-ok-bg); border-radius: 3px; padding: 0 4px; }
code.ss-impl-actual { background: var(--ss-impl-fail-bg); border-radius: 3px; padding: 0 4px; }
.ss-impl-problems { margin: 0; padding: 0; list-style: none; display: grid; gap: 4px; }
.ss-impl-problem {
  display: grid; gap: 2px; border-left: 3px solid var(--ss-error); padding: 2px 0 2px 8px;
}
.ss-impl-where { font-size: 12.5px; color: var(--ss-muted); }
.ss-impl-code-link {
  font: inherit; color: var(--ss-accent); background: none; border: 0; padding: 0; cursor: pointer; text-decoration: underline;
}
.ss-impl-problem-text { color: var(--ss-error); }
.ss-impl-more { margin: 4px 0 0; font-size: 12.5px; color: var(--ss-muted); }
.ss-impl-script { overflow-x: auto; border: 1px solid var(--ss-border); border-radius: 6px; }
.ss-impl-compare { border-collapse: collapse; min-width: 100%; font: 12.5px var(--ss-mono); font-variant-numeric: tabular-nums; }
.ss-impl-compare caption { caption-side: top; text-align: left; padding: 4px 8px; color: var(--ss-muted); font-family: var(--ss-font); font-size: 12.5px; }
.ss-impl-compare th, .ss-impl-compare td { padding: 1px 8px; text-align: left; white-space: pre; border-top: 1px solid var(--ss-grid); vertical-align: top; }
.ss-impl-compare thead th { font-family: var(--ss-font); font-weight: 600; color: var(--ss-muted); background: var(--ss-panel); border-top: 0; }
.ss-impl-compare tbody th { font-weight: 400; color: var(--ss-muted); text-align: right; }
.ss-impl-compare th:first-child { width: 1%; text-align: right; }
.ss-impl-comment { color: var(--ss-tok-comment); font-style: italic; }
td.ss-impl-expected { background: var(--ss-impl-ok-bg); }
td.ss-impl-actual { background: var(--ss-impl-fail-bg); }
.ss-impl-row-first > th { box-shadow: inset 3px 0 var(--ss-error); color: var(--ss-error); font-weight: 700; }
.ss-impl-row-problem > th { color: var(--ss-error); font-weight: 700; }
.ss-impl-row-problem > .ss-impl-src { text-decoration: underline wavy var(--ss-error); text-underline-offset: 2px; }
.ss-impl-actions { display: flex; gap: 8px; flex-wrap: wrap; }

/* The ramp chart's overlay: the learner's run over the reference. */
.ss-overlay-series .ss-line.ss-overlay-line, .ss-overlay-key .ss-line.ss-overlay-line {
  stroke-width: 1.5; stroke-dasharray: 5 3;
}
.ss-overlay-series .ss-line.ss-overlay-line { stroke-width: 1.75; }
.ss-overlay-pick { fill: var(--ss-bg); stroke: var(--ss-series); stroke-width: 1.5; }
.ss-overlay-key {
  display: flex; flex-wrap: wrap; gap: 2px 14px; align-items: center;
  margin: 4px 8px 0; font-size: 12.5px; color: var(--ss-muted);
}
.ss-overlay-key-item { display: inline-flex; align-items: center; gap: 6px; }
.ss-overlay-caption { font-weight: 600; color: var(--ss-fg); }
.ss-overlay-key .ss-line { stroke-width: 2.25; }
`;

/** Adopts the implement mode's stylesheet into a document or shadow root (once). */
export const adoptImplementStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(() => IMPLEMENT_CSS);
