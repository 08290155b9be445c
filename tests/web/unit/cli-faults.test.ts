// Graders never lose output silently, and the two CLIs fail alike: each fault
// of the standard streams runs through the native CLI (build/slowstart) and
// the Node CLI (dist/api/cli.js) from a shell that sets up the redirection,
// and both must end as the README's CLI section says, with the same bytes:
//
//   stdout full or failing       "slowstart: write error: <strerror>", exit 2
//   the reader went away (EPIPE) nothing said, killed by SIGPIPE (141 in a shell)
//   stdin a directory            "slowstart: read error: ...", exit 2
//   a directory named as FILE    "slowstart: cannot read 'DIR': Is a directory", exit 2
//   /dev/null read-write         not a fault: what harnesses pass to discard
//                                output (Python's DEVNULL, Node's 'ignore')
//
// A descriptor closed at start (>&-) is the one difference: the native CLI
// reports it (exit 2), the Node CLI cannot tell it from a harness's /dev/null
// (Node puts /dev/null read-write in its place before any JavaScript runs).
import { execFileSync } from 'node:child_process';
import { spawn } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
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
  ];
  it.each(cases)('%s', async (_label, args, redirect, message) => {
    const runs = await both((cli) => shell(cli, args(), typeof redirect === 'string' ? redirect : redirect()));
    for (const [cli, run] of Object.entries(runs)) {
      expect({ cli, code: run.code, signal: run.signal, stderr: run.stderr }).toEqual({ cli, code: 2, signal: null, stderr: message });
    }
  });

  it('a descriptor closed at start (>&-, 2>&-): the native CLI says so (exit 2); the Node CLI sees /dev/null', async () => {
    const badFd = 'slowstart: write error: Bad file descriptor\n';
    for (const [args, redirect, nodeCode] of [
      [[ok], '>&-', 0],
      [[], `<"${ok}" >&-`, 0],
      [['simulate', ok], '>&-', 0],
      [[rejected], '2>&-', 1],
    ] as const) {
      const runs = await both((cli) => shell(cli, [...args], redirect));
      expect({ redirect, code: runs.native.code, stdout: runs.native.stdout }).toEqual({ redirect, code: 2, stdout: '' });
      if (redirect === '>&-') expect(runs.native.stderr).toBe(badFd);
      expect({ redirect, code: runs.node.code, stderr: runs.node.stderr }).toEqual({ redirect, code: nodeCode, stderr: '' });
    }
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
    ['a directory on stdin', [], '</', 'slowstart: read error: Is a directory\n'],
    ['simulate, a directory on stdin', ['simulate', '-'], '</', 'slowstart: read error: Is a directory\n'],
  ];
  it.each(cases)('%s', async (_label, args, redirect, message) => {
    const runs = await both((cli) => shell(cli, args, redirect));
    for (const [cli, run] of Object.entries(runs))
      expect({ cli, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({ cli, code: 2, stdout: '', stderr: message });
  });

  it('stdin closed (<&-): the native CLI says so (exit 2); the Node CLI reads /dev/null (an empty script)', async () => {
    for (const args of [[], ['-'], ['simulate']]) {
      const runs = await both((cli) => shell(cli, args, '<&-'));
      expect({ args, run: runs.native }).toEqual({ args, run: { code: 2, signal: null, stdout: '', stderr: 'slowstart: read error: Bad file descriptor\n' } });
      expect({ args, code: runs.node.code, stderr: runs.node.stderr }).toEqual({ args, code: 0, stderr: '' });
    }
  });

  it('a directory named as the script: both CLIs name it ("cannot read"), for a run and for simulate', async () => {
    for (const args of [['/'], ['simulate', '/']]) {
      const runs = await both((cli) => shell(cli, args, ''));
      for (const [cli, run] of Object.entries(runs))
        expect({ cli, args, code: run.code, stdout: run.stdout, stderr: run.stderr }).toEqual({
          cli,
          args,
          code: 2,
          stdout: '',
          stderr: "slowstart: cannot read '/': Is a directory\n",
        });
    }
  });

  it('stdin closed does not matter when the script is a FILE', async () => {
    const runs = await both((cli) => shell(cli, [ok], '<&-'));
    for (const run of Object.values(runs)) expect({ code: run.code, stdout: run.stdout }).toEqual({ code: 0, stdout: 'a\nb\na=2 b=1\n' });
  });
});

// The harnesses graders and tools really run the CLIs under. Python's
// subprocess.DEVNULL and Node's stdio 'ignore' open /dev/null read-write,
// which the Node CLI once took for a closed descriptor (exit 2, "write error:
// Bad file descriptor" on a correct run).
describe('under real harnesses: the same status from both CLIs', () => {
  /** Runs a Python harness (script on stdin: the CLI's argv as JSON) and returns what it printed. */
  function python(harness: string, cli: Cli, args: string[]): string {
    const program = `import json, subprocess, sys, time\ncmd = json.loads(sys.argv[1])\n${harness}`;
    return execFileSync('python3', ['-c', program, JSON.stringify([...CLIS[cli], ...args])], { encoding: 'utf8' }).trim();
  }

  it('Python subprocess with DEVNULL for stdout, stderr, both or stdin', () => {
    const harness = (out: string, err: string, inp: string) =>
      `print(subprocess.run(cmd, stdout=${out}, stderr=${err}, stdin=${inp}).returncode)`;
    for (const [script, out, err, inp, status] of [
      [ok, 'subprocess.DEVNULL', 'subprocess.PIPE', 'None', '0'],
      [ok, 'subprocess.DEVNULL', 'subprocess.DEVNULL', 'subprocess.DEVNULL', '0'],
      [rejected, 'subprocess.DEVNULL', 'subprocess.DEVNULL', 'None', '1'],
      [rejected, 'subprocess.PIPE', 'subprocess.DEVNULL', 'None', '1'],
      [big, 'subprocess.DEVNULL', 'subprocess.PIPE', 'None', '0'],
    ])
      for (const cli of ['native', 'node'] as const)
        expect({ cli, script, out, err, status: python(harness(out, err, inp), cli, [script]) }).toEqual({ cli, script, out, err, status });
    for (const cli of ['native', 'node'] as const) {
      // An empty script on stdin, and simulate's table thrown away.
      expect(python('print(subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE).returncode)', cli, [])).toBe('0');
      expect(python('print(subprocess.run(cmd, stdout=subprocess.DEVNULL).returncode)', cli, ['simulate', ok])).toBe('0');
    }
  });

  it('Python reading a pipe slowly gets every byte and status 0', () => {
    const harness = `p = subprocess.Popen(cmd, stdout=subprocess.PIPE)
n = 0
while True:
    chunk = p.stdout.read(65536)
    if not chunk: break
    n += len(chunk)
    time.sleep(0.002)
print(n, p.wait())`;
    const expected = `${'a\nb\n'.length * 200_000} 0`; // 400,000 picks of a 1:1 pool
    for (const cli of ['native', 'node'] as const) expect({ cli, got: python(harness, cli, [big]) }).toEqual({ cli, got: expected });
  });

  it("Node child_process with stdio 'ignore', and stdout to a file", async () => {
    const spawnStatus = (cli: Cli, args: string[], stdio: 'ignore' | ['ignore', number, 'ignore']) =>
      new Promise<number | null>((done, fail) => {
        const [cmd, ...pre] = CLIS[cli];
        const child = spawn(cmd, [...pre, ...args], { stdio });
        child.on('error', fail);
        child.on('close', (code) => done(code));
      });
    for (const cli of ['native', 'node'] as const) {
      expect({ cli, ok: await spawnStatus(cli, [ok], 'ignore') }).toEqual({ cli, ok: 0 });
      expect({ cli, rejected: await spawnStatus(cli, [rejected], 'ignore') }).toEqual({ cli, rejected: 1 });
      const file = join(work, `out-${cli}.txt`);
      const fd = openSync(file, 'w');
      try {
        expect({ cli, toFile: await spawnStatus(cli, [ok], ['ignore', fd, 'ignore']) }).toEqual({ cli, toFile: 0 });
      } finally {
        closeSync(fd);
      }
      expect(await readFile(file, 'utf8')).toBe('a\nb\na=2 b=1\n');
    }
  });
});
