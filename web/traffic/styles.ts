// The Traffic view's CSS, adopted when the tab is first shown (open-view.ts),
// after the runner's (web/runner/styles.ts), whose variables and chart
// classes it builds on.
import { stylesheetAdopter } from '../shared/adopt-styles.js';

const TRAFFIC_CSS = /* css */ `
.ss-traffic { display: grid; gap: 6px; min-width: 0; container-type: inline-size; }
.ss-traffic-section { display: grid; gap: 6px; min-width: 0; }
.ss-scenarios { display: grid; gap: 4px; border: 1px solid var(--ss-border); border-radius: 8px; padding: 8px 10px; background: var(--ss-panel); }
.ss-scenarios .ss-traffic-heading { margin: 0; }
.ss-scenario-params { display: contents; }
.ss-scenario-write { align-self: center; margin-top: 14px; }
.ss-scenario-note:empty { display: none; }
.ss-traffic-intro { margin: 0; color: var(--ss-muted); font-size: 13px; max-width: 75ch; }
.ss-traffic-heading { margin: 10px 0 0; font-size: 14px; }
.ss-traffic-status { margin: 0; font-size: 12.5px; color: var(--ss-muted); min-height: 1.45em; }
.ss-traffic-controls { display: flex; flex-wrap: wrap; gap: 6px 14px; align-items: end; }
.ss-field { display: inline-flex; flex-direction: column; gap: 2px; font-size: 12px; color: var(--ss-muted); }
.ss-field[hidden] { display: none; }
.ss-field-hint { max-width: 24ch; font-size: 11.5px; line-height: 1.35; }
.ss-field-error { max-width: 24ch; font-size: 12px; font-weight: 600; color: var(--ss-error); }
.ss-traffic-controls { align-items: start; }
.ss-traffic-warn { color: var(--ss-fg); border-left: 3px solid var(--ss-accent); padding-left: 8px; }
.ss-select, .ss-number {
  font: inherit; font-size: 13px; color: var(--ss-fg); background: var(--ss-bg);
  border: 1px solid var(--ss-border); border-radius: 6px; padding: 4px 6px; min-height: 30px;
}
.ss-number { width: 6.5em; }
.ss-number[aria-invalid="true"] { border-color: var(--ss-error); }
.ss-band { fill: var(--ss-series); fill-opacity: 0.85; stroke: var(--ss-bg); stroke-width: 0.5; }
.ss-band.ss-none { fill-opacity: 0.35; }
.ss-bucket-chart { min-width: 0; }
/* A redraw lays out its own box, not the page around it. */
.ss-bucket-chart, .ss-lanes, .ss-readout { contain: layout paint; }
.ss-flap-side, .ss-trap-side, .ss-traffic-section { contain: layout; }
.ss-traffic-legend { display: flex; flex-wrap: wrap; gap: 2px 14px; margin: 0; padding: 0; list-style: none; font-size: 12.5px; }
.ss-traffic-legend li { display: inline-flex; align-items: center; gap: 6px; }
.ss-traffic-legend .ss-swatch { display: inline-block; width: 12px; height: 12px; border-radius: 2px; background: var(--ss-series); }
.ss-traffic-name { font-family: var(--ss-mono); white-space: pre; }
.ss-trap { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); }
@container (min-width: 720px) { .ss-trap { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.ss-trap-side { min-width: 0; border: 1px solid var(--ss-border); border-radius: 8px; padding: 8px; }
.ss-trap-title { margin: 0 0 4px; font-size: 13.5px; }
.ss-chart-caption { margin: 4px 0 0; font-size: 12px; color: var(--ss-muted); }
.ss-trap-summary { margin: 4px 0 0; font-size: 12.5px; }
.ss-flap { display: grid; gap: 12px; grid-template-columns: minmax(0, 1fr); }
@container (min-width: 720px) { .ss-flap { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.ss-flap-side { min-width: 0; border: 1px solid var(--ss-border); border-radius: 8px; padding: 8px; }
.ss-flap-side[hidden] { display: none; }
.ss-flap-status { margin: 0; font-size: 12.5px; color: var(--ss-muted); min-height: 1.45em; }
.ss-flap-note { margin: 0; font-size: 12.5px; max-width: 90ch; }
.ss-lanes { min-width: 0; }
.ss-lane-name { dominant-baseline: middle; text-anchor: end; }
.ss-lane-serving { fill: var(--ss-series); fill-opacity: 0.85; }
.ss-lane-ramping { fill: var(--ss-series); fill-opacity: 0.35; stroke: var(--ss-series); stroke-width: 1; stroke-dasharray: 2 2; }
.ss-lane-ejected { fill: var(--ss-fg); fill-opacity: 0.9; }
.ss-lanes-key { display: flex; flex-wrap: wrap; gap: 2px 12px; margin: 0; font-size: 11.5px; color: var(--ss-muted); }
.ss-lanes-key[data-more]::after { content: "(" attr(data-more) ")"; }
.ss-lanes-key-item { display: inline-flex; align-items: center; gap: 4px; }
.ss-lanes-swatch { display: inline-block; width: 14px; height: 9px; border-radius: 2px; }
.ss-lanes-swatch.ss-lane-serving { background: var(--ss-muted); }
.ss-lanes-swatch.ss-lane-ramping { background: transparent; border: 1px dashed var(--ss-muted); }
.ss-lanes-swatch.ss-lane-ejected { background: var(--ss-fg); }
.ss-lanes-counts { color: var(--ss-fg); }
/* The time axis: zoom controls, events, the stable moment, the cursor. */
.ss-zoom { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 6px; font-size: 12.5px; }
.ss-zoom-label { font-weight: 600; color: var(--ss-muted); margin-right: 2px; }
.ss-zoom-btn { min-height: 28px; min-width: 32px; padding: 2px 8px; font-size: 13px; justify-content: center; }
.ss-zoom-shown { color: var(--ss-muted); margin-left: 4px; }
.ss-chart-svg { touch-action: pan-y; user-select: none; -webkit-user-select: none; }
.ss-event-line { stroke: var(--ss-fg); stroke-opacity: 0.55; stroke-width: 1; stroke-dasharray: 3 3; }
.ss-event-label { font-size: 10.5px; fill: var(--ss-fg); paint-order: stroke; stroke: var(--ss-bg); stroke-width: 3px; stroke-linejoin: round; }
.ss-stable-line { stroke: var(--ss-p4); stroke-width: 2; }
.ss-stable-label { font-size: 10.5px; fill: var(--ss-p4); text-anchor: end; font-weight: 600; paint-order: stroke; stroke: var(--ss-bg); stroke-width: 3px; }
.ss-cursor-line { stroke: var(--ss-accent); stroke-width: 1.5; pointer-events: none; }
.ss-zoom-drag { fill: var(--ss-accent); fill-opacity: 0.15; stroke: var(--ss-accent); pointer-events: none; }
.ss-bar { fill: var(--ss-series); stroke: none; }
.ss-client-errors { --ss-series: var(--ss-error); }
.ss-retried { --ss-series: var(--ss-muted); }
.ss-bar.ss-retried { fill-opacity: 0.45; }
.ss-line.ss-p50, .ss-line.ss-p99 { --ss-series: var(--ss-fg); stroke-width: 2; }
.ss-line.ss-p99 { stroke-dasharray: 5 3; }
.ss-run-charts { display: grid; gap: 2px; min-width: 0; border-radius: 6px; }
.ss-run-charts:focus-visible { outline: 2px solid var(--ss-accent); outline-offset: 3px; }
.ss-incident { display: grid; gap: 2px; min-width: 0; }
.ss-readout { margin: 4px 0 0; font-size: 12px; min-height: 2.9em; color: var(--ss-fg); }
.ss-incident-table summary { cursor: pointer; font-size: 12px; color: var(--ss-muted); width: max-content; }
.ss-incident-table table { font-size: 11.5px; border-collapse: collapse; margin-top: 4px; display: block; overflow: auto; max-height: 320px; }
.ss-incident-table th, .ss-incident-table td { padding: 2px 6px; border-bottom: 1px solid var(--ss-border); text-align: right; white-space: nowrap; }
.ss-incident-table caption { text-align: left; font-size: 11.5px; color: var(--ss-muted); caption-side: top; }
/* Every option of the flapping runs: a fieldset per group, the rarer ones folded. */
.ss-option-box { display: grid; gap: 4px; min-width: 0; }
.ss-option-box[hidden] { display: none; }
.ss-options { display: grid; gap: 8px; grid-template-columns: minmax(0, 1fr); }
@container (min-width: 720px) { .ss-options { grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); } }
.ss-option-group { min-width: 0; margin: 0; border: 1px solid var(--ss-border); border-radius: 8px; padding: 4px 10px 8px; }
.ss-option-group[hidden] { display: none; }
.ss-option-group legend { font-size: 12.5px; font-weight: 600; padding: 0 4px; }
.ss-option-more summary { cursor: pointer; font-size: 12px; color: var(--ss-muted); width: fit-content; max-width: 100%; margin-top: 6px; }
.ss-option-more > .ss-traffic-controls { margin-top: 4px; }
.ss-flag { font-family: var(--ss-mono); font-size: 11px; white-space: nowrap; }
.ss-option-fixed { margin: 2px 0 0; font-size: 12px; color: var(--ss-muted); font-family: var(--ss-mono); }
.ss-option-fixed[hidden] { display: none; }
/* A run's command line: the copy button, and the lines in a disclosure. */
.ss-command { display: flex; flex-wrap: wrap; align-items: start; gap: 4px 10px; margin-top: 4px; font-size: 12px; }
.ss-command[hidden] { display: none; }
.ss-command-copy { min-height: 28px; padding: 2px 10px; font-size: 12.5px; }
.ss-command-lines { flex: 1 1 12em; min-width: 0; }
.ss-command-lines[open] { flex-basis: 100%; }
.ss-command-lines summary { cursor: pointer; color: var(--ss-muted); width: max-content; line-height: 28px; }
.ss-command-text { margin: 4px 0 0; padding: 6px 8px; font-family: var(--ss-mono); font-size: 11.5px; white-space: pre-wrap; overflow-wrap: anywhere; background: var(--ss-panel); border: 1px solid var(--ss-border); border-radius: 6px; max-height: 240px; overflow: auto; }
`;

/** Adopts the Traffic view's stylesheet into a document or shadow root (once). */
export const adoptTrafficStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(() => TRAFFIC_CSS);
