// The typed API's two cost questions (issue #22), measured in `npm run bench`
// (bench.mjs) or alone: `node tests/bench/api-costs.mjs [script]` (dist/ built).
//
// - Balancer.setPool with 100,000 backends against run('POOL ...') building
//   the same pool: the goal is within 2x.
// - run() with the timeline (the default: what the page's chart needs)
//   against { timeline: false }, on a whole script: CPU time, and the JS
//   heap the result holds.
//
// CPU time, medians of alternating rounds, each round's ratio taken in the
// round (the shared machine drifts between minutes).
import { readFileSync } from 'node:fs';
import { cpuMs, median } from './engine-loops.mjs';

const fmt = (x, digits = 0) => x.toLocaleString('en-US', { maximumFractionDigits: digits });

/** Rounds of `a` then `b`: the median of each and of the per-round ratios b/a. */
function alternate(a, b, rounds) {
  a();
  b();
  const as = [];
  const bs = [];
  const ratios = [];
  for (let i = 0; i < rounds; i++) {
    const ta = cpuMs(a);
    const tb = cpuMs(b);
    as.push(ta);
    bs.push(tb);
    ratios.push(tb / ta);
  }
  return { a: median(as), b: median(bs), ratio: median(ratios), spread: [Math.min(...ratios), Math.max(...ratios)] };
}

/** Markdown lines for the report. `script` is a whole script (bytes or text) for the timeline's cost. */
export function apiCosts(slowstart, script, rounds = 9) {
  const lines = [];
  const n = 100_000;
  const entries = Array.from({ length: n }, (_, i) => ({ name: `backend-${i}`, weight: 1 + ((i * 7919) % 16) * 6 }));
  const poolLine = `POOL ${entries.map((e) => `${e.name}=${e.weight}`).join(' ')}\n`;
  const balancer = slowstart.createBalancer();
  const pool = alternate(
    () => slowstart.run(poolLine, { timeline: false }),
    () => balancer.setPool(entries),
    rounds,
  );
  balancer.dispose();
  const timeline = alternate(
    () => slowstart.run(script, { timeline: false }),
    () => slowstart.run(script),
    Math.max(3, rounds >> 1),
  );
  const heap = (options) => {
    globalThis.gc?.();
    const before = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    const kept = slowstart.run(script, options);
    const after = process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
    return { mb: (after - before) / 1e6, kept };
  };
  const off = heap({ timeline: false }).mb;
  const on = heap({}).mb;
  lines.push('## API costs (typed API in Node, CPU ms, medians of alternating rounds)');
  lines.push('');
  lines.push('| what | baseline | measured | ratio (median, spread) |');
  lines.push('|---|---|---|---|');
  lines.push(
    `| Balancer.setPool, ${fmt(n)} backends, vs run('POOL ...') of the same pool (goal: within 2×), ${rounds} rounds | ${fmt(pool.a, 1)} | ${fmt(pool.b, 1)} | ${pool.ratio.toFixed(2)}× (${pool.spread.map((x) => x.toFixed(2)).join('–')}) |`,
  );
  lines.push(
    `| run() with the timeline (the default) vs { timeline: false }, the ${fmt(script.length)}-byte script | ${fmt(timeline.a)} | ${fmt(timeline.b)} | ${timeline.ratio.toFixed(2)}× (${timeline.spread.map((x) => x.toFixed(2)).join('–')}) |`,
  );
  lines.push(`| memory the result holds (JS heap + buffers, MB), timeline off vs on${globalThis.gc ? '' : ' (no --expose-gc: rough)'} | ${fmt(off)} | ${fmt(on)} | |`);
  lines.push('');
  return lines;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { loadSlowStart } = await import('../../dist/api/node.js');
  const slowstart = await loadSlowStart();
  const script = process.argv[2] ? readFileSync(process.argv[2]) : Buffer.from('POOL a=5 b=1 c=1\nPICK\nWEIGHTS\nNOW 3\n'.repeat(250_000));
  console.log(apiCosts(slowstart, script).join('\n'));
}
