// The Traffic view's CSS, adopted when the tab is first shown (open-view.ts),
// after the runner's (web/runner/styles.ts), whose variables and chart
// classes it builds on.
import { stylesheetAdopter } from '../shared/adopt-styles.js';

const TRAFFIC_CSS = /* css */ `
.ss-traffic { display: grid; gap: 6px; min-width: 0; }
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
`;

/** Adopts the Traffic view's stylesheet into a document or shadow root (once). */
export const adoptTrafficStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(() => TRAFFIC_CSS);
