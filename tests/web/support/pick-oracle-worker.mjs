// Runs one differential case at a time in a worker thread, so that a pick
// that never returns (a synchronous WebAssembly loop) fails the test that
// started it instead of hanging the run: tests/web/unit/pick-wasm32.test.ts
// sends a case, waits for its answer with a time limit, and terminates this
// worker when none comes.
//
// The oracle is the SPEC's pick as one plain pass over the pool, in
// JavaScript numbers (a score stays below 2^53 here: at most 100,000
// backends of weight 10^6).
import { parentPort } from 'node:worker_threads';
import { loadSlowStart, loadLab } from '../../../dist/api/node.js';
import { prng } from './prng.mjs';

const slowstart = await loadSlowStart();
const lab = await loadLab();

class Oracle {
  now = 0;
  pool = [];
  weight(b) {
    if (!b.up) return 0;
    if (b.ramp === 0) return b.target;
    const elapsed = Math.max(0, this.now - b.joined);
    return Math.floor((b.target * Math.min(elapsed, b.ramp)) / b.ramp);
  }
  setPool(entries) {
    this.pool = entries.map(({ name, weight }) => ({ name, target: weight, ramp: 0, joined: this.now, up: true, score: 0 }));
  }
  add(name, target, ramp) {
    const b = { name, target, ramp, joined: this.now, up: true, score: 0 };
    const at = this.pool.findIndex((x) => x.name === name);
    if (at >= 0) this.pool[at] = b;
    else this.pool.push(b);
  }
  down(name) {
    this.pool.find((b) => b.name === name).up = false;
  }
  up(name, ramp) {
    Object.assign(this.pool.find((b) => b.name === name), { up: true, joined: this.now, ramp, score: 0 });
  }
  pick() {
    let best = -1;
    let total = 0;
    for (let i = 0; i < this.pool.length; i++) {
      const b = this.pool[i];
      const w = this.weight(b);
      if (w <= 0) continue;
      b.score += w;
      total += w;
      if (best < 0 || b.score > this.pool[best].score) best = i; // a tie stays with the earlier
    }
    if (best >= 0) this.pool[best].score -= total;
    return best;
  }
}

const MAX_WEIGHT = 1_000_000;

/** A weight of the case's shape. */
function weightOf(shape, random) {
  switch (shape) {
    case 'max':
      return MAX_WEIGHT;
    case 'pow2-mixed':
      return 2 ** Math.floor(random() * 20); // 1 … 2^19 (2^20 is over the SPEC's 10^6)
    case 'zeros':
      return random() < 0.4 ? 0 : 1 + Math.floor(random() * 4);
    case 'mixed':
      return Math.floor(random() * 1000);
    case 'mixed-max':
      return random() < 0.2 ? MAX_WEIGHT : 1 + Math.floor(random() * MAX_WEIGHT);
    default:
      return Number(shape); // every backend the same: 1, 2, 4, 1024, 65536, …
  }
}

// Batches of every size around the engine's thresholds (32 backends or
// classes, runs of picks between rebases).
const BATCHES = [1, 2, 3, 7, 31, 32, 33, 64, 100, 257];

/**
 * One case: a pool of `size` backends of `shape`, then rounds of a batch of
 * picks (pickMany, and pick() one at a time) and a change (add new or in
 * place, down, up, setNow forward or back). Returns null or what differed.
 */
function runCase({ size, shape, seed, rounds, picks }) {
  const random = prng(seed);
  const oracle = new Oracle();
  const balancer = slowstart.createBalancer();
  try {
    return compare(balancer, oracle, random, size, shape, rounds, picks);
  } finally {
    balancer.dispose();
  }
}

function compare(balancer, oracle, random, size, shape, rounds, picks) {
  const entries = Array.from({ length: size }, (_, i) => ({ name: `b${i}`, weight: weightOf(shape, random) }));
  balancer.setPool(entries);
  oracle.setPool(entries);
  let next = size;
  let budget = picks;
  for (let round = 0; round < rounds; round++) {
    const batch = Math.min(BATCHES[round % BATCHES.length], Math.max(1, budget));
    budget -= batch;
    const got = balancer.pickMany(batch);
    for (let k = 0; k < batch; k++) {
      const want = oracle.pick();
      if (got[k] !== want) return `round ${round}: pickMany(${batch})[${k}] is ${got[k]}, the oracle's ${want}`;
    }
    const one = balancer.pick();
    const want = oracle.pick();
    const wantName = want < 0 ? null : oracle.pool[want].name;
    if (one !== wantName) return `round ${round}: pick() is ${one}, the oracle's ${wantName}`;
    const some = () => oracle.pool[Math.floor(random() * oracle.pool.length)].name;
    switch (round % 5) {
      case 0: {
        const name = `n${next++}`;
        const w = weightOf(shape, random);
        const ramp = Math.floor(random() * 3) * 10;
        balancer.add(name, w, ramp);
        oracle.add(name, w, ramp);
        break;
      }
      case 1: {
        const name = some();
        const w = weightOf(shape, random);
        balancer.add(name, w, 0);
        oracle.add(name, w, 0);
        break;
      }
      case 2: {
        const name = some();
        balancer.down(name);
        oracle.down(name);
        break;
      }
      case 3: {
        const name = some();
        const ramp = Math.floor(random() * 40);
        balancer.up(name, ramp);
        oracle.up(name, ramp);
        break;
      }
      default: {
        const now = random() < 0.2 ? Math.floor(oracle.now / 2) : oracle.now + Math.floor(random() * 15);
        balancer.setNow(now);
        oracle.now = now;
      }
    }
  }
  // The interpreter's PICK lines on the same shape, as a script.
  const script = [`POOL ${entries.map((e) => `${e.name}=${e.weight}`).join(' ')}`, ...Array(Math.min(picks, 300)).fill('PICK')].join('\n');
  const scripted = new Oracle();
  scripted.setPool(entries);
  const output = slowstart.run(script, { timeline: false }).output;
  for (let k = 0; k < output.length; k++) {
    const want = scripted.pick();
    const wantName = want < 0 ? 'NONE' : scripted.pool[want].name;
    if (output[k].text !== wantName) return `PICK line ${k + 2} printed ${output[k].text}, the oracle's ${wantName}`;
  }
  return null;
}

/** `slowstart simulate`'s core on an equal-weight pool: every backend gets the same share, exactly. */
function runSimulation({ size, resolution, weight, added }) {
  const pool = Array.from({ length: size }, (_, i) => `b${i}=${weight}`).join(' ');
  const script = added ? `POOL ${pool}\nADD late=${weight} 0\n` : `POOL ${pool}\n`;
  const n = size + (added ? 1 : 0);
  const traffic = lab.simulate(script, { rps: n * 10, duration: 3, curve: { resolution } });
  for (let k = 0; k < traffic.buckets; k++)
    for (let id = 0; id < n; id++) {
      const got = traffic.requests[k * n + id];
      if (got !== 10) return `bucket ${k}: ${traffic.names[id]} got ${got} requests, not 10`;
    }
  return null;
}

/**
 * A random script: a pool of `size` backends (weights 1 ... maxWeight), then
 * DOWN, UP with a ramp and ADD at random seconds (joins, leaves, weight changes).
 */
function randomScript({ size, maxWeight, seed }) {
  const random = prng(seed);
  const below = (n) => Math.floor(random() * n);
  const lines = ['POOL ' + Array.from({ length: size }, (_, i) => `b${i}=${1 + below(maxWeight)}`).join(' ')];
  let t = 0;
  for (let e = 0; e < 16; e++) {
    t += 1 + below(3);
    lines.push(`NOW ${t}`);
    for (let k = 0, n = 1 + below(Math.max(1, size / 8)); k < n; k++) {
      const what = below(3);
      if (what === 0) lines.push(`DOWN b${below(size)}`);
      else if (what === 1) lines.push(`UP b${below(size)} ${1 + below(6)}`);
      else lines.push(`ADD x${e}_${k}=${1 + below(maxWeight)} ${below(5)}`);
    }
  }
  return lines.join('\n');
}

/**
 * The lab's counted picks (routing only: a millisecond's picks counted per
 * backend at once, SmoothWrr::count_many) against its picks one by one (the
 * service model with no timeout picks each request on its own; it routes
 * exactly as routing alone does): every bucket's count of every backend.
 */
function runCounted(spec) {
  const script = randomScript(spec);
  const options = { rps: spec.rps, duration: 40, bucket: 1, curve: { resolution: spec.resolution } };
  const counted = lab.simulate(script, options);
  const oneByOne = lab.simulate(script, { ...options, service: true });
  const n = counted.names.length;
  for (let i = 0; i < counted.requests.length; i++)
    if (counted.requests[i] !== oneByOne.requests[i])
      return `bucket ${Math.floor(i / n)}: ${counted.names[i % n]} counted ${counted.requests[i]}, picked one by one ${oneByOne.requests[i]}`;
  const total = counted.total.reduce((a, b) => a + b, 0);
  if (total !== spec.rps * 40) return `${total} requests, not ${spec.rps * 40}`;
  return null;
}

const RUNS = { pick: (spec) => runCase(spec), simulate: (spec) => runSimulation(spec), counted: (spec) => runCounted(spec) };

parentPort.on('message', ({ kind, spec }) => {
  try {
    parentPort.postMessage({ problem: RUNS[kind](spec) });
  } catch (e) {
    parentPort.postMessage({ problem: `threw ${e instanceof Error ? e.message : String(e)}` });
  }
});
parentPort.postMessage({ ready: true });
