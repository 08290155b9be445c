// The lab API: traffic simulation, curves in script runs, JavaScript rules.
// Expected figures are worked by hand from the formulas (see curves.hpp).
import { describe, expect, it } from 'vitest';
import { rejection } from '../support/rejection.js';
import { BackendState } from '../../../dist/api/node.js';
import { lab } from '../support/lab.js';

describe('simulate()', () => {
  it('reproduces nginx-mod: B ramps to half the traffic over 30 s (resolution 100)', () => {
    const t = lab.simulate('POOL a=1\nADD b=1 30\n', {
      rps: 1000,
      duration: 40,
      bucket: 0.5,
      curve: { resolution: 100 },
    });
    expect(t.names).toEqual(['a', 'b']);
    expect(t.buckets).toBe(80);
    const at = (s: number) => 100 * t.share(s / 0.5, 1);
    expect(Math.abs(at(1) - 3.5)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(at(10) - 25)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(at(29) - 49.5)).toBeLessThanOrEqual(0.5);
    expect(at(31)).toBe(50);
  });

  it('shows the weight-1 jump at resolution 1', () => {
    const t = lab.simulate('POOL a=1\nADD b=1 30\n', { rps: 100, duration: 32, curve: { resolution: 1 } });
    expect(t.share(29, 1)).toBe(0);
    expect(t.share(30, 1)).toBe(0.5);
  });

  it('keeps the curve\'s own resolution by default (linear: x100), as both CLIs do', () => {
    // b = floor(100 t / 30) of a's 100: above 0 from its first 300 ms.
    const t = lab.simulate('POOL a=1\nADD b=1 30\n', { rps: 100, duration: 32 });
    expect(t.share(1, 1)).toBeGreaterThan(0);
    expect(t.share(1, 1)).toBeLessThan(0.06);
  });

  it('applies slowStartWindow by the balancer\'s rule and names the ramps it does not use', () => {
    // HAProxy, S = 8, weight 16 at x16: b leaves maintenance at 4 with eweight
    // 16 (one sixteenth) against a's 256: 16 / 272 of 160 requests, about 9.
    const script = 'POOL a=16 b=16\nNOW 2\nDOWN b\nNOW 4\nUP b 3\n';
    const t = lab.simulate(script, { rps: 160, duration: 14, curve: { kind: 'haproxy' }, slowStartWindow: 8 });
    expect(Math.abs(t.requests[4 * 2 + 1] - (160 * 16) / 272)).toBeLessThanOrEqual(2);
    expect(t.requests[0 * 2 + 1]).toBe(80);  // no ramp at the start (H9)
    expect(t.ignoredRamps).toEqual([5]);
    expect(lab.simulate(script, { rps: 160, duration: 14, curve: { kind: 'haproxy' } }).ignoredRamps).toEqual([]);
  });

  it('models service: outstanding and latency appear only with it', () => {
    const script = 'POOL a=1 b=1\n';
    const plain = lab.simulate(script, { rps: 100, duration: 2 });
    expect(Array.from(plain.latencyMs)).toEqual([0, 0, 0, 0]);
    // 50 rps each at 200 ms: by Little's law 10 in flight on average; sampled
    // just before arrivals (after the request sent 200 ms earlier finished)
    // it reads between 9 and 10. Latency is exactly the service time.
    const served = lab.simulate(script, { rps: 100, duration: 3, service: true });
    expect(served.latencyMs[2 * 2]).toBeCloseTo(200, 6);
    expect(served.outstanding[2 * 2]).toBeGreaterThanOrEqual(9);
    expect(served.outstanding[2 * 2]).toBeLessThanOrEqual(10);
  });

  it('gives a routing-only run every per-cell array, typed and zero (the engine leaves them unfilled)', () => {
    // 2 backends x 3 buckets: nothing is served, so nothing is late, failed
    // or retried; the arrays keep the types the API promises and their length.
    const plain = lab.simulate('POOL a=1 b=1\n', { rps: 100, duration: 3 });
    const cells = 2 * 3;
    const zeros = (a: ArrayLike<number>) => Array.from(a).every((x) => x === 0);
    for (const [name, array, type] of [
      ['outstanding', plain.outstanding, Float64Array],
      ['latencyMs', plain.latencyMs, Float64Array],
      ['failed', plain.failed, Uint32Array],
      ['retried', plain.retried, Uint32Array],
      ['p50Ms', plain.p50Ms, Float32Array],
      ['p99Ms', plain.p99Ms, Float32Array],
    ] as const) {
      expect(array, name).toBeInstanceOf(type);
      expect(array.length, name).toBe(cells);
      expect(zeros(array), name).toBe(true);
    }
    // The requests themselves are counted: 150 each over the 3 s.
    expect(plain.requests.length).toBe(cells);
    expect(plain.requests.reduce((x, y) => x + y, 0)).toBe(300);
  });

  it('reports bad script lines and throws on bad options', () => {
    const t = lab.simulate('POOL a=1\nADD b=oops 3\n', { duration: 1 });
    // (The weight: units 6-10 of "ADD b=oops 3".)
    expect(t.diagnostics).toEqual([{ line: 2, message: "weight must be a non-negative integer, got 'oops'", from: 6, to: 10 }]);
    expect(() => lab.simulate('POOL a=1', { rps: -1 })).toThrow(rejection('INVALID_ARGUMENT', 'rps must be a number above 0'));
    expect(() => lab.simulate('POOL a=1', { curve: { resolution: 10 as 16 } })).toThrow(
      rejection('INVALID_ARGUMENT', "resolution must be 0, 1, 16, 100 or 1000, got '10'"),
    );
    expect(() => lab.simulate('POOL a=1', { policy: 'lru' as 'wrr' })).toThrow(/policy must be/);
  });
});

describe('simulate(): failures, health checks and policies', () => {
  // The Envoy case of tests/cpp/traffic_health_test.cpp, through the API:
  // b restarts cold (×21, 2 s of warm-up that stops while it is ejected);
  // 2 consecutive timeouts eject it at 0.8 for 2 s (back at the 3.0 sweep),
  // then at 3.8 for 2 × 2 s (back at 8.0); stable from 9 s.
  // Two hosts: current Envoy ejects one only with always_eject_one_host (or max_ejection_percent 50).
  it('ejects with Envoy outlier detection, escalating, and says when it is stable', () => {
    const t = lab.simulate('POOL a=1 b=1\nUP b 0\n', {
      rps: 10,
      duration: 12,
      service: { baseMs: 100, coldFactor: 21, warmup: 2, warmBy: 'serving' },
      timeoutMs: 500,
      health: { kind: 'envoy', consecutive5xx: 2, interval: 1, baseEjectionTime: 2, alwaysEjectOneHost: true },
    });
    expect(Array.from(t.ejections)).toEqual([0, 2]);
    expect(t.secondsEjected[1]).toBeCloseTo(2.2 + 4.2, 9);
    expect(t.failed[0 * 2 + 1]).toBe(4);
    expect(t.failed[3 * 2 + 1]).toBe(4);
    expect(t.state[5 * 2 + 1]).toBe(BackendState.Ejected);
    expect(t.state[9 * 2 + 1]).toBe(BackendState.Serving);
    expect(t.stableAt).toBe(9);
    const plain = lab.simulate('POOL a=1 b=1\n', { rps: 10, duration: 2 });
    expect(plain.stableAt).toBeNull(); // no service model: no latency to judge
  });

  it('leaves a whole warming pool without a backend under the skip decorator', () => {
    const t = lab.simulate('ADD a=1 30\nADD b=1 30\nADD c=1 30\n', { rps: 2000, duration: 1, policy: 'round-robin', rampBy: 'skip' });
    expect(Math.abs(t.unrouted[0] - 1900)).toBeLessThanOrEqual(60); // (1 - t/30)^3 over [0, 1): 0.950
  });

  it('states the service model and health-check defaults once, from the engine', () => {
    const d = lab.trafficDefaults();
    expect(d.service).toEqual({ baseMs: 200, coldFactor: 5, warmup: 30, workers: 128, warmBy: 'serving', warmupRequests: 10000 });
    expect(d.health).toEqual({
      maxFails: 1,
      failTimeout: 10,
      unhealthyLatencyMs: 0,
      errorLimit: 10,
      onError: 'fail-check',
      inter: 2,
      fastinter: 0,
      downinter: 0,
      rise: 2,
      fall: 3,
      checkMs: 3,
      legacyFastinter: false,
      consecutive5xx: 5,
      interval: 10,
      baseEjectionTime: 30,
      maxEjectionTime: 300,
      maxEjectionPercent: 10,
      alwaysEjectOneHost: false,
      legacyEjectionPercent: false,
      panicThreshold: 50,
      rampAfterEjection: false,
      successRateMinimumHosts: 5,
      successRateRequestVolume: 100,
      successRateStdevFactor: 1900,
      enforcingSuccessRate: 100,
      failurePercentageThreshold: 85,
      failurePercentageMinimumHosts: 5,
      failurePercentageRequestVolume: 50,
      enforcingFailurePercentage: 0,
    });
    expect(d.maxRetries).toBe(100);
  });

  it('checks the new options', () => {
    expect(() => lab.simulate('POOL a=1', { health: { kind: 'envoy' } })).toThrow(rejection('INVALID_ARGUMENT', 'health checks need failures: set a timeout'));
    expect(() => lab.simulate('POOL a=1', { timeoutMs: 100 })).toThrow(rejection('INVALID_ARGUMENT', 'a timeout needs the service model'));
    expect(() => lab.simulate('POOL a=1', { retries: 101 })).toThrow(rejection('INVALID_ARGUMENT', 'retries must be between 0 and 100'));
    // HAProxy's on-error through the API: a name of the table's list, nothing else.
    const haproxy = (health: Record<string, unknown>) => () => lab.simulate('POOL a=1', { timeoutMs: 100, service: {}, health: { kind: 'haproxy', ...health } } as never);
    expect(haproxy({ onError: 'drain' })).toThrow(/on-error must be fail-check, fastinter, sudden-death or mark-down, got 'drain'/);
    expect(haproxy({ fall: 0 })).toThrow(/fall/);
    expect(haproxy({ onError: 'sudden-death', fall: 2, fastinter: 0.5, downinter: 1, checkMs: 0, legacyFastinter: true })).not.toThrow();
  });
});

describe('run() with a curve', () => {
  it('prints internal weights under HAProxy, ramping only on recovery', () => {
    // b joined with ADD: full at once (16). a recovered with UP 30 s ago... at
    // 10 s: step 1 + floor(16 * 10 / 30) = 6 -> 16 * 6 / 16 = 6.
    const r = lab.run('POOL a=1\nADD b=1 30\nDOWN a\nUP a 30\nNOW 10\nWEIGHTS', { kind: 'haproxy', resolution: 16 });
    expect(r.output).toEqual([{ line: 6, text: 'a=6 b=16' }]);
  });

  it('is the SPEC at linear, resolution 1', () => {
    const r = lab.run('POOL a=5 b=1 c=1\nADD d=10 20\nNOW 5\nWEIGHTS\nPICK', {});
    expect(r.output.map((o) => o.text)).toEqual(['a=5 b=1 c=1 d=2', 'a']);
  });
});

describe('runWithRules()', () => {
  it('lets JavaScript supply the rules while the engine parses and prints', () => {
    const calls: number[] = [];
    const r = lab.runWithRules('POOL a=1 b=1\nPICK\nPICK\nWEIGHTS\nbad', {
      effective: (target, _ramp, _joined, _now, _name, line) => {
        calls.push(line);
        return target * 2;
      },
      // Always the last backend, scores untouched.
      pick: (names) => names.length - 1,
    });
    expect(r.output.map((o) => o.text)).toEqual(['b', 'b', 'a=2 b=2']);
    expect(r.diagnostics).toEqual([{ line: 5, message: "unknown command 'bad'", from: 0, to: 3 }]);
    expect(calls).toContain(1);
  });
});
