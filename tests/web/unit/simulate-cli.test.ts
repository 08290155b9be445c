// `slowstart simulate` prints the same bytes from both CLIs: the golden
// cases of tests/simulate_cases/ (recorded from the native CLI, which CTest
// checks against them) through the Node CLI's engine (the lab module's
// simulateCommand, in this process) and, for a few, through the Node CLI
// itself as a user runs it.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { LabModule } from '../../../web/wasm/lab.mjs';
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
