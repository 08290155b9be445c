// The runner's CSS as a string, adopted as a constructable stylesheet into a
// document or a shadow root (no <style> element, so no inline-style CSP
// exception is needed for it). Colours use light-dark(): the theme follows
// the inherited `color-scheme`, which the page (or a host element) sets from
// prefers-color-scheme or its theme toggle.

import { stylesheetAdopter } from '../shared/adopt-styles.js';
import { PICK_EXPLAIN_CSS } from './pick-explain.js';
import { PREDICT_CSS } from './predict.js';
import { RUN_PROGRESS_CSS } from './run-progress.js';
import { PREVIEW_CSS } from './script-preview.js';

export const RUNNER_CSS = /* css */ `
.ss-runner {
  --ss-font: system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
  --ss-mono: ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace;
  --ss-bg: light-dark(#ffffff, #101318);
  --ss-panel: light-dark(#f6f7f9, #171a20);
  --ss-editor-bg: light-dark(#ffffff, #12151a);
  --ss-gutter-bg: light-dark(#f6f7f9, #171a20);
  --ss-fg: light-dark(#1b1f25, #e3e6eb);
  --ss-muted: light-dark(#5a6370, #9ba4b0);
  --ss-border: light-dark(#d6dae0, #2b3039);
  --ss-grid: light-dark(#e9ecf0, #232831);
  --ss-accent: light-dark(#1f56c7, #8ab0ff);
  --ss-on-accent: light-dark(#ffffff, #0c1016);
  --ss-selection: light-dark(#cddfff, #2b416b);
  --ss-active-line: light-dark(#f4f6fa, #191d25);
  --ss-current-bg: light-dark(#e2ebff, #20304f);
  --ss-linked-bg: light-dark(#fff0c2, #463a12);
  --ss-error: light-dark(#b91c1c, #ff8a80);
  --ss-tok-keyword: light-dark(#7a2fb8, #d2a8ff);
  --ss-tok-name: light-dark(#0b6e83, #6fd6e8);
  --ss-tok-number: light-dark(#a34b00, #ffb370);
  --ss-tok-comment: light-dark(#5f6b78, #8b96a3);
  /* Series colours (Tableau 10, darkened for white and lightened for dark). */
  --ss-p0: light-dark(#2f6db5, #79a8e8);
  --ss-p1: light-dark(#dd6a00, #ffa552);
  --ss-p2: light-dark(#c8313b, #ff7d83);
  --ss-p3: light-dark(#1f8a80, #5dcabd);
  --ss-p4: light-dark(#3f8f35, #84d273);
  --ss-p5: light-dark(#a87f00, #ecc94b);
  --ss-p6: light-dark(#8e4fa0, #d19ad8);
  --ss-p7: light-dark(#d4457a, #ff95b8);
  --ss-p8: light-dark(#7d5a3c, #c9a07c);
  --ss-p9: light-dark(#4b5563, #b7bec9);
  container-type: inline-size;
  color: var(--ss-fg);
  font: 14px/1.45 var(--ss-font);
  display: block;
}
.ss-runner *, .ss-runner *::before, .ss-runner *::after { box-sizing: border-box; }
.ss-runner [hidden] { display: none !important; }
.ss-runner :focus-visible { outline: 2px solid var(--ss-accent); outline-offset: 2px; }

.ss-c0 { --ss-series: var(--ss-p0); } .ss-c1 { --ss-series: var(--ss-p1); }
.ss-c2 { --ss-series: var(--ss-p2); } .ss-c3 { --ss-series: var(--ss-p3); }
.ss-c4 { --ss-series: var(--ss-p4); } .ss-c5 { --ss-series: var(--ss-p5); }
.ss-c6 { --ss-series: var(--ss-p6); } .ss-c7 { --ss-series: var(--ss-p7); }
.ss-c8 { --ss-series: var(--ss-p8); } .ss-c9 { --ss-series: var(--ss-p9); }
.ss-none { --ss-series: var(--ss-muted); }

/* Toolbar */
.ss-toolbar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 10px; margin-bottom: 10px; }
.ss-btn {
  font: inherit; font-size: 14px; color: var(--ss-fg); background: var(--ss-bg);
  border: 1px solid var(--ss-border); border-radius: 6px; padding: 4px 12px; min-height: 34px;
  display: inline-flex; align-items: center; gap: 6px; cursor: pointer;
}
.ss-btn:hover:not(:disabled) { border-color: var(--ss-accent); }
.ss-btn:disabled { opacity: 0.45; cursor: default; }
.ss-primary { background: var(--ss-accent); border-color: var(--ss-accent); color: var(--ss-on-accent); font-weight: 600; }
.ss-kbd { font: 11px var(--ss-mono); opacity: 0.85; }
/* A touch screen has no Ctrl+Enter to hint at. */
@media (hover: none) and (pointer: coarse) { .ss-kbd, .ss-kbd-hint { display: none; } }
.ss-check { display: inline-flex; align-items: center; gap: 6px; cursor: pointer; min-height: 34px; }
.ss-check input { width: 16px; height: 16px; margin: 0; accent-color: var(--ss-accent); }
.ss-status { flex: 1 1 18rem; min-width: 0; color: var(--ss-muted); overflow-wrap: anywhere; }
.ss-status-problem { color: var(--ss-error); }

/* Examples menu */
.ss-menu { position: relative; }
.ss-menu > summary { list-style: none; user-select: none; }
.ss-menu > summary::-webkit-details-marker { display: none; }
.ss-menu > summary::after { content: "▾"; font-size: 11px; opacity: 0.7; }
.ss-menu-list {
  position: absolute; z-index: 30; top: calc(100% + 4px); left: 0; width: min(360px, 100cqi);
  margin: 0; padding: 4px; list-style: none; background: var(--ss-bg); border: 1px solid var(--ss-border);
  border-radius: 8px; box-shadow: 0 8px 24px light-dark(rgb(0 0 0 / 0.14), rgb(0 0 0 / 0.5));
}
.ss-menu-item {
  display: block; width: 100%; text-align: left; font: inherit; color: inherit; background: none;
  border: 0; border-radius: 6px; padding: 7px 10px; cursor: pointer;
}
.ss-menu-item:hover, .ss-menu-item:focus-visible { background: var(--ss-current-bg); }
.ss-menu-title { display: block; font-weight: 600; }
.ss-menu-summary { display: block; font-size: 12.5px; color: var(--ss-muted); }

/* Panels: stacked when narrow, editor + output side by side from 760 px,
   all three side by side from 1240 px (sizes of the runner, not the window). */
.ss-panels { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); }
.ss-panel {
  min-width: 0; display: flex; flex-direction: column; background: var(--ss-panel);
  border: 1px solid var(--ss-border); border-radius: 8px; overflow: hidden;
}
/* A re-run repaints these on their own, not the page. (Not the editor:
   containment would clip its fixed-position tooltips.) */
.ss-output, .ss-chart, .ss-legend { contain: content; }
/* The output list's size never comes from its rows (its height is set below,
   its width is its panel's): sized containment makes it a layout root, so
   the rows a scroll refills, or the current row's mark, lay out the list
   alone, not the page (PL-33). */
.ss-output { contain: strict; }
/* A legend item's size is its grid cell's and one line's: its weight and
   score change at every step of a run playing, laid out inside the item. */
.ss-legend-item { contain: layout paint style; }
.ss-panel-head {
  display: flex; align-items: baseline; justify-content: space-between; gap: 8px;
  padding: 6px 12px; border-bottom: 1px solid var(--ss-border);
}
.ss-panel-head > :first-child, .ss-panel-head > .ss-sr-only + .ss-tabs {
  margin: 0; font-size: 12px; font-weight: 700; letter-spacing: 0.06em; text-transform: uppercase; color: var(--ss-muted);
}
.ss-panel-meta { font-size: 12px; color: var(--ss-muted); white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
.ss-editor, .ss-output { height: var(--ss-pane-height, clamp(240px, 46vh, 420px)); }
.ss-panel-output .ss-output { height: var(--ss-output-height, min(240px, var(--ss-output-fit, 240px))); }
@container (min-width: 760px) {
  .ss-panels { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
  .ss-panel-chart { grid-column: 1 / -1; }
  .ss-editor, .ss-panel-output .ss-output { height: var(--ss-pane-height, clamp(280px, 44vh, 560px)); }
}
@container (min-width: 1240px) {
  .ss-panels { grid-template-columns: minmax(0, 5fr) minmax(0, 3fr) minmax(0, 7fr); align-items: start; }
  .ss-panel-chart { grid-column: auto; }
  .ss-editor, .ss-panel-output .ss-output { height: var(--ss-pane-height, clamp(360px, 72vh, 820px)); }
  /* Without the chart (the element's no-chart), the two panes share the row. */
  .ss-no-chart .ss-panels { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
}
/* A wide chart tab (Traffic): its panel takes a row of its own under the
   Script and Output panels, which share theirs (stacked when narrow) and are
   kept short so that the tab starts near the top. */
.ss-panels[data-wide-tab] { align-items: start; }
.ss-panels[data-wide-tab] .ss-panel-chart { grid-column: 1 / -1; }
.ss-panels[data-wide-tab] .ss-editor, .ss-panels[data-wide-tab] .ss-panel-output .ss-output { height: var(--ss-pane-height, clamp(180px, 28vh, 300px)); }
@container (min-width: 760px) {
  .ss-panels[data-wide-tab] { grid-template-columns: minmax(0, 3fr) minmax(0, 2fr); }
}
/* The Ramp tab's parts while another tab is shown. */
.ss-tab-away { display: none !important; }
.ss-editor { background: var(--ss-editor-bg); }
.ss-editor .cm-editor { height: 100%; }

/* Output (virtualized rows) */
.ss-output { position: relative; overflow: auto; background: var(--ss-editor-bg); font: 13px var(--ss-mono); }
.ss-output:focus-visible { outline-offset: -2px; }
.ss-out-spacer { position: relative; }
/* A row is 24 px, 18 px more per line when a long line wraps (output-wrap.ts).
   The probe is an invisible row that measures the text column. */
.ss-out-row, .ss-out-probe { display: flex; align-items: flex-start; gap: 8px; padding: 3px 10px 3px 4px; line-height: 18px; }
.ss-out-row { position: absolute; top: 0; left: 0; right: 0; height: 24px; cursor: pointer; overflow: hidden; }
.ss-out-probe { visibility: hidden; pointer-events: none; height: 0; padding-top: 0; padding-bottom: 0; overflow: hidden; }
.ss-out-probe .ss-probe-text { white-space: pre; }
.ss-out-row:hover { background: var(--ss-active-line); }
.ss-out-row.ss-linked { background: var(--ss-linked-bg); }
.ss-out-row[aria-selected="true"] { background: var(--ss-current-bg); box-shadow: inset 3px 0 var(--ss-accent); }
.ss-out-line { user-select: none; -webkit-user-select: none; }
.ss-panel-tools { display: flex; gap: 4px; margin: -4px 0 -4px auto; }
/* The head's meta keeps its words: the tools go under the title when the panel is narrow. */
.ss-panel-head:has(.ss-panel-tools) { flex-wrap: wrap; row-gap: 6px; }
.ss-panel-head:has(.ss-panel-tools) .ss-panel-meta { flex: none; }
.ss-mini { min-height: 22px; padding: 0 7px; font-size: 12px; line-height: 20px; }
.ss-out-line, .ss-probe-line { flex: none; min-width: 4ch; text-align: right; color: var(--ss-muted); font-variant-numeric: tabular-nums; white-space: pre; }
.ss-out-text, .ss-probe-text { flex: 1 1 0; min-width: 0; overflow: hidden; white-space: pre-wrap; overflow-wrap: anywhere; }
.ss-out-row .ss-swatch, .ss-out-probe .ss-swatch { margin-top: 4.5px; }
.ss-swatch { flex: none; width: 9px; height: 9px; border-radius: 50%; background: var(--ss-series, transparent); }
.ss-swatch.ss-blank { background: transparent; }
.ss-muted { color: var(--ss-muted); }
.ss-out-empty { position: absolute; inset: 0 0 auto 0; margin: 0; padding: 12px; color: var(--ss-muted); font-family: var(--ss-font); }

/* Playhead transport */
.ss-transport { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; padding: 8px 12px 0; }
.ss-icon-btn { padding: 0; width: 36px; justify-content: center; }
.ss-icon-btn svg { fill: currentColor; }
.ss-scrub { flex: 1 1 8rem; min-width: 6rem; height: 28px; margin: 0; accent-color: var(--ss-accent); }
.ss-readout { flex: 1 1 100%; font-size: 12.5px; color: var(--ss-muted); font-variant-numeric: tabular-nums; min-height: 1.45em; }

/* Ramp chart */
.ss-chart { padding: 2px 4px 0; min-width: 0; }
.ss-chart-svg { display: block; width: 100%; height: auto; user-select: none; touch-action: pan-y; cursor: crosshair; }
/* What is still to come while a run plays: the chart's own background, 72 % opaque (the
   future at 28 %), slid by the compositor (ramp-chart.ts). */
.ss-chart-frame { position: relative; overflow: hidden; }
.ss-veil { position: absolute; left: 0; pointer-events: none; opacity: 0.72; will-change: transform; }
.ss-veil[hidden], .ss-chart-marks[hidden] { display: none; }
.ss-chart-marks { position: absolute; left: 0; top: 0; pointer-events: none; overflow: visible; }
.ss-veil-plot { background: var(--ss-panel); }
.ss-veil-lane { background: var(--ss-editor-bg); }
.ss-chart-svg text, .ss-chart-marks text { font-family: var(--ss-font); }
.ss-grid { stroke: var(--ss-grid); stroke-width: 1; }
.ss-axis { stroke: var(--ss-muted); stroke-width: 1; }
.ss-tick { fill: var(--ss-muted); font-size: 11px; font-variant-numeric: tabular-nums; }
.ss-tick-y { text-anchor: end; dominant-baseline: middle; }
.ss-tick-x { text-anchor: middle; }
.ss-axis-title { fill: var(--ss-muted); font-size: 11px; }
.ss-line { fill: none; stroke: var(--ss-series); stroke-width: 2.25; stroke-linejoin: round; stroke-linecap: butt; }
.ss-line.ss-dash1 { stroke-dasharray: 7 3; }
.ss-line.ss-dash2 { stroke-dasharray: 2 2.5; }
.ss-lane-bg { fill: var(--ss-editor-bg); stroke: var(--ss-border); }
.ss-lane-sep { stroke: var(--ss-grid); }
.ss-lane-label { fill: var(--ss-fg); font-size: 11px; text-anchor: end; dominant-baseline: middle; }
.ss-pick { fill: var(--ss-series); }
.ss-clock-line { stroke: var(--ss-fg); stroke-width: 1.25; stroke-dasharray: 4 3; opacity: 0.8; }
.ss-clock-label { fill: var(--ss-fg); font-size: 11px; font-weight: 600; text-anchor: middle; }
.ss-caret { stroke: var(--ss-fg); stroke-width: 1.5; }
.ss-pick-ring { fill: none; stroke: var(--ss-fg); stroke-width: 1.5; }
.ss-chart-empty { fill: var(--ss-muted); font-size: 13px; }
.ss-jump-band { fill: var(--ss-grid); opacity: 0.6; }
.ss-jump-rule { stroke: var(--ss-muted); stroke-width: 1.25; stroke-dasharray: 2 3; }
.ss-jump-label { fill: var(--ss-fg); font-size: 11px; text-anchor: end; paint-order: stroke; stroke: var(--ss-panel); stroke-width: 3px; stroke-linejoin: round; }
.ss-chart-note { margin: 2px 12px; font-size: 12px; color: var(--ss-muted); }
.ss-export-note { margin: 4px 12px; font-size: 12.5px; max-width: 75ch; }
.ss-export-note:empty { display: none; }
/* Words for screen readers only (the chart panel's heading, where its tabs are shown). */
.ss-sr-only { position: absolute; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0; }

/* Legend */
.ss-legend {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(15rem, 1fr)); gap: 4px 16px;
  margin: 0; padding: 6px 12px 8px; list-style: none; font-size: 13px;
}
.ss-legend-item { display: inline-flex; align-items: center; gap: 6px; min-width: 0; }
.ss-legend-swatch { flex: none; }
.ss-legend-swatch .ss-line { stroke-width: 3; }
.ss-legend-name { font-family: var(--ss-mono); font-weight: 600; white-space: pre; max-width: 18ch; min-width: 3ch; overflow: hidden; text-overflow: ellipsis; }
/* The figures keep their width (a long score drew over the picks when they
   shrank, PL-35); the name gives way, with an ellipsis. */
.ss-legend-weight, .ss-legend-picks { color: var(--ss-muted); font-variant-numeric: tabular-nums; white-space: nowrap; flex: none; }
.ss-legend-weight { min-width: 3.5em; }
.ss-legend-more { color: var(--ss-muted); }

/* Timeline table (the chart's text alternative) */
.ss-table-details { border-top: 1px solid var(--ss-border); }
.ss-table-details > summary { cursor: pointer; padding: 8px 12px; font-weight: 600; width: max-content; }
.ss-table-scroll {
  max-height: 340px; overflow: auto; margin: 0 12px 12px; border: 1px solid var(--ss-border); border-radius: 6px;
  background: var(--ss-editor-bg); container-type: inline-size;
}
.ss-table { min-width: 100%; border-collapse: collapse; font: 12.5px var(--ss-mono); font-variant-numeric: tabular-nums; }
/* The caption stays in view (and wraps to the box) when the table scrolls sideways. */
.ss-table caption {
  caption-side: top; text-align: left; padding: 6px 8px; color: var(--ss-muted); font-family: var(--ss-font);
  position: sticky; left: 0; max-width: 100cqi; box-sizing: border-box;
}
.ss-table th, .ss-table td { padding: 2px 10px; text-align: right; white-space: pre; border-bottom: 1px solid var(--ss-grid); }
.ss-table thead { position: sticky; top: 0; z-index: 1; }
.ss-table thead th { background: var(--ss-panel); }
.ss-table tbody th { font-weight: 400; color: var(--ss-muted); }
.ss-table tr[aria-current="true"] { background: var(--ss-current-bg); }
/* The Pick column stays in view when the backends' columns scroll sideways. */
.ss-table .ss-table-pick { position: sticky; right: 0; background: var(--ss-editor-bg); border-left: 1px solid var(--ss-grid); }
.ss-table thead .ss-table-pick { background: var(--ss-panel); }
.ss-table tr[aria-current="true"] > .ss-table-pick { background: var(--ss-current-bg); }
.ss-table thead tr + tr th { font: 11px var(--ss-font); color: var(--ss-muted); }
.ss-table th.ss-table-name { text-align: center; border-left: 1px solid var(--ss-grid); }
.ss-table td.ss-table-w { border-left: 1px solid var(--ss-grid); }
.ss-table td.ss-table-s { color: var(--ss-muted); }

@media (prefers-reduced-motion: reduce) {
  .ss-runner * { scroll-behavior: auto !important; transition: none !important; animation: none !important; }
}
`;

/** Adopts the runner's stylesheet into a document or shadow root (once). */
/* Chart panel tabs (Ramp and the host's: chart-tabs.ts) */
const TABS_CSS = /* css */ `
.ss-tabs { display: inline-flex; gap: 2px; }
.ss-tab {
  font: inherit; font-size: 12px; font-weight: 600; letter-spacing: 0.06em; text-transform: uppercase;
  color: var(--ss-muted); background: none; border: 0; border-bottom: 2px solid transparent;
  padding: 2px 8px 3px; cursor: pointer;
}
.ss-tab[aria-selected="true"] { color: var(--ss-fg); border-bottom-color: var(--ss-accent); }
.ss-tab:hover { color: var(--ss-fg); }
.ss-tab[aria-disabled="true"] { opacity: 0.55; cursor: not-allowed; }
.ss-tab-box { padding: 8px 12px 12px; }
`;

export const adoptRunnerStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(
  () => RUNNER_CSS + TABS_CSS + PICK_EXPLAIN_CSS + RUN_PROGRESS_CSS + PREVIEW_CSS + PREDICT_CSS,
);
