// The look of the controls that keep a learner's work (script-actions.ts):
// the link box, the notes, the storage line and the earlier versions. Used
// in the element's shadow root and on the runner page.
import { stylesheetAdopter } from '../shared/adopt-styles.js';

const SAVED_WORK_CSS = /* css */ `
.sse-actions:not(:has(> :not([hidden]))) { display: none; }
.sse-actions { margin-bottom: 10px; }
.sse-small { min-height: 28px; padding: 2px 10px; font-size: 13px; }
.sse-note { margin: 6px 0 0; font-size: 13px; color: var(--ss-muted); display: flex; flex-wrap: wrap; align-items: center; gap: 6px; }
.sse-note[hidden] { display: none; }
.sse-note-warn { color: var(--ss-error); }
.sse-link-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; }
.sse-link-row[hidden] { display: none; }
.sse-link {
  flex: 1 1 16rem; min-width: 0; font: 12.5px var(--ss-mono); color: var(--ss-fg); background: var(--ss-editor-bg);
  border: 1px solid var(--ss-border); border-radius: 6px; padding: 4px 8px; min-height: 30px;
}
.sse-link-status { font-size: 13px; color: var(--ss-muted); }
.sse-versions { margin-top: 4px; font-size: 13px; }
.sse-versions > summary { cursor: pointer; width: max-content; max-width: 100%; padding: 2px 0; color: var(--ss-muted); }
.sse-versions-list { margin: 4px 0 0; padding-left: 1.6em; }
.sse-versions-list li { margin: 3px 0; overflow-wrap: anywhere; }
`;

export const adoptSavedWorkStyles: (root: Document | ShadowRoot) => void = stylesheetAdopter(() => SAVED_WORK_CSS);
