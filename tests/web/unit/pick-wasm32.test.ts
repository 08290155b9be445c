// The fast pick in WebAssembly against the SPEC's O(n) pass, on the pools
// that users have most (every backend at weight 1) and on every weight shape
// that meets the pick's 64-bit arithmetic: equal weights (powers of two
// among them: the rebase point 2^61 / max weight then has no low bits, and
// wasm32's 32-bit size_t once cut the room before it to 0, so pickMany never
// returned), powers of two mixed up to 2^19, the maximum 10^6, zeros, mixed;
// pools of 1 to 100,000 backends; add, down, up and setNow between batches
// of picks of every size; pickMany, pick() and the interpreter's PICK.
// A native test cannot see this: its size_t is 64 bits.
//
// Each case runs in a worker thread with a time limit: a pick that hangs
// fails its case instead of the whole run.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

type Message = { ready?: true; problem?: string | null };
const LIMIT_MS = 30_000;

let worker: Worker;
let ready: Promise<void>;
let answer: ((m: Message) => void) | null = null;

function start(): void {
  worker = new Worker(new URL('../support/pick-oracle-worker.mjs', import.meta.url));
  ready = new Promise((resolve, reject) => {
    worker.once('error', reject);
    worker.on('message', (m: Message) => {
      if (m.ready) resolve();
      else answer?.(m);
    });
  });
}

/** Runs one case in the worker: null when it agreed with the oracle, else what differed or that it hung. */
async function run(kind: 'pick' | 'simulate' | 'counted', spec: object): Promise<string | null> {
  await ready;
  const reply = new Promise<Message>((resolve) => (answer = resolve));
  worker.postMessage({ kind, spec });
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), LIMIT_MS)));
  const got = await Promise.race([reply, hung]);
  clearTimeout(timer);
  if (got === 'hung') {
    await worker.terminate();
    start(); // the next case gets a fresh worker
    return `no answer in ${LIMIT_MS / 1000} s (a pick that never returns)`;
  }
  return got.problem ?? null;
}

beforeAll(start);
afterAll(() => worker.terminate());

const SHAPES = ['1', '2', '4', '1024', '65536', '524288', 'max', 'pow2-mixed', 'zeros', 'mixed', 'mixed-max'];
const SIZES = [1, 2, 31, 32, 33, 127, 128, 129, 1000];

describe('the WebAssembly pick equals the O(n) pass', () => {
  for (const shape of SHAPES)
    it(`weights ${shape}, pools of ${SIZES.join(', ')}`, async () => {
      for (const size of SIZES) {
        const problem = await run('pick', { size, shape, seed: size * 7919 + shape.length, rounds: 40, picks: 2_000 });
        expect(problem, `${size} backends`).toBeNull();
      }
    });

  for (const [size, shape] of [
    [10_000, '1'],
    [10_000, 'pow2-mixed'],
    [100_000, '1'],
    [100_000, '65536'],
    [100_000, 'mixed-max'],
  ] as const)
    it(`${size.toLocaleString('en')} backends, weights ${shape}`, async () => {
      expect(await run('pick', { size, shape, seed: 12345, rounds: 12, picks: 600 })).toBeNull();
    });
});

describe('simulate on equal weights gives every backend the same share', () => {
  for (const resolution of [1, 16, 100, 1000])
    it(`resolution ${resolution}`, async () => {
      for (const [size, weight, added] of [
        [32, 1, false],
        [31, 1, true],
        [64, 2, false],
        [40, 1024, false],
        [200, 1, false],
      ] as const)
        expect(await run('simulate', { size, resolution, weight, added }), `${size} backends at ${weight}`).toBeNull();
    }, 60_000);
});

describe("simulate's counted picks equal its picks one by one", () => {
  // Pools below the index (20), scanned classes (60 at weights 1 ... 7, and
  // at resolution 100 the ramps add classes) and the tournament (300 at
  // weights up to 1,000: hundreds of classes), with joins, leaves and ramps.
  for (const [size, maxWeight] of [
    [20, 7],
    [60, 7],
    [300, 1000],
  ] as const)
    it(`${size} backends, weights 1 to ${maxWeight}`, async () => {
      for (const resolution of [1, 100])
        for (const seed of [1, 2, 3]) {
          const problem = await run('counted', { size, maxWeight, resolution, seed: seed * 7919 + size, rps: size > 100 ? 1_000 : 2_000 });
          expect(problem, `resolution ${resolution}, seed ${seed}`).toBeNull();
        }
    }, 60_000);
});
