// The API rejects what it cannot do with its own errors, never by aborting
// the WebAssembly instance or by silently returning nothing: pickMany's
// documented maximum, scripts that are not text, and names that are not
// valid Unicode (lone surrogates), rejected the same way on every path.
import { describe, expect, it } from 'vitest';
import { rejection } from '../support/rejection.js';
import { Balancer, SlowStartError } from '../../../dist/api/node.js';
import { lab } from '../support/lab.js';
import { slowstart } from '../support/engine.js';

// Pool a=1 b=2 picks b a b, b a b, ... (worked by hand: scores a 1 b 2 -> b
// wins, b -1; a 2 b 1 -> a, a -1; a 0 b 3 -> b, b 0: back to the start).
const A = 0;
const B = 1;
const cycle = (i: number) => (i % 3 === 1 ? A : B);

describe('pickMany: a documented maximum, the API’s own errors above it', () => {
  it('documents its maximum: 100,000,000 picks per call', () => {
    expect(Balancer.MAX_PICK_MANY).toBe(100_000_000);
  });

  it('counts over the maximum throw a SlowStartError (OUT_OF_RANGE), change nothing, and leave the instance working', () => {
    using b = slowstart.createBalancer();
    b.setPool({ a: 1, b: 2 });
    expect(b.pick()).toBe('b'); // pick 0 of the cycle
    for (const n of [Balancer.MAX_PICK_MANY + 1, 6e8, 2 ** 31, 2 ** 32, 2 ** 33, Number.MAX_SAFE_INTEGER]) {
      expect(() => b.pickMany(n), String(n)).toThrow(rejection('OUT_OF_RANGE', `count must be at most 100000000, got '${n}'`));
      expect(() => b.pickMany(n)).toThrow(SlowStartError);
    }
    for (const n of [-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      expect(() => b.pickMany(n), String(n)).toThrow(rejection('OUT_OF_RANGE', `count must be a non-negative integer, got '${n}'`));
    }
    expect(() => b.pickMany('5' as unknown as number)).toThrow(rejection('WRONG_TYPE', 'count must be a number, got string'));
    expect(() => b.pickMany(10n as unknown as number)).toThrow(SlowStartError);
    // Nothing moved: the next pick is pick 1 of the cycle, and the module still answers.
    expect(b.pick()).toBe('a');
    expect(Array.from(b.pickMany(4))).toEqual([B, B, A, B]);
    expect(slowstart.run('POOL a=1\nPICK').output).toEqual([{ line: 2, text: 'a' }]);
  });

  it('counts above one chunk (2^20) are exact and carry the scores over', () => {
    using b = slowstart.createBalancer();
    b.setPool({ a: 1, b: 2 });
    const n = (1 << 20) * 2 + 7; // three chunks, the last a short one
    const picks = b.pickMany(n);
    expect(picks.length).toBe(n);
    let wrong = -1;
    for (let i = 0; i < n && wrong < 0; i++) if (picks[i] !== cycle(i)) wrong = i;
    expect(wrong).toBe(-1);
    expect(b.pick()).toBe(cycle(n) === A ? 'a' : 'b');
    expect(b.pickMany(0).length).toBe(0);
  });
});

describe('run(): a script is text or bytes', () => {
  const notScripts: [string, unknown][] = [
    ['a number', 123],
    ['true', true],
    ['null', null],
    ['undefined', undefined],
    ['an object', { script: 'PICK' }],
    ['an array', ['PICK']],
    ['an ArrayBuffer', new ArrayBuffer(4)],
  ];
  it.each(notScripts)('%s is a SlowStartError (WRONG_TYPE), from run() and from the lab', (_label, value) => {
    expect(() => slowstart.run(value as string)).toThrow(SlowStartError);
    expect(() => slowstart.run(value as string)).toThrow(rejection('WRONG_TYPE', /^script must be a string or a Uint8Array, got \w+$/));
    expect(() => lab.run(value as string, { kind: 'linear' })).toThrow(SlowStartError);
    expect(() => lab.simulate(value as string)).toThrow(SlowStartError);
  });

  it('names what it got', () => {
    expect(() => slowstart.run(123 as unknown as string)).toThrow('got number');
    expect(() => slowstart.run(true as unknown as string)).toThrow('got boolean');
    expect(() => slowstart.run(null as unknown as string)).toThrow('got null');
    expect(() => slowstart.run(new ArrayBuffer(1) as unknown as string)).toThrow('got ArrayBuffer');
  });

  it('text and bytes (a Buffer is a Uint8Array) still run', () => {
    expect(slowstart.run('POOL a=1\nPICK').output).toEqual([{ line: 2, text: 'a' }]);
    expect(slowstart.run(Buffer.from('POOL a=1\nPICK')).output).toEqual([{ line: 2, text: 'a' }]);
  });
});

describe('names that are not valid Unicode (lone surrogates) are rejected the same way on every path', () => {
  // The engine sees a lone surrogate as its three WTF-8 bytes, which are not
  // valid UTF-8: U+D800 is ED A0 80, U+DC00 is ED B0 80.
  const message = "backend name must be valid UTF-8, got '\\xed\\xa0\\x80a'";

  it('setPool (object and array forms) and add throw the script’s message and change nothing', () => {
    using b = slowstart.createBalancer();
    b.setPool({ x: 1 });
    expect(() => b.setPool({ '\uD800a': 1 })).toThrow(rejection('INVALID_ARGUMENT', message));
    expect(() => b.setPool([{ name: 'ok', weight: 1 }, { name: '\uD800a', weight: 1 }])).toThrow(rejection('INVALID_ARGUMENT', message));
    expect(() => b.add('\uD800a', 1)).toThrow(rejection('INVALID_ARGUMENT', message));
    expect(() => b.add('x\uDC00', 1)).toThrow(rejection('INVALID_ARGUMENT', "backend name must be valid UTF-8, got 'x\\xed\\xb0\\x80'"));
    expect(() => b.add('\uDBFF', 1)).toThrow(rejection('INVALID_ARGUMENT', "backend name must be valid UTF-8, got '\\xed\\xaf\\xbf'"));
    expect(b.names()).toEqual(['x']);
    expect(b.weightsLine()).toBe('x=1');
  });

  it("setPool('a=1') says it takes entries, not a script's text (it said \"got 'a'\")", () => {
    using b = slowstart.createBalancer();
    b.setPool({ x: 1 });
    expect(() => b.setPool('a=1' as never)).toThrow(
      rejection('WRONG_TYPE', "setPool takes [{name, weight}, ...] or {name: weight, ...}, got the string 'a=1' (for a script line, use run())"),
    );
    expect(() => b.setPool(null as never)).toThrow(rejection('WRONG_TYPE', 'setPool takes [{name, weight}, ...] or {name: weight, ...}, got null'));
    expect(b.weightsLine()).toBe('x=1');
  });

  it('run() rejects the line with the same message', () => {
    const r = slowstart.run('POOL x=1\nPOOL \uD800a=1\nWEIGHTS');
    // The name: the lone surrogate is one unit of the string (3 bytes in the engine), then 'a'.
    expect(r.diagnostics).toEqual([{ line: 2, message, from: 5, to: 7 }]);
    expect(r.output).toEqual([{ line: 3, text: 'x=1' }]);
    expect(slowstart.run('ADD \uD800a=1 0').diagnostics).toEqual([{ line: 1, message, from: 4, to: 6 }]);
  });

  it('down and up never reach another backend: "\\uD800a" is not "𐁡" (U+10061)', () => {
    using b = slowstart.createBalancer();
    b.setPool({ '\uD800\uDC61': 1, '\uD800\uDC00': 1 }); // 𐁡 and 𐀀: well-formed pairs are fine
    expect(() => b.down('\uD800a')).toThrow(rejection('INVALID_ARGUMENT', "no backend named '\\xed\\xa0\\x80a'"));
    expect(() => b.up('\uD800a', 5)).toThrow(rejection('INVALID_ARGUMENT', "no backend named '\\xed\\xa0\\x80a'"));
    expect(() => b.down('\uD800')).toThrow(rejection('INVALID_ARGUMENT', "no backend named '\\xed\\xa0\\x80'"));
    expect(b.weightsLine()).toBe('𐀀=1 𐁡=1');
    const r = slowstart.run('POOL \uD800\uDC61=1\nDOWN \uD800a\nUP \uD800a 5\nWEIGHTS');
    expect(r.diagnostics).toEqual([
      { line: 2, message: "no backend named '\\xed\\xa0\\x80a'", from: 5, to: 7 },
      { line: 3, message: "no backend named '\\xed\\xa0\\x80a'", from: 3, to: 5 },
    ]);
    expect(r.output).toEqual([{ line: 4, text: '𐁡=1' }]);
  });

  it('a lone surrogate elsewhere (a comment) changes nothing, and other lines keep their text', () => {
    const r = slowstart.run('# \uDFFF\nPOOL café=1 🚀=2\nWEIGHTS');
    expect(r.diagnostics).toEqual([]);
    expect(r.output).toEqual([{ line: 3, text: 'café=1 🚀=2' }]);
  });
});
