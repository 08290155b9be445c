// A run's scores are not copied out of the engine module: the timeline works
// them out from its winners under the SPEC's rules (web/api/timeline.ts,
// run-view.ts). The oracle is the engine's own record of every score change
// (cpp/core/timeline.cpp), read from the same run: at every step of scripts
// that join, drop, re-add in place, ramp, tie, pick from one backend, from a
// pool whose backends are all down or at weight 0, and past a clock jump,
// each backend's score must be the engine's, and the change columns, when a
// reader asks for them, the engine's byte for byte.
import { describe, expect, it } from 'vitest';
import { slowstart } from '../support/engine.js';
import { Engine } from '../../../web/api/engine-abi.js';
import { readRun } from '../../../web/api/run-view.js';
import { scoresAfter, scoresDerived, Timeline } from '../../../web/api/timeline.js';
import { writeInput } from '../../../web/api/wasm-io.js';
import { toRunResult } from '../../../web/api/run-result.js';

// The engine's run of `script` read twice: the change columns copied (as the lab module's runs
// are read), and left in the module (as run() reads them).
function bothWays(script: string): { recorded: Timeline; derived: Timeline } {
  const engine = (slowstart as unknown as { module: Engine }).module; // the package's engine module, read by this tree's code
  const m = engine.exports;
  const read = (derive: boolean) => {
    const length = writeInput(engine, script);
    const raw = readRun(m, m._ss_run(length, derive ? 1 : 2), derive); // 2: the engine records the changes
    m._ss_release_run();
    return Timeline.fromRaw(raw.timeline!);
  };
  return { recorded: read(false), derived: read(true) };
}

const scoresAt = (t: Timeline, i: number) => {
  const s = scoresAfter(t, i);
  return s ? [...s] : null;
};

function expectSameScores(script: string): Timeline {
  const { recorded, derived } = bothWays(script);
  expect(scoresDerived(derived)).toBe(true);
  expect(scoresDerived(recorded)).toBe(false);
  expect(derived.length).toBe(recorded.length);
  for (let i = 0; i < recorded.length; i++) expect(scoresAt(derived, i), `step ${i}`).toEqual(scoresAt(recorded, i));
  // Backwards and jumping about (the cursor starts again at a block).
  for (let i = recorded.length - 1; i >= 0; i -= 3) expect(scoresAt(derived, i), `step ${i} going back`).toEqual(scoresAt(recorded, i));
  // The columns themselves, for a reader of the public fields.
  expect([...derived.stepScoresEnd]).toEqual([...recorded.stepScoresEnd]);
  expect([...derived.scoreCell]).toEqual([...recorded.scoreCell]);
  expect([...derived.scoreValue]).toEqual([...recorded.scoreValue]);
  return derived;
}

describe('scores worked out from the winners', () => {
  it('match the engine when b and c tie and d ramps in', () => {
    const t = expectSameScores('POOL a=4 b=2 c=2\nPICK\nPICK\nNOW 10\nADD d=8 40\nPICK\nWEIGHTS\nPICK\n');
    const last = t.pool(t.length - 1).map((b) => b.score);
    expect(last.reduce((a, b) => a! + b!, 0)).toBe(0); // smooth WRR keeps the scores' sum at 0
  });

  it('match the engine through DOWN, UP, ADD in place, a lone participant and a pool with no one to pick', () => {
    expectSameScores(
      [
        'POOL a=5 b=1 c=3',
        'PICK', 'PICK', 'PICK',
        'DOWN a', 'PICK', 'PICK',
        'DOWN b', 'PICK', 'PICK', // c alone: its score never moves (it gains and gives back its weight)
        'DOWN c', 'PICK', 'WEIGHTS', // NONE: nothing changes
        'UP a 30', 'NOW 5', 'PICK', 'PICK',
        'ADD b=7 0', 'PICK', 'PICK', 'PICK', // b again, in place, score 0
        'NOW 15', 'UP c 10', 'PICK', 'PICK', 'PICK', 'PICK',
        'NOW 2', 'PICK', 'PICK', // the clock goes back
      ].join('\n'),
    );
  });

  it('match the engine on a long script with ramps in progress and twenty backends', () => {
    const lines = ['POOL ' + Array.from({ length: 10 }, (_, i) => `b${i}=${1 + ((i * 7) % 10)}`).join(' ')];
    for (let i = 1; lines.length < 3000; i++) {
      if (i % 50 === 0) lines.push(`NOW ${i}`);
      else if (i % 300 === 7) lines.push(`ADD n${(i / 300) | 0}=${5 + (i % 9)} 120`);
      else if (i % 700 === 3) lines.push(`DOWN b${i % 10}`);
      else if (i % 700 === 203) lines.push(`UP b${i % 10} 60`);
      else if (i % 10 === 5) lines.push('WEIGHTS');
      else lines.push('PICK');
    }
    const t = expectSameScores(lines.join('\n'));
    expect(t.scoreCell.length).toBeGreaterThan(20_000); // every pick moved many scores
  });

  it('match the engine on random scripts', () => {
    let seed = 7;
    const rnd = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    for (let run = 0; run < 12; run++) {
      const names = ['a', 'b', 'c', 'd', 'e'];
      const lines = [`POOL ${names.slice(0, 1 + rnd(5)).map((n) => `${n}=${rnd(4)}`).join(' ')}`];
      let now = 0;
      for (let k = 0; k < 150; k++) {
        const r = rnd(20);
        const name = names[rnd(5)];
        if (r < 11) lines.push('PICK');
        else if (r < 13) lines.push(`NOW ${(now += rnd(20))}`);
        else if (r < 15) lines.push(`ADD ${name}=${rnd(6)} ${rnd(3) * 10}`);
        else if (r < 17) lines.push(`DOWN ${name}`);
        else if (r < 19) lines.push(`UP ${name} ${rnd(3) * 10}`);
        else lines.push('WEIGHTS');
      }
      expectSameScores(lines.join('\n'));
    }
  });

  it('are left out of the engine module\'s run, and nothing else is', () => {
    const engine = (slowstart as unknown as { module: Engine }).module;
    const m = engine.exports;
    // mode 1: without the score changes (what run() asks for); 2: with them.
    const raw = (script: string, mode: 1 | 2) => {
      const length = writeInput(engine, script);
      const r = readRun(m, m._ss_run(length, mode));
      m._ss_release_run();
      return r;
    };
    // 100 participants: 2,000,000 / 100 = 20,000 whole picks fit the cap, so
    // steps 0 (POOL) to 20,000 have scores, counted alike both ways.
    const pool = 'POOL ' + Array.from({ length: 100 }, (_, i) => `b${i}=${1 + (i % 7)}`).join(' ');
    const scripts = [
      'POOL a=5 b=1 c=3\nPICK\nDOWN a\nDOWN b\nPICK\nPICK\nDOWN c\nPICK\nbad\nUP a 10\nNOW 4\nPICK\nWEIGHTS\n',
      `${pool}\n${'PICK\n'.repeat(20_100)}`,
    ];
    for (const script of scripts) {
      const without = raw(script, 1);
      const withThem = raw(script, 2);
      expect(without.timeline!.scoreCell.length).toBe(0);
      expect(without.timeline!.scoreValue.length).toBe(0);
      expect(withThem.timeline!.scoreCell.length).toBeGreaterThan(0);
      const { stepScoresEnd: _e1, scoreCell: _c1, scoreValue: _v1, ...rest } = without.timeline!;
      const { stepScoresEnd: _e2, scoreCell: _c2, scoreValue: _v2, ...restWith } = withThem.timeline!;
      expect(rest).toEqual(restWith);
      expect({ ...without, timeline: null }).toEqual({ ...withThem, timeline: null });
    }
    expect(raw(scripts[1], 1).timeline!.scoredSteps).toBe(20_001);
  });

  it('are what run() gives, worked by hand', () => {
    // This tree's reader around the package's engine module: what run() does.
    const engine = new Engine((slowstart as unknown as { module: Engine }).module.exports);
    const script = 'POOL a=3 b=1\nPICK\nPICK\nPICK\nPICK\n';
    const t = toRunResult(engine.run(writeInput(engine, script), true, true)).timeline!;
    expect(scoresDerived(t)).toBe(true);
    // pick 1: a 3 b 1 -> a wins, a -1 b 1; pick 2: a 2 b 2 -> a (first) wins, a -2 b 2;
    // pick 3: a 1 b 3 -> b wins, a 1 b -1; pick 4: a 4 b 0 -> a wins, a 0 b 0.
    expect([1, 2, 3, 4].map((i) => t.pool(i).map((b) => b.score))).toEqual([
      [-1, 1],
      [-2, 2],
      [1, -1],
      [0, 0],
    ]);
  });
});
