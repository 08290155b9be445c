// `slowstart simulate` prints the same bytes from both CLIs: the golden
// cases of tests/simulate_cases/ (recorded from the native CLI, which CTest
// checks against them) through the Node CLI's engine (the lab module's
// simulateCommand, in this process) and, for a few, through the Node CLI
// itself as a user runs it.
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { LabModule } from '../../../web/wasm/lab.mjs';
import { NATIVE } from '../support/grade-cli.js';
import { lab } from '../support/lab.js';

// The Node CLI's engine: the lab module's simulateCommand (internal).
const labModule = (lab as unknown as { module: LabModule }).module;

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CASES = `${ROOT}tests/simulate_cases/`;
const CLI = `${ROOT}dist/api/cli.js`;
const run = promisify(execFile);

const cases = readFileSync(`${CASES}cases.list`, 'utf8')
  .split('\n')
  .filter((line) => /^[a-z]/.test(line))
  .map((line) => {
    const [name, ...args] = line.split(' ').filter(Boolean);
    return { name, args };
  });

const expected = (name: string) => ({
  out: readFileSync(`${CASES}${name}.out`, 'utf8'),
  err: readFileSync(`${CASES}${name}.err`, 'utf8'),
  status: Number(readFileSync(`${CASES}${name}.status`, 'utf8')),
});

describe('simulate: the golden cases', () => {
  it('reads every case', () => {
    expect(cases.length).toBeGreaterThanOrEqual(50);
  });

  it.each(cases)('$name: the Node CLI engine prints the recorded bytes', ({ name, args }) => {
    const read = (path: string, maxBytes: number): Uint8Array | string => {
      try {
        return readFileSync(`${CASES}${path}`).subarray(0, maxBytes);
      } catch {
        return `cannot open '${path}': No such file or directory`;
      }
    };
    const got = labModule.simulateCommand(args, read);
    expect(got).toEqual(expected(name));
  });

  // The CLI process itself: arguments, reading the file, stdout and stderr, the exit status.
  it.each(['flap_envoy_json', 'haproxy_curve_csv', 'bad_lines', 'bad_policy', 'bad_missing_file'])(
    '%s: the Node CLI process prints the recorded bytes',
    async (name) => {
      const { args } = cases.find((c) => c.name === name)!;
      const got = await run(process.execPath, [CLI, 'simulate', ...args], { cwd: CASES, encoding: 'utf8' }).then(
        (r) => ({ out: r.stdout, err: r.stderr, status: 0 }),
        (e: { stdout: string; stderr: string; code: number }) => ({ out: e.stdout, err: e.stderr, status: e.code }),
      );
      expect(got).toEqual(expected(name));
    },
  );
});

// Both engines, one simulation: the native CLI and the WebAssembly engine
// must agree on every run, not only on the recorded ones. A sweep of runs
// where many attempts end at the same moment (timeouts, queues), under every
// health check and with retries, the place where an order left to the C++
// library shows (a heap pops equal times in an order of its own: libstdc++'s
// natively, libc++'s in WebAssembly; Envoy's retry circuit breaker counts
// retries in flight, so the order changed the failures: 65,401 against 65,426
// in the guide's rolling restart).
describe('simulate: the native and WebAssembly engines agree beyond the golden cases', () => {
  const scripts = ['restart.txt', 'join.txt', 'mixed.txt', 'warming.txt', 'cold_b.txt'];
  const health = [
    ['--health', 'envoy', '--always-eject-one-host'],
    ['--health', 'envoy', '--max-retries-in-flight', '1'],
    ['--health', 'envoy', '--legacy-ejection-percent', '--max-ejection-time', '30'],
    ['--health', 'nginx'],
    ['--health', 'haproxy'],
  ];
  const runs = scripts.flatMap((script, i) =>
    health.map((h, j) => [
      ...['--rps', String(900 + 311 * ((i * 5 + j) % 7)), '--duration', '90', '--bucket', '5', '--resolution', '100'],
      ...['--timeout-ms', String([250, 1000][(i + j) % 2]), '--retries', String(1 + ((i + j) % 2))],
      ...((i + j) % 3 === 0 ? ['--no-slow-start'] : []),
      ...((i + j) % 2 === 0 ? ['--service', '--cold-factor', '6'] : []),
      ...h,
      '--summary',
      'json',
      script,
    ]),
  );
  it.each(runs.map((args) => [args.join(' '), args]))('%s', (_, args) => {
    const native = spawnSync(NATIVE, ['simulate', ...(args as string[])], { cwd: CASES, encoding: 'utf8' });
    const read = (path: string, maxBytes: number) => readFileSync(`${CASES}${path}`).subarray(0, maxBytes);
    const wasm = labModule.simulateCommand(args as string[], read);
    expect(native.status, native.stderr).toBe(0);
    expect(wasm).toEqual({ out: native.stdout, err: native.stderr, status: 0 });
  });
});
