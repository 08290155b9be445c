// Where an endless loop is, in Node with the real sandbox (issue 34): the
// line reported is the loop's own line, not the line where its function
// starts (QuickJS's stack gave `function pick` on line 11 for a
// `while (true) {}` on line 12), nor the line of the last call the loop made.
// One-line and multi-line loops, on the first, a middle and the last line of
// a function and of the code; each line below is counted by hand.
import { describe, expect, it, vi } from 'vitest';
import { gradeTest } from '../../../web/implement/grade.js';
import { stoppedResult } from '../../../web/implement/protocol.js';
import { markLoops } from '../../../web/implement/sandbox/loop-marks.js';
import { builtInTests } from '../../../web/implement/suite.js';
import { CORRECT } from '../fixtures/learner-solutions.js';
import { lab } from '../support/lab.js';
import { grade, open, openError } from '../support/sandbox.js';

const SPEC = builtInTests(lab).find((t) => t.id === 'worked-example')!;
const LIMIT_MS = 300;

/**
 * Runs `f` with the clock the sandbox's deadlines read (performance.now)
 * moving 1 ms per reading: the limit is reached after LIMIT_MS readings (the
 * interrupt handler reads it every 10,000 loop iterations), however loaded
 * the machine is.
 */
function onVirtualClock<T>(f: () => T): T {
  let now = 0;
  const clock = vi.spyOn(performance, 'now').mockImplementation(() => (now += 1));
  try {
    return f();
  } finally {
    clock.mockRestore();
  }
}

/** The line the sandbox reports for a pick that never returns. */
function stoppedAt(source: string): { line: number | undefined; inLoop: boolean } {
  return onVirtualClock(() => {
    const session = open(source, LIMIT_MS);
    try {
      gradeTest(lab, session, SPEC);
      expect(session.stopped).toBe('time');
      return { line: session.stoppedLine, inLoop: session.stoppedInLoop };
    } finally {
      session.dispose();
    }
  });
}

// Line 1: effectiveWeight; line 2: "function pick(backends) {"; the body from line 3.
const HEAD = 'function effectiveWeight(target) { return target; }\nfunction pick(backends) {\n';

describe('an endless loop in a function is reported on its own line', () => {
  const cases: [string, string, number][] = [
    ['one line, the first of the body', 'while (true) {}\n  return null;', 3],
    ['one line, a middle line', 'let n = 0;\n  n++;\n  while (true) {}\n  return null;', 5],
    ['one line, the last line of the body', 'let n = 0;\n  n++;\n  while (true) {}', 5],
    ['one line, its body one statement, no braces', 'let n = 0;\n  for (;;) n++;', 4],
    ['multi-line, the first of the body', 'while (true) {\n    backends.length;\n  }', 3],
    ['multi-line, a middle line', 'let n = 0;\n  for (let i = 0; ; i++) {\n    n += i;\n  }\n  return null;', 4],
    ['multi-line, the last statement', 'let n = 0;\n  do {\n    n++;\n  } while (n > -1)', 4],
    // The stack would say line 5 (Math.max, the last call): the loop is on line 4.
    ['calling a function in its body', 'let n = 0;\n  while (n >= 0) {\n    n = Math.max(n, 1);\n  }', 4],
    // The stack would say line 3 (the last call, before the loop).
    ['after a call', 'Math.max(1, 2);\n  for (const b of backends) {}\n  let k = 0;\n  while (k < 1) {\n  }', 6],
    // The finite loop on line 3 ends; the endless one inside it is on line 4.
    ['inside a loop that would end', 'for (let i = 0; i < 3; i++)\n    while (i < 3) i = i * 1;', 4],
  ];
  it.each(cases)('%s', (_what, body, line) => {
    const source = `${HEAD}  ${body}\n}\n`;
    expect(stoppedAt(source)).toEqual({ line, inLoop: true });
  });

  it('in a helper the pick calls: the helper’s loop', () => {
    const source = `function effectiveWeight(t) { return t; }\nfunction spin() {\n  let x = 0;\n  while (x === 0) { x = 0; }\n}\nfunction pick(backends) {\n  spin();\n  return null;\n}\n`;
    expect(stoppedAt(source)).toEqual({ line: 4, inLoop: true });
  });

  it('is said in the test’s problem as the loop’s line', () => {
    expect(stoppedResult(SPEC, 2, 1000, 5, true).problems[0]).toEqual({
      line: 2,
      codeLine: 5,
      message: 'stopped after 1 s at script line 2: your code did not finish (stopped in the loop on your line 5: an endless loop?)',
    });
  });
});

describe('an endless loop outside the functions is reported on its own line', () => {
  const FUNCTIONS = 'function effectiveWeight(t) { return t; }\nfunction pick(b) { return null; }';
  it.each([
    ['the first line of the code, one line', `while (true) {}\n${FUNCTIONS}\n`, 1],
    ['the last line of the code, one line', `${FUNCTIONS}\nlet n = 0;\nwhile (true) n++;`, 4],
    ['a middle line, multi-line', `${FUNCTIONS}\nlet n = 0;\nfor (;;) {\n  n++;\n}\nconst after = 1;\n`, 4],
  ])('%s', (_what, source, line) => {
    expect(onVirtualClock(() => openError(source, LIMIT_MS))).toEqual({
      message: `your code did not finish loading: is there an endless loop outside the functions (the loop on your line ${line})?`,
      timedOut: true,
      reason: 'time',
      codeLine: line,
    });
  });
});

describe('marking the loops changes nothing else', () => {
  it('keeps every line where it was, wraps a one-statement body, and leaves code without loops alone', () => {
    const source = 'for (const b of xs) f(b);\nwhile (a)\n  do x(); while (y)\nconst s = "while (true) {}"; // for (;;)';
    const marked = markLoops(source)!;
    expect(marked).toBe(
      'for (const b of xs) {__slowstartLoopLine=1;f(b);}\n' +
        'while (a)\n' +
        '  {__slowstartLoopLine=2;do {__slowstartLoopLine=3;x();} while (y)}\n' +
        'const s = "while (true) {}"; // for (;;)',
    );
    expect(markLoops('const s = "while (true) {}"; // for (;;)\n')).toBeNull();
  });

  it('leaves code that does not parse to QuickJS, which reports the syntax error on the learner’s line', () => {
    const source = `${HEAD}  for (;;) {\n    let = = 1;\n  }\n}\n`;
    expect(markLoops(source)).toBeNull();
    expect(openError(source)).toMatchObject({ reason: 'syntax', codeLine: 4 });
  });

  it('still passes a correct solution (its loops marked) on the SPEC example', () => {
    expect(markLoops(CORRECT)).not.toBeNull();
    const r = grade(CORRECT, SPEC);
    expect(r.problems).toEqual([]);
    expect(r.pass).toBe(true);
  });

  it('cannot be spoiled by the learner: the mark is not configurable', () => {
    const source = `Object.defineProperty(globalThis, '__slowstartLoopLine', { get() { while (true) {} } });\n${HEAD}  return null;\n}\n`;
    expect(openError(source).reason).toBe('threw');
  });
});
