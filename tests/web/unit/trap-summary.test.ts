// The least-request comparison's rate and its summary, on the engine's own
// simulations (the lab module). The reviewer's case: weights 5, 5, 10, smooth
// round-robin at Load 80 %, cold ×1 and no warm-up. A warm request takes
// 200 ms and a cold one is as fast, so with no backend sent more than it can
// serve, every request takes 200 ms with or without slow start.
import { describe, expect, it } from 'vitest';
import { trapOptions, DEFAULT_SETTINGS, type TrafficSettings } from '../../../web/traffic/lab-settings.js';
import { sameRouting, trapRate, trapSummary, warmCapacity } from '../../../web/traffic/trap-summary.js';
import { lab } from '../support/lab.js';

// The engine's service defaults (128 workers, 200 ms): 640 requests a second.
const CAPACITY = warmCapacity(lab.trafficDefaults());
const WELCOME = 'POOL web1=5 web2=5\nADD web3=10 20\nNOW 5\nNOW 10\nNOW 20\n';
const share = (script: string, kind: 'linear' | 'haproxy' = 'linear') =>
  lab.simulate(script, { rps: 1000, bucket: 0.25, curve: { ...DEFAULT_SETTINGS.curve, kind } });
const peakMs = (t: { latencyMs: Float64Array }) => Math.max(...t.latencyMs);

describe('the comparison rate', () => {
  it('is Load % of the busiest backend at full weight', () => {
    // web3 has half the weight at the end: 60 % of 640 / 0.5 = 768.
    expect(trapRate(share(WELCOME), 60, CAPACITY)).toEqual({ rps: 768, busiest: 0.5 });
    expect(trapRate(share(WELCOME), 80, CAPACITY).rps).toBe(1024);
    // Equal weights: Load % of all the backends' capacity, 60 % of 4 × 640.
    expect(trapRate(share('POOL a=1 b=1 c=1 d=1\n'), 60, CAPACITY).rps).toBe(Math.round(0.6 * 4 * CAPACITY));
  });

  it('makes the numbers true with cold ×1 and no warm-up: 200 ms either way', () => {
    const s: TrafficSettings = { ...DEFAULT_SETTINGS, policy: 'wrr', trapLoad: 80, coldFactor: 1, warmup: 0 };
    const { rps } = trapRate(share(WELCOME), s.trapLoad, CAPACITY);
    const [without, withRamp] = [false, true].map((slowStart) => lab.simulate(WELCOME, trapOptions(rps, s, 0.25, slowStart)));
    expect(peakMs(without)).toBeCloseTo(200, 6);
    expect(peakMs(withRamp)).toBeCloseTo(200, 6);
    // The old rate, 80 % of all three backends' capacity (1,536/s), sent web3
    // 768 a second for its 640: a queue for ever, slow start or not.
    const old = lab.simulate(WELCOME, trapOptions(1536, s, 0.25, false));
    expect(peakMs(old)).toBeGreaterThan(5000);
  });

  it('tells when slow start changed nothing: HAProxy does not ramp an ADD', () => {
    const s: TrafficSettings = { ...DEFAULT_SETTINGS, curve: { ...DEFAULT_SETTINGS.curve, kind: 'haproxy' } };
    const [without, withRamp] = [false, true].map((slowStart) => lab.simulate(WELCOME, trapOptions(768, s, 0.25, slowStart)));
    expect(sameRouting(without, withRamp)).toBe(true);
    const linear = [false, true].map((slowStart) => lab.simulate(WELCOME, trapOptions(768, DEFAULT_SETTINGS, 0.25, slowStart)));
    expect(sameRouting(linear[0], linear[1])).toBe(false);
  });
});

describe('the summary', () => {
  const facts = { same: false, curve: 'linear' as const, rps: 768, loadPercent: 60, coldFactor: 5, warmup: 30, baseMs: 200, capacity: CAPACITY };

  it('says how much slow start lowered the peak', () => {
    expect(trapSummary({ ...facts, withoutMs: 1944, withMs: 996 })).toMatch(
      /^Peak latency 1,944 ms without slow start, 996 ms with it: slow start made it 2\.0× lower\. 768 requests a second/,
    );
  });

  it('never prints 0.0×: a higher peak is "higher", with the reason', () => {
    const text = trapSummary({ ...facts, withoutMs: 200, withMs: 6156, coldFactor: 1, warmup: 0 });
    expect(text).toContain('slow start made it 31× higher');
    expect(text).toContain('With Cold ×1 or no warm-up, a backend that joins is as fast as a warm one');
    expect(text).not.toContain('0.0×');
    expect(trapSummary({ ...facts, withoutMs: 200, withMs: 561 })).toContain('here that costs more than the cold start it avoids');
  });

  it('explains a run where nothing ramps', () => {
    expect(trapSummary({ ...facts, withoutMs: 3805, withMs: 3805, same: true, curve: 'haproxy' })).toContain(
      'slow start changed nothing here. HAProxy ramps only a backend that comes back (UP)',
    );
    expect(trapSummary({ ...facts, withoutMs: 200, withMs: 200, same: true })).toContain('No backend in this script ramps');
    expect(trapSummary({ ...facts, withoutMs: 200, withMs: 202 })).toContain(': about the same.');
  });
});
