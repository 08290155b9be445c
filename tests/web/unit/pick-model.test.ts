// The WebAssembly engine's picks against a model of the SPEC's rules written
// here in a few lines of JavaScript, on random scripts: pools below and above
// the size where the engine's pick changes method (32 backends), ties,
// weight 0, ramps, DOWN/UP and ADD in place, one PICK at a time and in runs.
// The C++ fuzzer checks the same natively; this checks the code clang and V8
// make of it (the pass clang compiles to selects, or to a branch in
// pick_many: cpp/fast/smooth_wrr.hpp).
import { describe, expect, it } from 'vitest';
import { slowstart } from '../support/engine.js';
import { prng } from '../support/prng.mjs';

interface Backend {
  name: string;
  target: number;
  ramp: number;
  joined: number;
  up: boolean;
  score: number;
}

/** The SPEC's language, for the lines generated below (all valid). */
class Model {
  now = 0;
  pool: Backend[] = [];
  out: string[] = [];

  weight(b: Backend): number {
    if (!b.up) return 0;
    if (b.ramp === 0) return b.target;
    const elapsed = Math.max(0, this.now - b.joined);
    return Math.floor((b.target * Math.min(elapsed, b.ramp)) / b.ramp);
  }

  line(words: string[]): void {
    const [op, ...args] = words;
    const find = (name: string) => this.pool.find((b) => b.name === name)!;
    switch (op) {
      case 'POOL':
        this.pool = args.map((e) => {
          const [name, w] = e.split('=');
          return { name, target: Number(w), ramp: 0, joined: this.now, up: true, score: 0 };
        });
        break;
      case 'NOW':
        this.now = Number(args[0]);
        break;
      case 'ADD': {
        const [name, w] = args[0].split('=');
        const b: Backend = { name, target: Number(w), ramp: Number(args[1]), joined: this.now, up: true, score: 0 };
        const at = this.pool.findIndex((x) => x.name === name);
        if (at >= 0) this.pool[at] = b;
        else this.pool.push(b);
        break;
      }
      case 'DOWN':
        find(args[0]).up = false;
        break;
      case 'UP':
        Object.assign(find(args[0]), { up: true, joined: this.now, ramp: Number(args[1]), score: 0 });
        break;
      case 'WEIGHTS':
        this.out.push(
          [...this.pool]
            .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
            .map((b) => `${b.name}=${this.weight(b)}`)
            .join(' '),
        );
        break;
      case 'PICK': {
        let best = -1;
        let total = 0;
        this.pool.forEach((b, i) => {
          const w = this.weight(b);
          if (w <= 0) return;
          b.score += w;
          total += w;
          if (best < 0 || b.score > this.pool[best].score) best = i; // a tie stays with the earlier
        });
        if (best >= 0) this.pool[best].score -= total;
        this.out.push(best < 0 ? 'NONE' : this.pool[best].name);
        break;
      }
    }
  }
}

/** Integers in [0, n), from a seeded generator so that a failure replays by its seed. */
function random(seed: number) {
  const next = prng(seed);
  return (n: number) => Math.floor(next() * n);
}

function script(seed: number, lines: number): string[] {
  const r = random(seed);
  const size = [1, 2, 3, 7, 16, 31, 32, 33, 40][r(9)];
  // Few distinct weights (ties), and 0 now and then.
  const weights = Array.from({ length: 1 + r(4) }, () => r(6) * [1, 7, 1000][r(3)]);
  const names = Array.from({ length: size + 4 }, (_, i) => `b${i}`);
  const out = [`POOL ${names.slice(0, size).map((n) => `${n}=${weights[r(weights.length)]}`).join(' ')}`];
  let now = 0;
  const inPool = new Set(names.slice(0, size));
  for (let i = 0; i < lines; i++) {
    const k = r(20);
    const name = [...inPool][r(inPool.size)];
    if (k < 12) out.push('PICK');
    else if (k < 14) out.push(`NOW ${(now += r(4))}`);
    else if (k < 15) out.push(`DOWN ${name}`);
    else if (k < 16) out.push(`UP ${name} ${r(3) * 5}`);
    else if (k < 18) {
      const added = names[r(names.length)];
      inPool.add(added);
      out.push(`ADD ${added}=${weights[r(weights.length)] + r(3)} ${r(4) * 3}`);
    } else if (k < 19) out.push('WEIGHTS');
    else for (let p = r(20); p > 0; p--) out.push('PICK'); // a run of picks
  }
  return out;
}

describe('the pick in WebAssembly', () => {
  it('gives the SPEC model’s winners and weights on 300 random scripts', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const lines = script(seed, 200);
      const model = new Model();
      for (const l of lines) model.line(l.split(' '));
      const run = slowstart.run(lines.join('\n'), { timeline: false });
      expect(run.diagnostics, `seed ${seed}`).toEqual([]);
      expect(
        run.output.map((o) => o.text),
        `seed ${seed}`,
      ).toEqual(model.out);
    }
  });

  it('gives them one Balancer.pick() at a time as well', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const r = random(seed * 7919);
      const n = [2, 5, 17, 31, 33][r(5)];
      const pool = Array.from({ length: n }, (_, i) => ({ name: `b${i}`, weight: [0, 1, 3, 3, 1000][r(5)] }));
      const model = new Model();
      model.line(['POOL', ...pool.map((b) => `${b.name}=${b.weight}`)]);
      using b = slowstart.createBalancer();
      b.setPool(pool);
      const got: string[] = [];
      for (let k = 0; k < 300; k++) {
        if (k % 50 === 49) {
          const name = `b${r(n)}`;
          model.line(['DOWN', name]);
          b.down(name);
        }
        model.line(['PICK']);
        got.push(b.pick() ?? 'NONE');
      }
      expect(got, `seed ${seed}`).toEqual(model.out);
    }
  });
});
