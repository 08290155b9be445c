// The parts of background runs that need no browser: the lazily built
// output and diagnostics (against hand-made buffers), the timeline cut to a
// budget (a prefix that says the same as the full timeline step by step),
// and the slices a script is sent in (never splitting a code point).
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../../web/api/timeline.js';
import { isWellFormed } from '../../../web/api/wtf8.js';
import { joinPieces, lineHead, SLICE, sliceText, slicesOf } from '../../../web/shared/doc-text.js';
import { lazyDiagnostics, lazyOutput, longLines } from '../../../web/runner/lazy-lines.js';
import { RowLayout } from '../../../web/runner/output-wrap.js';
import type { WireLines } from '../../../web/runner/run-protocol.js';
import { budgetTimeline, shortenTimeline } from '../../../web/runner/timeline-budget.js';
import { slowstart } from '../support/engine.js';
import type { Engine } from '../../../web/api/engine-abi.js';
import { readRun } from '../../../web/api/run-view.js';
import { lab } from '../support/lab.js';
import type { LabModule } from '../../../web/wasm/lab.mjs';

const wire = (texts: string[], lines: number[]): WireLines => {
  const bytes = new TextEncoder().encode(texts.join('\n'));
  const starts = [0];
  for (const t of texts) starts.push(starts.at(-1)! + new TextEncoder().encode(t).length + 1);
  const longest = Math.max(0, ...texts.map((t) => new TextEncoder().encode(t).length));
  return { bytes, starts: Uint32Array.from(starts), lines: Uint32Array.from(lines), longest };
};

describe('lazy output and diagnostics', () => {
  it('read like arrays of { line, text } / { line, message }, built once each', () => {
    const out = lazyOutput(wire(['a', 'café=1 日本=2', '', 'NONE'], [2, 5, 6, 9]));
    expect(out.length).toBe(4);
    expect(out[1]).toEqual({ line: 5, text: 'café=1 日本=2' });
    expect(out[1]).toBe(out[1]);
    expect(out[4]).toBeUndefined();
    expect(Array.isArray(out)).toBe(true);
    expect([...out]).toEqual([
      { line: 2, text: 'a' },
      { line: 5, text: 'café=1 日本=2' },
      { line: 6, text: '' },
      { line: 9, text: 'NONE' },
    ]);
    expect(out.map((o) => o.text)).toEqual(['a', 'café=1 日本=2', '', 'NONE']);
    expect(out.slice(1, 3).map((o) => o.line)).toEqual([5, 6]);
    expect(out.findIndex((o) => o.line >= 6)).toBe(2);
    expect(JSON.stringify(out.at(-1))).toBe('{"line":9,"text":"NONE"}');
    expect(() => ((out as { line: number; text: string }[])[0] = { line: 1, text: 'x' })).toThrow(TypeError);
    const diags = lazyDiagnostics(wire(["unknown command 'pick' (use PICK)"], [3]), new Uint32Array([0, 4]));
    expect(diags).toEqual([{ line: 3, message: "unknown command 'pick' (use PICK)", from: 0, to: 4 }]);
    expect(lazyOutput(wire([], [])).length).toBe(0);
  });

  it('match what run() builds for a real script', () => {
    const script = 'POOL a=2 b=1\nPICK\nWEIGHTS\npick\nPICK\nDOWN x\n';
    const r = slowstart.run(script);
    const enc = (items: string[], lines: number[]) => wire(items, lines);
    expect([...lazyOutput(enc(r.output.map((o) => o.text), r.output.map((o) => o.line)))]).toEqual(r.output);
    const columns = Uint32Array.from(r.diagnostics.flatMap((d) => [d.from, d.to]));
    expect([...lazyDiagnostics(enc(r.diagnostics.map((d) => d.message), r.diagnostics.map((d) => d.line)), columns)]).toEqual(
      r.diagnostics,
    );
    // 'pick' on line 4, 'x' on line 6.
    expect(r.diagnostics.map((d) => [d.line, d.from, d.to])).toEqual([
      [4, 0, 4],
      [6, 5, 6],
    ]);
  });
});

describe('rows of lazily built lines', () => {
  const texts = ['a', 'web1=0 web2=10 web3=10', 'b', 'web1=0 web2=10', '名前=1 名前=2'];
  const numbers = texts.map((_, i) => i + 2);

  it('are laid out as the same lines in a plain array are, looking only at the lines that may wrap', () => {
    const lazy = lazyOutput(wire(texts, numbers));
    const plain = texts.map((text, i) => ({ line: numbers[i], text }));
    for (const cols of [6, 10, 14, 40]) {
      const a = new RowLayout(lazy, cols);
      const b = new RowLayout(plain, cols);
      expect(texts.map((_, i) => a.lines(i))).toEqual(texts.map((_, i) => b.lines(i)));
      expect(a.height).toBe(b.height);
    }
    // At 10 columns a line may wrap when its UTF-8 is over 5 bytes: all but 'a' and 'b'.
    expect([...longLines(lazy, 5)!.indices]).toEqual([1, 3, 4]);
  });

  it('need no look at any line when the longest fits (ten million picks of one letter)', () => {
    const lazy = lazyOutput(wire(['a', 'b', 'c'], [2, 3, 4]));
    expect(longLines(lazy, 1)).toEqual({ indices: new Uint32Array(0), bytes: 0 });
    expect(new RowLayout(lazy, 2).height).toBe(3 * 24);
    expect(longLines([{ line: 1, text: 'a' }], 1)).toBeNull(); // not built here: every line is looked at
  });
});

describe('the timeline cut to a budget', () => {
  const script = [
    'POOL a=3 b=1 c=1',
    ...Array.from({ length: 40 }, (_, i) => (i % 7 === 3 ? `NOW ${i}` : i % 11 === 5 ? `ADD d${i}=2 10` : 'PICK')),
    'DOWN a',
    'PICK',
  ].join('\n');
  const full = slowstart.run(script).timeline!;

  // The engine's raw columns, as the worker has them.
  const raw = () => ({
    names: [...full.names], stepLine: full.stepLine, stepNow: full.stepNow, stepWinner: full.stepWinner, stepBlock: full.stepBlock,
    blockStart: full.blockStart, cellBackend: full.cellBackend, cellUp: full.cellUp, cellWeight: full.cellWeight, cellScore: full.cellScore,
    stepScoresEnd: full.stepScoresEnd, scoreCell: full.scoreCell, scoreValue: full.scoreValue, scoredSteps: full.scoredSteps, truncated: full.truncated,
  });

  it('keeps a timeline within budget as it is', () => {
    expect(shortenTimeline(raw(), 1e6, 1e6).stepLine.length).toBe(full.length);
    expect(shortenTimeline(raw(), 1e6, 1e6).truncated).toBe(false);
  });

  it.each([
    [10, 1e6],
    [1e6, 30],
    [25, 50],
  ])('cut to %d steps and %d states: a prefix that says what the full one says, flagged truncated', (steps, cells) => {
    const cut = Timeline.fromRaw(shortenTimeline(raw(), steps, cells));
    expect(cut.truncated).toBe(true);
    expect(cut.length).toBeLessThanOrEqual(steps);
    expect(cut.cellBackend.length).toBeLessThanOrEqual(cells);
    expect(cut.length).toBeGreaterThan(0);
    for (let i = 0; i < cut.length; i++) {
      expect(cut.stepLine[i]).toBe(full.stepLine[i]);
      expect(cut.winner(i)).toBe(full.winner(i));
      expect(cut.pool(i)).toEqual(full.pool(i));
    }
    // The most steps that fit: one more would not.
    if (cut.length < full.length && cut.length < steps) {
      const block = full.stepBlock[cut.length];
      const end = block + 1 < full.blockStart.length ? full.blockStart[block + 1] : full.cellBackend.length;
      expect(end).toBeGreaterThan(cells);
    }
  });
});

describe('a big pool narrowed to what people read', () => {
  // 200 backends of weight 1 but b150 of 100 (total 299). Worked by hand:
  // PICK 1: b150 100 wins, ends −199. PICK 2: b150 −99, all others 2: b0
  // wins (earliest of 199 tied), ends −297. DOWN b199 (takes no part, total
  // 298). PICK 3: b150 1, b0 −296, 197 others 3: b1 wins, ends −295.
  const names = Array.from({ length: 200 }, (_, i) => `b${i}=${i === 150 ? 100 : 1}`);
  const full = slowstart.run(`POOL ${names.join(' ')}\nPICK\nPICK\nDOWN b199\nPICK\n`).timeline!;
  const raw = () => ({
    names: [...full.names], stepLine: full.stepLine, stepNow: full.stepNow, stepWinner: full.stepWinner, stepBlock: full.stepBlock,
    blockStart: full.blockStart, cellBackend: full.cellBackend, cellUp: full.cellUp, cellWeight: full.cellWeight, cellScore: full.cellScore,
    stepScoresEnd: full.stepScoresEnd, scoreCell: full.scoreCell, scoreValue: full.scoreValue, scoredSteps: full.scoredSteps, truncated: full.truncated,
  });

  it('keeps every step, the first 60 backends, the winners and the top sums, and each PICK\'s counts over the whole pool', () => {
    const { timeline, picks } = budgetTimeline(raw(), 1e6, 150);
    const t = Timeline.fromRaw(timeline);
    expect(t.length).toBe(5);
    expect(t.truncated).toBe(false);
    expect([1, 2, 4].map((i) => t.names[t.winner(i) as number])).toEqual(['b150', 'b0', 'b1']);
    const kept = new Set(t.cellBackend);
    expect(kept.size).toBe(61);
    expect(kept.has(150)).toBe(true);
    expect(Math.max(...kept)).toBe(150);
    // The kept backends' states are the full timeline's, step by step.
    for (let i = 0; i < t.length; i++) expect(t.pool(i)).toEqual(full.pool(i).filter((b) => kept.has(b.id)));
    expect(t.pool(4).find((b) => b.name === 'b150')!.score).toBe(1);
    expect(t.pool(4).find((b) => b.name === 'b1')!.score).toBe(-295);
    expect(picks).not.toBeNull();
    expect([...picks!.step]).toEqual([1, 2, 4]);
    expect([...picks!.poolSize]).toEqual([200, 200, 200]);
    expect([...picks!.takingPart]).toEqual([200, 200, 199]);
    expect([...picks!.total]).toEqual([299, 299, 298]);
    expect([...picks!.best]).toEqual([100, 2, 3]);
    expect([...picks!.tied]).toEqual([1, 199, 197]);
  });

  it('leaves a timeline that fits as it is, with no counts', () => {
    const { timeline, picks } = budgetTimeline(raw(), 1e6, 1e6);
    expect(timeline.cellBackend.length).toBe(full.cellBackend.length);
    expect(picks).toBeNull();
  });
});

describe('a pool of 100,000 built by ADD lines, in a light timeline', () => {
  // 100,000 lines ADD b<i>=1 0 (weight 1 at once), 9 PICKs (lines 100,001-100,009), WEIGHTS.
  // Worked by hand: PICK k: b0..b(k-2) have won (each 1 - 100,000 and 1 a pick since), the
  // other 100,001 - k sum k, the highest: b(k-1) wins, tied with 100,000 - k others, and
  // gives back the total 100,000. Whole blocks stopped this timeline at line 2,827 (the
  // engine's 4,000,000 states); the light one reaches every line.
  const N = 100_000;
  const script = `${Array.from({ length: N }, (_, i) => `ADD b${i}=1 0`).join('\n')}\n${'PICK\n'.repeat(9)}WEIGHTS\n`;
  const bytes = new TextEncoder().encode(script);
  const engine = (slowstart as unknown as { module: Engine }).module; // (internal: what the page's worker runs)
  const run = (light: boolean) => {
    if (light) {
      // What the page's worker does when the engine's timeline was cut for its states: the lab module runs it light.
      const m = (lab as unknown as { module: LabModule }).module; // (internal)
      m.inputBuffer(bytes.length).set(bytes);
      try {
        return readRun(m, m.runLight(bytes.length)).timeline!;
      } finally {
        m.releaseRun();
      }
    }
    engine.inputBuffer(bytes.length).set(bytes);
    return engine.run(bytes.length, true, false).timeline!;
  };

  it('reaches every PICK with each PICK\'s counts, within a bounded number of states', () => {
    const raw = run(true);
    expect(raw.partial).toBe(true);
    expect(raw.truncated).toBe(false);
    expect(raw.stepLine.length).toBe(N + 10);
    expect(raw.names.length).toBe(N);
    // Bounded: whole blocks up to 250,000 states, then 60 a light block, and the pool once for the run of PICKs.
    expect(raw.cellBackend.length).toBeLessThanOrEqual(250_000 + 60 * raw.blockStart.length + N);
    const { timeline, picks } = budgetTimeline(raw);
    const t = Timeline.fromRaw(timeline);
    expect(t.truncated).toBe(false);
    expect(t.length).toBe(N + 10);
    const steps = Array.from({ length: 9 }, (_, k) => N + k);
    expect(steps.map((i) => t.stepLine[i])).toEqual(steps.map((i) => i + 1));
    expect(steps.map((i) => t.names[t.winner(i) as number])).toEqual(steps.map((_, k) => `b${k}`));
    expect([...picks!.step]).toEqual(steps);
    expect([...picks!.poolSize]).toEqual(Array(9).fill(N));
    expect([...picks!.takingPart]).toEqual(Array(9).fill(N));
    expect([...picks!.total]).toEqual(Array(9).fill(N));
    expect([...picks!.best]).toEqual(steps.map((_, k) => k + 1));
    expect([...picks!.tied]).toEqual(steps.map((_, k) => N - k));
    // The last PICK's winner b8, before and after (the step before shares its block).
    const score = (i: number, name: string) => t.pool(i).find((b) => b.name === name)!.score;
    expect(score(N + 7, 'b8')).toBe(8);
    expect(score(N + 8, 'b8')).toBe(9 - N);
    expect(score(N + 8, 'b0')).toBe(1 - N + 8);
    // Along the ADD lines the first 60 are drawn: b59 joins at line 60, b0 is there throughout.
    expect(t.pool(58).some((b) => b.name === 'b59')).toBe(false);
    expect(t.pool(59).find((b) => b.name === 'b59')).toMatchObject({ up: true, weight: 1, score: 0 });
    expect(t.pool(N - 1).find((b) => b.name === 'b0')).toMatchObject({ up: true, weight: 1, score: 0 });
  });

  it('the engine module (and the public run()) records whole blocks as before, cut at line 2,827', () => {
    const full = run(false);
    expect(full.partial).toBeUndefined();
    expect(full.truncated).toBe(true);
    expect(full.stepLine.length).toBe(2827); // 2,827 * 2,828 / 2 = 3,997,378 states; the next ADD passes 4,000,000
  });
});

describe('script slices', () => {
  it('join back to the script, and never end between the halves of a surrogate pair', () => {
    const unit = 'PICK 🚀\n';
    const text = unit.repeat(100_000); // ~800,000 units, pairs at every offset parity
    const slices = [...slicesOf(text)];
    expect(slices.length).toBeGreaterThan(2);
    expect(slices.join('')).toBe(text);
    for (const s of slices) {
      const last = s.charCodeAt(s.length - 1);
      expect(last >= 0xd800 && last <= 0xdbff, 'ends on a high surrogate').toBe(false);
      expect(isWellFormed(s)).toBe(true);
    }
  });

  // A fetched src is joined from the pieces it was read in, and read back
  // from them (slices, its start, a part) without being copied whole.
  const pieces = ['POOL a=1\n', 'PICK\n'.repeat(70_000), 'x🚀'.repeat(100_000), 'NOW 1\nWEIGHTS\n'];
  const whole = pieces.join('');

  it('of a text joined from pieces are the pieces cut to SLICE, and join back to the text', () => {
    const text = joinPieces(pieces);
    expect(text).toBe(whole);
    const slices = [...slicesOf(text)];
    // 9 units, 350,000 (two slices), 300,000 (two), 14: six slices, none over SLICE.
    expect(slices.map((s) => s.length)).toEqual([9, SLICE, 350_000 - SLICE, SLICE, 300_000 - SLICE, 14]);
    expect(slices.join('')).toBe(whole);
    // The same text built another way is the same string: the same slices. Another text of its length is cut as any string is.
    expect([...slicesOf([...whole].join(''))]).toEqual(slices);
    const other = `Q${whole.slice(1)}`;
    expect([...slicesOf(other)].map((s) => s.length)).toEqual([SLICE, SLICE, whole.length - 2 * SLICE]);
  });

  it('give the same start and parts as the text itself', () => {
    const text = joinPieces(pieces);
    for (const units of [0, 5, 9, 10, 100_000, 350_008, 350_009, 350_010, whole.length - 3]) {
      expect(lineHead(text, units), `lineHead ${units}`).toBe(lineHead(whole, units));
    }
    expect(lineHead(text, 5)).toBe('POOL a=1\n');
    expect(lineHead(text, 9)).toBe('POOL a=1\nPICK\n');
    expect(lineHead(text, 400_000)).toBe(whole.slice(0, whole.length - 8)); // to the end of 'NOW 1'
    expect(lineHead(text, whole.length - 1)).toBe(whole); // the last unit is the line end
    expect(lineHead(joinPieces(['PICK\nab', 'cd']), 6)).toBe('PICK\na'); // no line end after: the first `units`
    for (const [start, end] of [[0, 0], [0, 9], [3, 20], [9, SLICE + 9], [349_000, 360_000], [whole.length - 20, whole.length]] as const) {
      expect(sliceText(text, start, end), `sliceText ${start} ${end}`).toBe(whole.slice(start, end));
    }
  });
});
