// Graders never lose output silently, and the two CLIs fail alike: each fault
// of the standard streams runs through the native CLI (build/slowstart) and
// the Node CLI (dist/api/cli.js) from a shell that sets up the redirection,
// and both must end as the README's CLI section says, with the same bytes:
//
//   stdout full or failing       "slowstart: write error: <strerror>", exit 2
//   stdout/stderr closed (>&-)   "slowstart: write error: Bad file descriptor", exit 2
//   the reader went away (EPIPE) nothing said, killed by SIGPIPE (141 in a shell)
//   stdin closed or a directory  "slowstart: read error: ...", exit 2
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const NATIVE = join(ROOT, 'build/slowstart');
const NODE_CLI = join(ROOT, 'dist/api/cli.js');
const CLIS = { native: [NATIVE], node: [process.execPath, NODE_CLI] } as const;
type Cli = keyof typeof CLIS;

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs bash with `script` ($@ is `cli` and `args`), capturing its stdout and stderr. */
function bash(script: string, cli: Cli, args: string[]): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn('/bin/bash', ['-c', script, 'fault', ...CLIS[cli], ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => ok({ code, signal, stdout, stderr }));
  });
}

/**
 * Runs `cli args` from bash with `redirect` applied to it alone (e.g. `>&-`),
 * capturing what is left of stdout and stderr. `prelude` runs first in the
 * same shell (e.g. `trap '' PIPE`).
 */
function shell(cli: Cli, args: string[], redirect: string, prelude = ''): Promise<Run> {
  return bash(`${prelude}\nexec "$@" ${redirect}`, cli, args);
}

/** Runs `cli args` with stdout a pipe that is closed after the first chunk arrives. */
function readerGoesAway(cli: Cli, args: string[]): Promise<Run & { firstChunk: string }> {
  const [cmd, ...pre] = CLIS[cli];
  return new Promise((ok, fail) => {
    const child = spawn(cmd, [...pre, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let firstChunk = '';
    let stderr = '';
    child.stdout.once('data', (b: Buffer) => {
      firstChunk = b.toString();
      child.stdout.destroy(); // like `head -1` exiting
    });
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    child.on('error', fail);
    child.on('close', (code, signal) => ok({ code, signal, stdout: '', stderr, firstChunk }));
  });
}

async function both<R extends Run>(run: (cli: Cli) => Promise<R>): Promise<Record<Cli, R>> {
  const [native, node] = await Promise.all([run('native'), run('node')]);
  return { native, node };
}

let work: string;
let ok: string; // a clean script with three output lines
let rejected: string; // a script with one rejected line
let big: string; // megabytes of output: far more than a pipe holds

beforeAll(async () => {
  for (const f of [NATIVE, NODE_CLI]) if (!existsSync(f)) throw new Error(`${f} is missing: build first`);
  work = await mkdtemp(join(tmpdir(), 'slowstart-faults-'));
  ok = join(work, 'ok.txt');
  rejected = join(work, 'rejected.txt');
  big = join(work, 'big.txt');
  await writeFile(ok, 'POOL a=2 b=1\nPICK\nPICK\nWEIGHTS\n');
  await writeFile(rejected, 'POOL a=1\npick\nPICK\n');
  await writeFile(big, `POOL a=1 b=1\n${'PICK\n'.repeat(400_000)}`);
});

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the output cannot be written: exit 2 with "write error", in both CLIs', () => {
  it('/dev/full exists here (the disk-full tests need it)', () => {
    expect(existsSync('/dev/full')).toBe(true);
  });

  const full = 'slowstart: write error: No space left on device\n';
  const cases: [string, () => string[], string | (() => string), string][] = [
    ['a script, stdout on a full disk', () => [ok], '>/dev/full', full],
    ['megabytes of output on a full disk', () => [big], '>/dev/full', full],
    ['the script on stdin, stdout on a full disk', () => ['-'], () => `<"${ok}" >/dev/full`, full],
    ['--help on a full disk', () => ['--help'], '>/dev/full', full],
    ['--version on a full disk', () => ['--version'], '>/dev/full', full],
    ['simulate on a full disk', () => ['simulate', '--rps', '10', ok], '>/dev/full', full],
    ['stdout closed (>&-)', () => [ok], '>&-', 'slowstart: write error: Bad file descriptor\n'],
    ['stdout closed, script on stdin', () => [], () => `<"${ok}" >&-`, 'slowstart: write error: Bad file descriptor\n'],
    ['simulate with stdout closed', () => ['simulate', ok], '>&-', 'slowstart: write error: Bad file descriptor\n'],
  ];
  it.each(cases)('%s', async (_label, args, redirect, message) => {
    const runs = await both((cli) => shell(cli, args(), typeof redirect === 'string' ? redirect : redirect()));
    for (const [cli, run] of Object.entries(runs)) {
      expect({ cli, code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ cli, code: 2, signal: null, stderr: message });
    }
  });

  it('stderr closed (2>&-): exit 2 before running, nothing printed', async () => {
    const runs = await both((cli) => shell(cli, [rejected], '2>&-'));
    for (const run of Object.values(runs)) expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 2, stdout: '' });
  });

  it('diagnostics on a full disk (2>/dev/full): exit 2, not 1', async () => {
    const runs = await both((cli) => shell(cli, [rejected], '2>/dev/full'));
    for (const run of Object.values(runs)) expect(run.code).toBe(2);
  });

  it('controls: /dev/null as stdout or stdin is not a fault (exit 0)', async () => {
    const out = await both((cli) => shell(cli, [ok], '>/dev/null'));
    const inp = await both((cli) => shell(cli, [], '</dev/null'));
    for (const run of [...Object.values(out), ...Object.values(inp)]) expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    const plain = await both((cli) => shell(cli, [ok], ''));
    for (const run of Object.values(plain)) expect(run).toEqual({ code: 0, signal: null, stdout: 'a\nb\na=2 b=1\n', stderr: '' });
  });
});

describe('the reader goes away (| head -1): quiet, killed by SIGPIPE, in both CLIs', () => {
  it('stdout closed after the first chunk: SIGPIPE, nothing on stderr', async () => {
    const runs = await both((cli) => readerGoesAway(cli, [big]));
    for (const [cli, run] of Object.entries(runs)) {
      expect(run.firstChunk.startsWith('a\nb\n'), cli).toBe(true);
      expect({ cli, code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ cli, code: null, signal: 'SIGPIPE', stderr: '' });
    }
  });

  it('`CLI big | head -1` in a shell: status 141 and one line, also when SIGPIPE was ignored (trap "" PIPE)', async () => {
    for (const prelude of ['', "trap '' PIPE"]) {
      const runs = await both((cli) => bash(`${prelude}\n"$@" | head -1; echo "status \${PIPESTATUS[0]}"`, cli, [big]));
      for (const [cli, run] of Object.entries(runs))
        expect({ cli, prelude, stdout: run.stdout, stderr: run.stderr }).toEqual({ cli, prelude, stdout: 'a\nstatus 141\n', stderr: '' });
    }
  });
});

describe('stdin cannot be read: exit 2 with "read error", in both CLIs', () => {
  const cases: [string, string[], string, string][] = [
    ['stdin closed (<&-)', [], '<&-', 'slowstart: read error: Bad file descriptor\n'],
    ['stdin closed, script named -', ['-'], '<&-', 'slowstart: read error: Bad file descriptor\n'],
    ['a directory on stdin', [], '</', 'slowstart: read error: Is a directory\n'],
    ['simulate, stdin closed', ['simulate'], '<&-', 'slowstart: read error: Bad file descriptor\n'],
    ['simulate, a directory on stdin', ['simulate', '-'], '</', 'slowstart: read error: Is a directory\n'],
  ];
  it.each(cases)('%s', async (_label, args, redirect, message) => {
    const runs = await both((cli) => shell(cli, args, redirect));
    for (const [cli, run] of Object.entries(runs))
      expect({ cli, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ cli, code: 2, stdout: '', stderr: message });
  });

  it('stdin closed does not matter when the script is a FILE', async () => {
    const runs = await both((cli) => shell(cli, [ok], '<&-'));
    for (const run of Object.values(runs)) expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'a\nb\na=2 b=1\n' });
  });
});
