// p50/p99 latency and the client's failures (issue #31, item 4) as users meet
// them: the API's Traffic and both CLIs' `--summary json` and `--csv`, on
// scenarios worked by hand (tests/cpp/traffic_percentiles_test.cpp has the
// same ones in C++, with the working).
//
// POOL a=1 b=1, b restarted at 0 and cold all run (~1,100 ms a request), a
// warm (100 ms); 10 requests a second for 3 s, a the even tenths, b the odd;
// timeout 500 ms, so b's all time out.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI_COMMAND } from '../support/grade-cli.js';
import { lab } from '../support/lab.js';

const CASES = fileURLToPath(new URL('../../simulate_cases/', import.meta.url));
const SCRIPT = 'POOL a=1 b=1\nUP b 0\n';
const OPTIONS = { rps: 10, duration: 3, service: { baseMs: 100, coldFactor: 11, warmup: 1000, warmBy: 'time' as const }, timeoutMs: 500 };
const FLAGS = ['--rps', '10', '--duration', '3', '--service-ms', '100', '--cold-factor', '11', '--warmup', '1000'];
const TIMEOUT = ['--warm-by', 'time', '--timeout-ms', '500'];

function cli(which: 'native' | 'node', args: string[]): string {
  const [cmd, ...pre] = CLI_COMMAND[which];
  const r = spawnSync(cmd, [...pre, 'simulate', ...args, 'cold_b.txt'], { cwd: CASES, encoding: 'utf8' });
  expect(r.status, r.stderr).toBe(0);
  return r.stdout;
}

describe('the client and the percentiles, worked by hand', () => {
  it('the API: without retries half the requests fail to the client; with one, only those past the end', () => {
    const none = lab.simulate(SCRIPT, { ...OPTIONS, retries: 0 });
    // Per bucket: 10 sent, b's 5 failed; the client's 5 x 100 ms and 5 x 500 ms: p50 (rank 5) 100, p99 (rank 10) 500.
    expect([...none.clientRequests]).toEqual([10, 10, 10]);
    expect([...none.clientFailed]).toEqual([5, 5, 5]);
    expect([0, 1, 2].map((k) => none.clientErrorRate(k))).toEqual([0.5, 0.5, 0.5]);
    expect([...none.clientP50Ms]).toEqual([100, 100, 100]);
    expect([...none.clientP99Ms]).toEqual([500, 500, 500]);
    // Per backend and bucket: a 100, b 500 (a timed-out attempt counts as the timeout).
    expect([...none.p50Ms]).toEqual([100, 500, 100, 500, 100, 500]);
    expect([...none.p99Ms]).toEqual([100, 500, 100, 500, 100, 500]);
    expect([none.runClientRequests, none.runClientFailed, none.runClientErrorRate]).toEqual([30, 15, 0.5]);
    expect([none.runP50Ms, none.runP99Ms, none.runClientP50Ms, none.runClientP99Ms]).toEqual([[100, 500], [100, 500], 100, 500]);

    // One retry: b's requests go to a when they time out: the client waits 600 ms.
    // Those at 2.5, 2.7, 2.9 s time out at or past the end (3 s): failed.
    const one = lab.simulate(SCRIPT, { ...OPTIONS, retries: 1 });
    expect([...one.clientFailed]).toEqual([0, 0, 3]);
    expect(one.clientErrorRate(2)).toBe(0.3);
    expect([...one.clientP99Ms]).toEqual([600, 600, 600]);
    expect([one.runClientFailed, one.runClientErrorRate, one.runClientP50Ms, one.runClientP99Ms]).toEqual([3, 0.1, 100, 600]);
  });

  it('without the service model there is no latency: null over the run, 0 per bucket; no request: rate 0', () => {
    const t = lab.simulate('POOL a=1\nNOW 1\nDOWN a\n', { rps: 10, duration: 2 });
    expect([...t.clientFailed]).toEqual([0, 10]); // DOWN at 1 s: the second bucket's requests find no backend
    expect(t.runClientP99Ms).toBeNull();
    expect(t.runP99Ms).toEqual([null]);
    expect([...t.p99Ms]).toEqual([0, 0]);
    expect(lab.simulate('POOL a=1\n', { rps: 1e-9, duration: 3 }).runClientErrorRate).toBe(0);
  });

  it.each(['native', 'node'] as const)('the %s CLI: --summary json and --csv', (which) => {
    const summary = JSON.parse(cli(which, [...FLAGS, ...TIMEOUT, '--summary', 'json']));
    expect([summary.client_requests, summary.client_failed, summary.client_error_rate]).toEqual([30, 15, 0.5]);
    expect([summary.client_p50_ms, summary.client_p99_ms]).toEqual([100, 500]);
    expect(summary.backends.map((b: { p50_ms: number; p99_ms: number }) => [b.p50_ms, b.p99_ms])).toEqual([[100, 100], [500, 500]]);

    const rows = cli(which, [...FLAGS, ...TIMEOUT, '--retries', '1', '--csv']).trimEnd().split('\n');
    const header = rows[0].split(',');
    // The new columns at the end: the old ones keep their index.
    expect(header.slice(0, 9)).toEqual(['time', 'backend', 'requests', 'share', 'outstanding', 'latency_ms', 'failed', 'retried', 'state']);
    expect(header.slice(9)).toEqual(['p50_ms', 'p99_ms', 'client_requests', 'client_failed', 'client_error_rate', 'client_p50_ms', 'client_p99_ms']);
    const b2 = rows.find((r) => r.startsWith('2,b,'))!.split(',');
    expect(b2.slice(9)).toEqual(['500.0', '500.0', '10', '3', '0.300000', '100.0', '600.0']);
  });
});
