// The parts of background runs that need no browser: the lazily built
// output and diagnostics (against hand-made buffers), the timeline cut to a
// budget (a prefix that says the same as the full timeline step by step),
// and the slices a script is sent in (never splitting a code point).
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../../dist/api/node.js';
import { isWellFormed } from '../../../web/api/wtf8.js';
import { slicesOf } from '../../../web/runner/doc-text.js';
import { lazyDiagnostics, lazyOutput } from '../../../web/runner/lazy-lines.js';
import type { WireLines } from '../../../web/runner/run-protocol.js';
import { shortenTimeline } from '../../../web/runner/timeline-budget.js';
import { slowstart } from '../support/engine.js';

const wire = (texts: string[], lines: number[]): WireLines => {
  const bytes = new TextEncoder().encode(texts.join('\n'));
  const starts = [0];
  for (const t of texts) starts.push(starts.at(-1)! + new TextEncoder().encode(t).length + 1);
  return { bytes, starts: Uint32Array.from(starts), lines: Uint32Array.from(lines) };
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
    const cut = new Timeline(shortenTimeline(raw(), steps, cells));
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
});
