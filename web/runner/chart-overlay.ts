// A second run of the same script drawn over the ramp chart: the implement
// mode shows the engine's run (the reference) as usual and a learner's run
// on top, so where their effective weights or picks part ways is visible.
//  - Weights: the learner's step lines, dashed and thinner, in the same
//    backend colours (the reference's lines stay solid underneath).
//  - Picks: an outlined tick in the learner's winner's row, only at the
//    picks where the learner's winner differs from the reference's.
import type { Timeline } from '../api/index.js';
import type { ChartFrame } from './chart-frame.js';
import type { ChartModel } from './chart-model.js';
import { drawSeries } from './chart-series.js';
import { h, svg } from '../shared/dom.js';
import { sketch, type Sketch } from '../shared/sketch.js';
import { NONE_CLASS, seriesClasses } from '../shared/palette.js';
import { NO_WINNER, NOT_A_PICK } from '../api/winners.js';

/**
 * True when `overlay` is a run of the same script as `reference`: the same
 * backends (ids by name) and the same steps (lines and clocks). Only the
 * rules differ between the two, never the parsing, so anything else means
 * the overlay belongs to another script.
 */
export function overlayFits(reference: Timeline, overlay: Timeline): boolean {
  return (
    sameArray(reference.names, overlay.names) &&
    sameArray(reference.stepLine, overlay.stepLine) &&
    sameArray(reference.stepNow, overlay.stepNow)
  );
}

/** True when two runs recorded exactly the same thing (a re-run of an unchanged script). */
export function sameRun(a: Timeline, b: Timeline): boolean {
  return (
    a.truncated === b.truncated &&
    overlayFits(a, b) &&
    sameArray(a.stepWinner, b.stepWinner) &&
    sameArray(a.stepBlock, b.stepBlock) &&
    sameArray(a.blockStart, b.blockStart) &&
    sameArray(a.cellBackend, b.cellBackend) &&
    sameArray(a.cellUp, b.cellUp) &&
    sameArray(a.cellWeight, b.cellWeight)
  );
}

/** Whether the overlay's weights and picks are the reference's, step for step (the key says so). */
export function agreement(reference: Timeline, overlay: Timeline): { weights: boolean; picks: boolean } {
  const picks = sameArray(reference.stepWinner, overlay.stepWinner);
  let weights = true;
  let lastA = -1;
  let lastB = -1;
  for (let i = 0; i < reference.length && weights; i++) {
    const a = reference.stepBlock[i];
    const b = overlay.stepBlock[i];
    if (a === lastA && b === lastB) continue; // neither pool changed
    lastA = a;
    lastB = b;
    weights = sameBlock(reference, a, overlay, b);
  }
  return { weights, picks };
}

function blockEnd(t: Timeline, block: number): number {
  return block + 1 < t.blockStart.length ? t.blockStart[block + 1] : t.cellBackend.length;
}

function sameBlock(a: Timeline, ba: number, b: Timeline, bb: number): boolean {
  const startA = a.blockStart[ba];
  const startB = b.blockStart[bb];
  const n = blockEnd(a, ba) - startA;
  if (n !== blockEnd(b, bb) - startB) return false;
  for (let k = 0; k < n; k++) {
    const ca = startA + k;
    const cb = startB + k;
    if (a.cellBackend[ca] !== b.cellBackend[cb] || a.cellUp[ca] !== b.cellUp[cb]) return false;
    if (a.cellUp[ca] === 1 && a.cellWeight[ca] !== b.cellWeight[cb]) return false;
  }
  return true;
}

/**
 * The model the frame is built from when an overlay is shown: the weight
 * axis reaches the higher of the two runs (a learner's weight that overshoots
 * must stay on the chart), and the lane has a NONE row if either run has one.
 */
export function mergeModels(reference: ChartModel, overlay: ChartModel): ChartModel {
  return { ...reference, yMax: Math.max(reference.yMax, overlay.yMax), hasNone: reference.hasNone || overlay.hasNone };
}

/** The overlay's lines and pick marks, drawn in the reference's frame. */
export function drawOverlay(f: ChartFrame, reference: Timeline, overlay: Timeline, overlayModel: ChartModel, label: string): Sketch {
  const g = sketch('g', { class: 'ss-overlay', attrs: { 'aria-hidden': 'true' } });
  const lines = drawSeries(f, overlay, overlayModel);
  lines.attrs.class = 'ss-overlay-series';
  for (const path of lines.children) {
    if (typeof path === 'string' || path.tag !== 'path') continue;
    path.attrs.class += ' ss-overlay-line';
    for (const title of path.children) {
      if (typeof title === 'string' || title.tag !== 'title') continue;
      title.children[0] = `${title.children[0] ?? ''}: ${label}`;
      break;
    }
  }
  g.append(lines, drawDifferentPicks(f, reference, overlay));
  return g;
}

function drawDifferentPicks(f: ChartFrame, reference: Timeline, overlay: Timeline): Sketch {
  const g = sketch('g', { class: 'ss-overlay-picks' });
  const d: string[][] = Array.from({ length: f.rows }, () => []);
  const h = Math.max(2, f.rowH - 3);
  for (let i = 0; i < reference.length; i++) {
    const w = overlay.stepWinner[i];
    if (w === reference.stepWinner[i] || w === NOT_A_PICK || w >= f.seriesCount) continue;
    const row = w === NO_WINNER ? f.seriesCount : w;
    if (row >= f.rows) continue;
    const x = Math.round(f.laneX(i) * 2) / 2;
    d[row].push(`M${x - 2.5} ${f.rowY(row) + 1.5}h5v${h}h-5z`);
  }
  for (let row = 0; row < f.rows; row++) {
    if (d[row].length === 0) continue;
    const cls = row < f.seriesCount ? seriesClasses(row) : NONE_CLASS;
    const name = row < f.seriesCount ? reference.names[row] : 'NONE';
    const path = sketch('path', { class: `ss-overlay-pick ${cls}`, attrs: { d: d[row].join('') } });
    path.append(sketch('title', { text: `your pick: ${name} (the reference picked another)` }));
    g.append(path);
  }
  return g;
}

function sameArray(a: ArrayLike<unknown>, b: ArrayLike<unknown>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * The key above the chart: the test (`caption`), the two line styles and the
 * outlined ticks. It says so when a line or a tick has nothing to show:
 * dashed lines hidden under solid ones look like a drawing problem otherwise.
 */
export function renderOverlayKey(key: HTMLElement, reference: Timeline, overlay: Timeline, label: string, caption: string): void {
  const doc = key.ownerDocument;
  const sample = (cls: string, shape: 'line' | 'tick') => {
    const s = svg(doc, 'svg', { class: 'ss-overlay-sample', attrs: { viewBox: '0 0 22 10', width: '22', height: '10', 'aria-hidden': 'true' } });
    s.append(
      shape === 'line'
        ? svg(doc, 'line', { class: cls, attrs: { x1: '1', x2: '21', y1: '5', y2: '5' } })
        : svg(doc, 'rect', { class: cls, attrs: { x: '8.5', y: '0.5', width: '5', height: '9' } }),
    );
    return s;
  };
  const item = (cls: string, shape: 'line' | 'tick', text: string) =>
    h(doc, 'span', { class: 'ss-overlay-key-item' }, sample(cls, shape), doc.createTextNode(text));
  const same = agreement(reference, overlay);
  key.replaceChildren(
    ...(caption ? [h(doc, 'span', { class: 'ss-overlay-caption', text: caption })] : []),
    item('ss-line ss-none', 'line', 'solid: the reference'),
    item('ss-line ss-overlay-line ss-none', 'line', `dashed: ${label}${same.weights ? ' (the same as the reference)' : ''}`),
  );
  const anyPick = reference.stepWinner.some((w) => w !== NOT_A_PICK);
  if (!same.picks) key.append(item('ss-overlay-pick ss-none', 'tick', 'outlined: your pick, where it differs'));
  else if (anyPick) key.append(h(doc, 'span', { class: 'ss-overlay-key-item', text: 'your picks: the same as the reference' }));
}
