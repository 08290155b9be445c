// The ramp chart's lines: one step line per backend, with a gap wherever it
// is DOWN or out of the pool, and a break where the clock jumps back (the
// line goes on a little into the jump, so its last value shows). Each
// backend's name is its path's <title>.
import type { Timeline } from '../api/index.js';
import type { ChartFrame } from './chart-frame.js';
import type { ChartModel } from './chart-model.js';
import { sketch, type Sketch } from '../shared/sketch.js';
import { seriesClasses } from '../shared/palette.js';
import { StepPath } from './step-path.js';

/** How far (a share of the jump's width) lines go on into a jump back in time. */
export const JUMP_TAIL = 0.3;

/** `end`: where the lines still drawn at the last step stop (the plot's right edge unless predict mode says). */
export function drawSeries(f: ChartFrame, t: Timeline, m: ChartModel, end = f.right): Sketch {
  const count = f.seriesCount;
  const paths = Array.from({ length: count }, () => new StepPath());
  const lastBlock = new Int32Array(count).fill(-1);
  const open: number[] = []; // ids with a stretch being drawn
  const blocks = t.blockStart.length;
  // The stretch (of a clock that never goes back) each block is in.
  const stretchOf = new Uint32Array(blocks);
  for (let k = 0; k < m.stretches.length; k++) {
    const end = k + 1 < m.stretches.length ? m.stretches[k + 1].firstStep : t.length;
    for (let i = m.stretches[k].firstStep; i < end; i++) stretchOf[t.stepBlock[i]] = k;
  }
  for (let b = 0; b < blocks; b++) {
    if (b > 0 && stretchOf[b] !== stretchOf[b - 1]) {
      const s = m.stretches[stretchOf[b - 1]];
      const at = f.x(s.x0 + (s.to - s.from) + m.gap * JUMP_TAIL);
      for (const id of open) paths[id].end(at);
      open.length = 0;
    }
    const x = f.x(m.blockX[b]);
    const end = b + 1 < blocks ? t.blockStart[b + 1] : t.cellBackend.length;
    for (let c = t.blockStart[b]; c < end; c++) {
      const id = t.cellBackend[c];
      if (id >= count) continue;
      const p = paths[id];
      if (t.cellUp[c] === 1) {
        if (!p.drawing) open.push(id);
        p.to(x, f.y(t.cellWeight[c]) + f.dodge(id));
        lastBlock[id] = b;
      } else {
        p.end(x); // DOWN: the line stops here
      }
    }
    // Backends that left the pool (a POOL without them) stop here too.
    let keep = 0;
    for (const id of open) {
      if (lastBlock[id] !== b) paths[id].end(x);
      if (paths[id].drawing) open[keep++] = id;
    }
    open.length = keep;
  }
  for (const id of open) paths[id].end(end);

  const g = sketch('g', { class: 'ss-series' });
  for (let id = 0; id < count; id++) {
    const path = sketch('path', { class: `ss-line ${seriesClasses(id)}`, attrs: { d: paths[id].finish() } });
    path.append(sketch('title', { text: t.names[id] }));
    g.append(path);
  }
  return g;
}
