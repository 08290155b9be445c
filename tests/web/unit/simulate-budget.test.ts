// The work budget as users meet it (cpp/traffic/budget.hpp): each way a
// simulation used to hang, abort or grow without bound (issue #35), run
// through both CLIs as processes with a time limit, and through the API.
// Each must end quickly with exit status 2 and the same one-line message
// from both CLIs, saying the scenario's size and the limit; the API throws
// TOO_LARGE with the same message. The Node CLI turns a WebAssembly abort
// into one line and exit 2.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { rejection } from '../support/rejection.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const NATIVE = join(ROOT, 'build/slowstart');
const NODE_CLI = join(ROOT, 'dist/api/cli.js');
/** How long one run may take on a loaded 2-core machine: the old behaviour ran for hours, or for ever. */
const LIMIT_MS = 60_000;

interface Run {
  code: number | null;
  signal: string | null;
  stdout: string;
  stderr: string;
  ms: number;
}

function run(command: string, args: string[]): Promise<Run> {
  const start = Date.now();
  return new Promise((ok) => {
    execFile(command, args, { timeout: LIMIT_MS, killSignal: 'SIGKILL', maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      const e = error as (Error & { code?: number; signal?: string }) | null;
      ok({ code: e ? (typeof e.code === 'number' ? e.code : null) : 0, signal: e?.signal ?? null, stdout, stderr, ms: Date.now() - start });
    });
  });
}

const bothClis = (args: string[]) => Promise.all([run(NATIVE, ['simulate', ...args]), run(process.execPath, [NODE_CLI, 'simulate', ...args])]);

let dir: string;
const file = (name: string) => join(dir, name);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'slowstart-budget-'));
  await writeFile(file('one.txt'), 'POOL a=1\n');
  await writeFile(file('pool100k.txt'), `POOL ${Array.from({ length: 100_000 }, (_, i) => `b${i}=1`).join(' ')}\n`);
  // Typed with the Traffic tab open, it froze the page for 223 s.
  await writeFile(file('far.txt'), 'POOL a=1 b=1\nNOW 999999000\nADD c=1 30\n');
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

// Each case: the arguments (a file by name), and the message both CLIs must print.
const CASES: Array<{ what: string; args: () => string[]; message: RegExp }> = [
  {
    what: 'an endless script (/dev/zero) is not read past the limit',
    args: () => ['/dev/zero'],
    message: /^script too large: more than 67108864 bytes \(at most 67108864\)$/,
  },
  {
    what: 'an interval of 1e-300 s (t + interval == t: it never ended)',
    args: () => ['--health', 'envoy', '--interval', '1e-300', '--timeout-ms', '100', file('one.txt')],
    message: /^interval must be a number of seconds from 0\.001 to 1000000$/,
  },
  {
    what: "Envoy's sweeps every millisecond for 10^17 s",
    args: () => ['--duration', '1e17', '--rps', '1e-9', '--bucket', '1e16', '--timeout-ms', '5', '--health', 'envoy', '--interval', '0.001', file('one.txt')],
    message: /^simulation too large: about 5e\+20 steps of work \(at most 1\.2e\+10\): 1e\+20 sweeps of Envoy's check/,
  },
  {
    what: 'rows of output: 10^8 buckets',
    args: () => ['--duration', '1e15', '--rps', '1e-9', '--bucket', '1e7', file('one.txt')],
    message: /^simulation too large: 100000000 buckets x 1 backends = 100000000 rows \(at most 10000000\); widen the bucket$/,
  },
  {
    what: 'random over 100,000 backends (each pick scans them all)',
    args: () => ['--policy', 'random', '--rps', '1000000', '--duration', '1000', '--bucket', '1000', file('pool100k.txt')],
    message: /^simulation too large: about 5e\+14 steps of work \(at most 1\.2e\+10\): 1000000000 requests, each a pick that looks at all 100000 backends \(random\)/,
  },
  {
    what: 'a service time of 10^6 s at 10^6 requests a second (every request stays in flight)',
    args: () => ['--service-ms', '1e9', '--workers', '10000', '--rps', '1e6', '--duration', '100', file('one.txt')],
    message: /^simulation too large: more than 4000000 requests in flight or waiting for a worker at once \(at 3\.990 s\); set a timeout/,
  },
  {
    what: 'a CSV of 10^7 rows',
    args: () => ['--duration', '1e7', '--rps', '1e-6', '--csv', file('one.txt')],
    message: /^report too large: up to 1\.9e\+09 bytes \(at most 268435456\); widen the bucket, or use --summary json$/,
  },
  {
    what: 'the script that froze the Traffic tab, a row a second',
    args: () => ['--rps', '1', file('far.txt')],
    message: /^simulation too large: 999999040 buckets x 3 backends = 2999997120 rows \(at most 10000000\); widen the bucket$/,
  },
  {
    what: '10^301 requests',
    args: () => ['--rps', '1e300', file('one.txt')],
    message: /^simulation too large: 1e\+301 requests \(at most 1000000000\); lower rps or duration$/,
  },
];

describe('both CLIs end every over-budget simulation quickly, alike, with exit 2', () => {
  it.each(CASES)('$what', async ({ args, message }) => {
    const [native, node] = await bothClis(args());
    for (const r of [native, node]) {
      expect(r.signal, 'killed at the time limit').toBeNull();
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.endsWith('\n') && r.stderr.split('\n').length).toBe(2); // one line
      expect(r.stderr.replace(/^slowstart simulate: /, '').trimEnd()).toMatch(message);
    }
    expect(node.stderr).toBe(native.stderr);
  });
});

describe('the API: TOO_LARGE, with the same message, and the size before running', () => {
  it('throws TOO_LARGE for what is over the budget', async () => {
    const { readFile } = await import('node:fs/promises');
    const pool = await readFile(file('pool100k.txt'), 'utf8');
    expect(() => lab.simulate(pool, { policy: 'random', rps: 1e6, duration: 1000, bucket: 1000 })).toThrow(
      rejection('TOO_LARGE', /^simulation too large: about 5e\+14 steps of work \(at most 1\.2e\+10\)/),
    );
    expect(() => lab.simulate('POOL a=1\n', { service: { baseMs: 1e9, workers: 10_000 }, rps: 1e6, duration: 100 })).toThrow(
      rejection('TOO_LARGE', /^simulation too large: more than 4000000 requests in flight/),
    );
    expect(() => lab.simulate('POOL a=1 b=1\nNOW 999999000\nADD c=1 30\n', { rps: 1 })).toThrow(rejection('TOO_LARGE', /rows \(at most 10000000\)/));
    // A bad option is not a size: INVALID_ARGUMENT, as before.
    expect(() => lab.simulate('POOL a=1\n', { service: true, timeoutMs: 100, health: { kind: 'envoy', interval: 1e-300 } })).toThrow(
      rejection('INVALID_ARGUMENT', 'interval must be a number of seconds from 0.001 to 1000000'),
    );
  });

  it('refuses a script over the limit before copying it into the engine', () => {
    const limits = lab.simulationLimits();
    expect(limits).toEqual({ scriptBytes: 67_108_864, requests: 1e9, steps: 1.2e10, cells: 1e7, inFlight: 4e6, latencyBins: 4e6, minInterval: 0.001 });
    const script = '#'.repeat(limits.scriptBytes + 1);
    expect(() => lab.simulate(script)).toThrow(rejection('TOO_LARGE', 'script too large: more than 67108864 bytes (at most 67108864)'));
  });

  it('tells the size without running: the duration of a far scenario in microseconds, not 223 s', () => {
    const start = performance.now();
    const size = lab.simulationSize('POOL a=1 b=1\nNOW 999999000\nADD c=1 30\n', { rps: 0.003, bucket: 5_000_400 });
    expect(performance.now() - start).toBeLessThan(1000);
    // 10 s past the last ramp's end (999,999,000 + 30); 0.003 a second for that long: 2,999,997.12, so 2,999,998.
    expect(size).toMatchObject({ duration: 999_999_040, requests: 2_999_998, backends: 3, buckets: 200, cells: 600, problem: null, tooLarge: false });
    expect(size.steps).toBe(2_999_998 * 10 + 600 * 20 + 38 * 2);
    const over = lab.simulationSize('POOL a=1\n', { rps: 1e300 });
    expect(over).toMatchObject({ tooLarge: true, problem: 'simulation too large: 1e+301 requests (at most 1000000000); lower rps or duration' });
  });
});

describe('the Node CLI and a WebAssembly abort', () => {
  it('says so in one line and exits 2 (never the minified glue on stderr)', async () => {
    // 100 MB of WebAssembly memory (V8's own cap), for 10^7 rows that need 370 MB: the module aborts.
    const r = await run(process.execPath, ['--wasm-max-mem-pages=1600', NODE_CLI, 'simulate', '--duration', '1e7', '--rps', '1e-6', '--summary', 'json', file('one.txt')]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe('slowstart: the engine aborted (out of memory?): Aborted()\n');
  });
});
