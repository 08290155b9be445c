// The typed API against hand-worked cases from the SPEC, its error paths and
// disposal. Expected values are worked by hand, never taken from the engine.
import { describe, expect, it } from 'vitest';
import { rejection } from '../support/rejection.js';
import { slowstart, loadSlowStart, NO_WINNER, NOT_A_PICK } from '../support/engine.js';
import { SPEC_USAGES } from '../support/scripts.js';

const WORKED_EXAMPLE = [
  'POOL a=5 b=1 c=1',
  'PICK',
  'PICK',
  'ADD d=10 20',
  'WEIGHTS',
  'NOW 5',
  'WEIGHTS',
  'PICK',
  'DOWN a',
  'PICK',
  'pick',
].join('\n');

describe('run()', () => {
  it('gives the SPEC worked example, each line tagged with its source line', () => {
    const r = slowstart.run(WORKED_EXAMPLE);
    expect(r.output).toEqual([
      { line: 2, text: 'a' },
      { line: 3, text: 'a' },
      { line: 5, text: 'a=5 b=1 c=1 d=0' },
      { line: 7, text: 'a=5 b=1 c=1 d=2' },
      { line: 8, text: 'b' },
      { line: 10, text: 'c' },
    ]);
    expect(r.diagnostics).toEqual([{ line: 11, message: "unknown command 'pick' (use PICK)", from: 0, to: 4 }]);
  });

  it('says where on its line each problem is, in the units of the script given', () => {
    // Line 1: a byte-order mark (1 unit, 3 bytes), then "POOL é=1 😀=x": the weight
    // 'x' is at units 13-14 (é is 1 unit, 😀 2), bytes 18-19 (é is 2 bytes, 😀 4).
    // Line 2: the pool stayed empty, so 'zz' (5-7) names no backend.
    const script = '\uFEFFPOOL \u00e9=1 \u{1F600}=x\nDOWN zz';
    const text = slowstart.run(script).diagnostics;
    expect(text).toEqual([
      { line: 1, message: "weight must be a non-negative integer, got 'x'", from: 13, to: 14 },
      { line: 2, message: "no backend named 'zz'", from: 5, to: 7 },
    ]);
    expect(text.map((d) => script.split('\n')[d.line - 1].slice(d.from, d.to))).toEqual(['x', 'zz']);
    const bytes = slowstart.run(new TextEncoder().encode(script)).diagnostics;
    expect(bytes.map((d) => [d.from, d.to])).toEqual([
      [18, 19],
      [5, 7],
    ]);
    // The name of a name=weight, the duplicate (not the first), a missing argument (the command).
    expect(slowstart.run('POOL a=1 b\x01=1\nPOOL a=1 a=2\n  ADD a=1  ').diagnostics.map((d) => [d.from, d.to])).toEqual([
      [9, 11],
      [9, 10],
      [2, 9],
    ]);
  });

  it('states the language from the engine: its keywords, how each is written, what it does', () => {
    expect(slowstart.keywords.map((k) => k.word)).toEqual(['POOL', 'NOW', 'ADD', 'DOWN', 'UP', 'WEIGHTS', 'PICK']);
    expect(slowstart.keywords.map((k) => k.usage)).toEqual(SPEC_USAGES);
    for (const k of slowstart.keywords) expect(k.summary.length).toBeGreaterThan(20);
    expect(slowstart.keywords.find((k) => k.word === 'WEIGHTS')?.summary).toContain('sorted by name');
    // The messages quote the same usage.
    expect(slowstart.run('UP a').diagnostics[0].message).toBe('missing argument (usage: UP <name> <ramp>)');
    expect(Object.isFrozen(slowstart.keywords)).toBe(true);
  });

  it('states each keyword\'s arguments from the engine: how many, and what each is (SPEC command table)', () => {
    const shapes = Object.fromEntries(slowstart.keywords.map((k) => [k.word, [k.minArgs, k.maxArgs, k.args]]));
    expect(shapes).toEqual({
      POOL: [0, Infinity, ['entry']], // POOL <name>=<weight> ... (POOL alone empties the pool)
      NOW: [1, 1, ['number']],
      ADD: [2, 2, ['entry', 'number']],
      DOWN: [1, 1, ['name']],
      UP: [2, 2, ['name', 'number']],
      WEIGHTS: [0, 0, []],
      PICK: [0, 0, []],
    });
    expect(Object.isFrozen(slowstart.keywords[0].args)).toBe(true);
  });

  it('keeps an empty WEIGHTS line as one output line', () => {
    expect(slowstart.run('WEIGHTS\nPICK').output).toEqual([
      { line: 1, text: '' },
      { line: 2, text: 'NONE' },
    ]);
    expect(slowstart.run('').output).toEqual([]);
    expect(slowstart.run('# nothing\n\n').diagnostics).toEqual([]);
  });

  it('takes UTF-8 bytes as well as text', () => {
    const bytes = new TextEncoder().encode('POOL caf\u00e9=1 b=1\r\nPICK\r\nPICK\r\n');
    expect(slowstart.run(bytes).output.map((o) => o.text)).toEqual(['caf\u00e9', 'b']);
    const bad = new Uint8Array([...new TextEncoder().encode('POOL a'), 0xff, ...new TextEncoder().encode('=1\n')]);
    expect(slowstart.run(bad).diagnostics).toEqual([
      // The name 'a\xff': bytes 5-7 of the line (bytes given, columns in bytes).
      { line: 1, message: "backend name must be valid UTF-8, got 'a\\xff'", from: 5, to: 7 },
    ]);
  });

  it('ignores a byte-order mark at the very start (text or bytes), and only there', () => {
    // 2/1: a, then b. The mark before the second PICK is part of its token.
    const script = '\uFEFFPOOL a=2 b=1\r\nPICK\n\uFEFFPICK\nPICK\n';
    for (const input of [script, new TextEncoder().encode(script)]) {
      const r = slowstart.run(input, { timeline: false });
      expect(r.output).toEqual([
        { line: 2, text: 'a' },
        { line: 4, text: 'b' },
      ]);
      // The token is the mark and PICK: 5 units of the string, 7 bytes.
      const to = typeof input === 'string' ? 5 : 7;
      expect(r.diagnostics).toEqual([{ line: 3, message: "unknown command '\\xef\\xbb\\xbfPICK'", from: 0, to }]);
    }
  });

  it('records a timeline the chart can draw: clock, weights, winners', () => {
    const { timeline } = slowstart.run('POOL a=1\nADD b=10 20\nNOW 10\nPICK\nPICK\nDOWN a\nPICK');
    expect(timeline?.length).toBe(7); // a step per line
    const t = timeline!;
    expect(t.names).toEqual(['a', 'b']);
    expect(Array.from(t.stepLine)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(Array.from(t.stepNow)).toEqual([0, 0, 10, 10, 10, 10, 10]);
    // at NOW 10, b = 10*10/20 = 5. Pick 1: a 1, b 5 -> b (b 5-6 = -1).
    // Pick 2: a 2, b 4 -> b (b -2). After DOWN a: b alone -> b.
    expect([t.winner(3), t.winner(4), t.winner(6), t.winner(0)]).toEqual([1, 1, 1, undefined]);
    expect(t.pool(2)).toEqual([
      { id: 0, name: 'a', up: true, weight: 1, score: 0 },
      { id: 1, name: 'b', up: true, weight: 5, score: 0 },
    ]);
    // DOWN a: a keeps the score it had after pick 2 (1 + 1 = 2).
    expect(t.pool(5)[0]).toEqual({ id: 0, name: 'a', up: false, weight: 0, score: 2 });
    expect(t.stepAtLine(4)).toBe(3);
    expect(t.truncated).toBe(false);
    expect(slowstart.run('POOL a=1', { timeline: false }).timeline).toBeUndefined();
  });

  it("gives every backend's score after every step, as the engine has it", () => {
    // nginx's 5/1/1 pool, worked by hand: after each of seven picks.
    const t = slowstart.run('POOL a=5 b=1 c=1\nPICK\nPICK\nPICK\nPICK\nWEIGHTS\nPICK\nPICK\nPICK').timeline!;
    const want = [
      [0, 0, 0],
      [-2, 1, 1],
      [-4, 2, 2],
      [1, -4, 3],
      [-1, -3, 4],
      [-1, -3, 4], // WEIGHTS changes no score
      [4, -2, -2],
      [2, -1, -1],
      [0, 0, 0],
    ];
    const scores = (i: number) => t.pool(i).map((b) => b.score);
    // In order, backwards and jumping about: the same numbers.
    expect(want.map((_, i) => scores(i))).toEqual(want);
    expect(want.map((_, i) => scores(want.length - 1 - i))).toEqual([...want].reverse());
    expect([scores(6), scores(2), scores(8), scores(1)]).toEqual([want[6], want[2], want[8], want[1]]);
    expect(t.scoredSteps).toBe(9);
    expect(t.scoresTruncated).toBe(false);
    for (const row of want.map((_, i) => t.pool(i))) for (const b of row) expect(Number.isSafeInteger(b.score)).toBe(true);
  });

  it('reports NONE as a null winner in the timeline', () => {
    const t = slowstart.run('PICK').timeline!;
    expect(t.winner(0)).toBeNull();
  });

  it('marks NONE and steps that are no PICK with the constants it exports', () => {
    // POOL of nothing, a PICK with no backend, WEIGHTS: not a pick, NONE, not a pick.
    const t = slowstart.run('POOL\nPICK\nWEIGHTS').timeline!;
    expect(Array.from(t.stepWinner)).toEqual([NOT_A_PICK, NO_WINNER, NOT_A_PICK]);
    expect([NO_WINNER, NOT_A_PICK]).toEqual([-1, -2]); // what the README promises pickMany users
    using b = slowstart.createBalancer();
    expect(Array.from(b.pickMany(2))).toEqual([NO_WINNER, NO_WINNER]);
  });
});

describe('Balancer', () => {
  it('follows nginx smooth WRR: 5/1/1 gives a a b a c a a', () => {
    using b = slowstart.createBalancer();
    b.setPool({ a: 5, b: 1, c: 1 });
    const names = b.names();
    expect(Array.from(b.pickMany(7), (i) => names[i]).join(' ')).toBe('a a b a c a a');
    expect(b.pick()).toBe('a'); // the cycle starts again
  });

  it('ramps an added backend and reports WEIGHTS sorted by name', () => {
    const b = slowstart.createBalancer();
    b.setPool([
      { name: 'web2', weight: 3 },
      { name: 'web1', weight: 1 },
    ]);
    b.add('canary', 10, 20).setNow(15);
    expect(b.weights()).toEqual([
      { name: 'canary', weight: 7 }, // 10*15/20 = 7.5 -> 7
      { name: 'web1', weight: 1 },
      { name: 'web2', weight: 3 },
    ]);
    expect(b.weightsLine()).toBe('canary=7 web1=1 web2=3');
    expect(Array.from(b.poolWeights())).toEqual([3, 1, 7]);
    expect(b.names()).toEqual(['web2', 'web1', 'canary']);
    expect(b.now).toBe(15);
    b.down('web2').down('web1').down('canary');
    expect(b.pick()).toBeNull();
    expect(Array.from(b.pickMany(2))).toEqual([NO_WINNER, NO_WINNER]);
    b.dispose();
  });

  it('gives WEIGHTS as data in its order, the bytes of the names, which is not JavaScript order', () => {
    using b = slowstart.createBalancer();
    // U+FF5E is EF BD 9E in UTF-8, U+1F600 F0 9F 98 80: bytes put U+FF5E first, UTF-16 units (FF5E > D83D) the other way.
    b.setPool({ '\u{1F600}': 1, b: 2, '\uFF5E': 3, B: 4 });
    expect(b.weights()).toEqual([
      { name: 'B', weight: 4 },
      { name: 'b', weight: 2 },
      { name: '\uFF5E', weight: 3 },
      { name: '\u{1F600}', weight: 1 },
    ]);
    expect(b.weightsLine()).toBe('B=4 b=2 \uFF5E=3 \u{1F600}=1');
    expect(['\u{1F600}', 'b', '\uFF5E', 'B'].sort()).toEqual(['B', 'b', '\u{1F600}', '\uFF5E']);
    expect(Array.from(b.poolWeights())).toEqual([1, 2, 3, 4]); // pool order
    expect(b.names()).toEqual(['\u{1F600}', 'b', '\uFF5E', 'B']);
    b.setPool([]);
    expect(b.weights()).toEqual([]);
    expect(b.names()).toEqual([]);
  });

  it('accepts bigint and the largest values without overflow', () => {
    using b = slowstart.createBalancer();
    b.setPool([{ name: 'a', weight: 1_000_000n }]);
    b.add('b', 1_000_000, 10n ** 12n);
    b.setNow(10n ** 12n - 1n);
    expect(b.weightsLine()).toBe('a=1000000 b=999999');
  });

  it('throws the script messages for bad arguments and changes nothing', () => {
    using b = slowstart.createBalancer();
    b.setPool({ a: 1 });
    const cases: Array<[() => unknown, string]> = [
      [() => b.setNow(-1), "time must be a non-negative integer, got '-1'"],
      [() => b.setNow(1.5), "time must be a non-negative integer, got '1.5'"],
      [() => b.setNow(Number.NaN), "time must be a non-negative integer, got 'NaN'"],
      [() => b.setNow(1e21), "time must be a non-negative integer, got '1e+21'"],
      [() => b.setNow(10 ** 12 + 1), "time must be at most 1000000000000, got '1000000000001'"],
      [() => b.add('x', 1_000_001), "weight must be at most 1000000, got '1000001'"],
      [() => b.add('x=y', 1), "backend name must not contain '=', got 'x=y'"],
      [() => b.add('', 1), 'backend name is empty'],
      [() => b.add('x', 1, -3), "ramp must be a non-negative integer, got '-3'"],
      [() => b.down('nobody'), "no backend named 'nobody'"],
      [() => b.up('nobody', 1), "no backend named 'nobody'"],
      [
        () =>
          b.setPool([
            { name: 'x', weight: 1 },
            { name: 'x', weight: 2 },
          ]),
        "duplicate backend name 'x' in POOL",
      ],
      [() => b.setPool({ 'two words': 1 }), "backend name must not contain blanks, got 'two words'"],
    ];
    for (const [call, message] of cases) expect(call).toThrow(rejection('INVALID_ARGUMENT', message));
    // pickMany's RangeError and TypeError: api-limits.test.ts.
    expect(b.weightsLine()).toBe('a=1');
    expect(b.now).toBe(0);
    expect(b.pick()).toBe('a'); // still usable after errors
  });

  it('is disposed deterministically, twice is harmless, and use after dispose throws', () => {
    const b = slowstart.createBalancer();
    b.setPool({ a: 1 });
    expect(b.disposed).toBe(false);
    b.dispose();
    b.dispose();
    expect(b.disposed).toBe(true);
    expect(() => b.pick()).toThrow(/disposed/);
  });

  it('supports `using` through Symbol.dispose', () => {
    let escaped: ReturnType<typeof slowstart.createBalancer> | undefined;
    {
      using b = slowstart.createBalancer();
      escaped = b;
    }
    expect(escaped.disposed).toBe(true);
  });
});

describe('results read out of a growing memory', () => {
  it('pickMany and weights are right when the call itself grows the module memory', async () => {
    // A fresh instance starts small: a million picks' buffer makes it grow
    // during the call, which replaces the memory's ArrayBuffer.
    const fresh = await loadSlowStart({ print: () => {} });
    const b = fresh.createBalancer().setPool({ a: 5, b: 1, c: 1 });
    const picks = b.pickMany(1 << 20);
    expect(picks.length).toBe(1 << 20);
    // 5/1/1 repeats a a b a c a a every 7 picks.
    const names = b.names();
    expect(Array.from(picks.subarray(0, 14), (i) => names[i]).join('')).toBe('aabacaaaabacaa');
    expect(Array.from(picks.subarray((1 << 20) - 7), (i) => names[i]).sort().join('')).toBe('aaaaabc');
    const big = fresh.createBalancer().setPool(Array.from({ length: 200_000 }, (_, i) => ({ name: `n${i}`, weight: i % 5 })));
    const w = big.poolWeights();
    expect(w.length).toBe(200_000);
    expect([w[0], w[1], w[7], w[199_999]]).toEqual([0, 1, 2, 4]);
    b.dispose();
    big.dispose();
  });
});

describe('loadSlowStart()', () => {
  it('shares one instance by default and makes a fresh one with options', async () => {
    expect(await loadSlowStart()).toBe(slowstart);
    const fresh = await loadSlowStart({ print: () => {} });
    expect(fresh).not.toBe(slowstart);
    expect(fresh.run('POOL a=1\nPICK').output[0].text).toBe('a');
    expect(fresh.version).toMatch(/^\d+\.\d+\.\d+$/);
  });
});
