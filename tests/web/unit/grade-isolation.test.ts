// A graded program reaches nothing of the grader's but its stdin and stdout
// (docs/SECURITY.md, "Grading hostile programs"), in both CLIs, each
// defence against the hostile program that needs it (tests/grade/hostile):
// the grader's terminal (/dev/tty, TIOCSTI: the grader runs under a
// pseudo-terminal here), descriptors its caller left open, the user's
// groups, processes that hop from pid to pid or fork without end, a user
// another run is using, and daemons that leave their session, clear their
// environment and hop from pid to pid, over 50 runs. Each of these failed
// before its defence was there (checked by taking the defence out once:
// docs/SECURITY.md lists which); the PID namespace each program has (both
// CLIs, where one can be made) is taken out by the tests' switch here.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AS_ROOT,
  CLI_COMMAND,
  CLIS,
  type Cli,
  EPOCH,
  type JsonReport,
  PYTHON_BIN,
  ROOT,
  testGroup,
  testUser,
} from '../support/grade-cli.js';

const HOSTILE = join(ROOT, 'tests/grade/hostile');
if (!AS_ROOT) console.warn('grade-isolation: skipped: --user needs the tests to run as root (they make users and groups)');

/** Whether a process is alive (a zombie is dead: its parent has not collected it yet). */
function isAlive(pid: number): boolean {
  try {
    return !/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
  } catch {
    return false;
  }
}

/** Whether the process a pid file (one line: the pid as the grader sees it) names is alive. */
function aliveIn(file: string): boolean {
  return existsSync(file) && isAlive(Number(readFileSync(file, 'utf8').trim()));
}

/** The tests' switch that grades as where no PID namespace can be made (grade-namespace.ts, grade_namespace.hpp). */
const NO_NAMESPACE = { SLOWSTART_TEST_NO_PID_NAMESPACE: '1' };

/**
 * Whether a PID namespace can be made here (root, outside a restricted
 * container): then both CLIs give each program one. Where not, the Node CLI
 * cannot catch a daemon that clears its environment (docs/SECURITY.md).
 */
const NAMESPACES = AS_ROOT && spawnSync('unshare', ['--pid', '--fork', '/bin/true']).status === 0;
if (AS_ROOT && !NAMESPACES) console.warn('grade-isolation: no PID namespace can be made here: the Node CLI\'s tests of daemons that clear their environment are skipped');

/** The user's processes, zombies aside. */
function processesOf(user: string): number[] {
  const out = spawnSync('pgrep', ['-u', user]).stdout.toString().trim();
  return out ? out.split('\n').map(Number).filter(isAlive) : [];
}

describe.skipIf(!AS_ROOT)('a graded program reaches nothing of the grader\'s (docs/SECURITY.md)', { timeout: 300_000 }, () => {
  let base: string;
  let priv: string; // root's alone
  let shared: string; // every user may write here
  let one: string; // a tests' folder with one test: POOL a=1, PICK (expected: a)
  let two: string; // two such tests
  let fifty: string; // fifty such tests
  let user: string;
  let readers: string;

  beforeAll(() => {
    readers = testGroup('readers');
    user = testUser('isolation', [readers]);
    base = mkdtempSync(join(tmpdir(), 'slowstart-isolation-'));
    chmodSync(base, 0o755);
    priv = join(base, 'private');
    mkdirSync(priv, { mode: 0o700 });
    shared = join(base, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    one = join(base, 'one');
    two = join(base, 'two');
    fifty = join(base, 'fifty');
    const names50 = Array.from({ length: 50 }, (_, k) => `t${String(k).padStart(2, '0')}`);
    for (const [dir, names] of [[one, ['a']], [two, ['a', 'b']], [fifty, names50]] as const) {
      mkdirSync(dir);
      for (const name of names) writeFileSync(join(dir, `${name}.txt`), 'POOL a=1\nPICK\n');
    }
  });
  afterAll(() => {
    if (base) rmSync(base, { recursive: true, force: true });
  });

  /** Grades synchronously; the JSON report comes back through --output. */
  /** Grades synchronously (`prefix`: a command the grader runs under, e.g. prlimit); the JSON report comes back through --output. */
  function grade(which: Cli, args: string[], program: string[], prefix: string[] = [], extraEnv: Record<string, string> = {}) {
    const report = join(priv, `report-${which}-${Math.random().toString(36).slice(2)}.json`);
    const argv = [...prefix, ...CLI_COMMAND[which], 'grade', '--format', 'json', '--output', report, '--timeout', '30', ...args, '--', ...program];
    const env = { ...process.env, ...EPOCH, ...extraEnv };
    const t0 = performance.now();
    const run = spawnSync(argv[0], argv.slice(1), { env });
    const ms = performance.now() - t0;
    const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
    return { status: run.status, stderr: run.stderr.toString(), ms, report: text ? (JSON.parse(text) as JsonReport) : null };
  }

  for (const which of CLIS) {
    describe(which, () => {
      it('has no controlling terminal: /dev/tty is nothing, and nothing is typed into or written on the grader\'s terminal', () => {
        // The grader runs under a pseudo-terminal, as in a TA's shell; its report goes to --output.
        const underPty = [
          'import json, os, pty, sys',
          'pid, fd = pty.fork()',
          'if pid == 0:',
          '    os.execvp(sys.argv[1], sys.argv[1:])',
          'screen = b""',
          'while True:',
          '    try:',
          '        chunk = os.read(fd, 65536)',
          '    except OSError:',
          '        break',
          '    if not chunk:',
          '        break',
          '    screen += chunk',
          '_, status = os.waitpid(pid, 0)',
          'print(json.dumps({"status": os.waitstatus_to_exitcode(status), "screen": screen.decode("utf-8", "replace")}))',
        ].join('\n');
        for (const asUser of [[], ['--user', user]]) {
          const report = join(priv, `tty-${which}-${asUser.length}.json`);
          const argv = [...CLI_COMMAND[which], 'grade', '--tests', two, '--format', 'json', '--output', report, ...asUser, '--', PYTHON_BIN, '-S', join(HOSTILE, 'opens-tty.py')];
          const run = spawnSync(PYTHON_BIN, ['-c', underPty, ...argv], { env: { ...process.env, ...EPOCH } });
          const { status, screen } = JSON.parse(run.stdout.toString()) as { status: number; screen: string };
          const label = `${which} ${asUser.join(' ')}`;
          expect(screen, label).not.toContain('HIJACKED-THE-TERMINAL');
          expect(screen, label).not.toContain('TYPED-INTO-THE-SHELL');
          expect(status, `${label}: ${screen}`).toBe(0);
          const results = (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).results;
          expect(results.map((r) => r.stderr), label).toEqual(['tty: No such device or address\n', 'tty: No such device or address\n']);
        }
      });

      it('passes no descriptor above 2 on: a file the grader\'s caller left open stays untouched', () => {
        // A root-only file, open in the grader as descriptors 3 and 40 (`exec 3>>log`).
        const log = join(priv, `log-${which}`);
        writeFileSync(log, '', { mode: 0o600 });
        for (const asUser of [[], ['--user', user]]) {
          const fd = openSync(log, 'a');
          const report = join(priv, `fds-${which}-${asUser.length}.json`);
          const [cmd, ...pre] = CLI_COMMAND[which];
          const stdio: ('ignore' | 'pipe' | number)[] = ['ignore', 'pipe', 'pipe', fd, ...Array<'ignore'>(36).fill('ignore'), fd];
          const run = spawnSync(cmd, [...pre, 'grade', '--tests', one, '--format', 'json', '--output', report, ...asUser, '--', PYTHON_BIN, '-S', join(HOSTILE, 'writes-fds.py'), '3', '40'], {
            env: { ...process.env, ...EPOCH },
            stdio,
          });
          closeSync(fd);
          const label = `${which} ${asUser.join(' ')}`;
          expect(run.status, `${label}: ${run.stderr}`).toBe(0);
          expect(readFileSync(log, 'utf8'), label).toBe('');
          expect((JSON.parse(readFileSync(report, 'utf8')) as JsonReport).results[0].stderr, label).toBe('fd 3: Bad file descriptor\nfd 40: Bad file descriptor\n');
        }
      });

      it('--user: the program has the user\'s groups, as the user has them (a group-readable file)', () => {
        const file = join(base, `for-readers-${which}`);
        writeFileSync(file, 'a\n');
        chownSync(file, 0, Number(spawnSync('getent', ['group', readers]).stdout.toString().split(':')[2]));
        chmodSync(file, 0o640);
        const run = grade(which, ['--tests', one, '--user', user], ['/bin/sh', '-c', 'cat "$0"', file]);
        expect(run.status, run.stderr).toBe(0);
        expect(run.report!.results[0]).toMatchObject({ status: 'passed', stderr: '' });
      });

      it('--user: a process that hops from pid to pid is gone before the next round of tests (one kill as the user, atomic)', () => {
        const state = mkdtempSync(join(shared, `hops-${which}-`));
        chmodSync(state, 0o777);
        try {
          const run = grade(which, ['--tests', two, '-j', '1', '--user', user], [PYTHON_BIN, '-S', join(HOSTILE, 'hops.py'), state, '30']);
          expect(existsSync(join(state, 'heartbeat')), 'the hopper ran').toBe(true);
          // The second test would print "alive" had the hopper lived on.
          expect(run.report!.results.map((r) => r.status), run.stderr).toEqual(['passed', 'passed']);
          expect(run.status).toBe(0);
          expect(processesOf(user)).toEqual([]);
        } finally {
          writeFileSync(join(state, 'stop'), '');
        }
      });

      it('--user: a fork bomb that leaves its group ends with its test, and the grader in bounded time', () => {
        // Within a process limit for the user's processes (prlimit --nproc;
        // root's grader is not bound by it), checked first: the bomb does
        // not start without one.
        const nproc = ['prlimit', '--nproc=100:100', '--'];
        const limits = grade(which, ['--tests', one, '--user', user], ['/bin/sh', '-c', 'grep "^Max processes" /proc/self/limits >&2; echo a'], nproc);
        expect(limits.report!.results[0].stderr).toMatch(/^Max processes +100 +100 /);
        const started = join(shared, `bomb-${which}`);
        writeFileSync(started, '');
        chmodSync(started, 0o666);
        const run = grade(which, ['--tests', two, '-j', '1', '--user', user], [PYTHON_BIN, '-S', join(HOSTILE, 'fork-bomb.py'), '20', started], nproc);
        expect(readFileSync(started, 'utf8').split('\n').filter(Boolean).length, `the bomb went off: ${run.report?.results[0].stderr}`).toBe(2);
        expect(run.status, run.stderr).toBe(0);
        expect(run.ms).toBeLessThan(60_000);
        expect(processesOf(user)).toEqual([]);
      });

      it('without --user, a process that hops from pid to pid is gone before the next test, and cannot keep the grader waiting', () => {
        const state = mkdtempSync(join(shared, `hops-plain-${which}-`));
        try {
          const run = grade(which, ['--tests', two, '-j', '1'], [PYTHON_BIN, '-S', join(HOSTILE, 'hops.py'), state, '40']);
          // One sweep of at most 1 s per test and 5 s at the end, plus the tests themselves.
          expect(run.ms, run.stderr).toBeLessThan(30_000);
          expect(existsSync(join(state, 'heartbeat')), 'the hopper ran').toBe(true);
          // The hopper's namespace dies with the first program (or, natively
          // without one, each hop becomes the child subreaper's child): the
          // second test would print "alive" had the hopper lived on.
          if (NAMESPACES || which === 'native') expect(run.report!.results.map((r) => r.status), run.stderr).toEqual(['passed', 'passed']);
        } finally {
          writeFileSync(join(state, 'stop'), '');
        }
      });

      it.skipIf(!NAMESPACES)('--verbose says how the processes are contained: a PID namespace (the program\'s parent is outside it: pid 0), or without one the fallback', () => {
        const program = ['/bin/sh', '-c', 'cat >/dev/null; echo "$PPID" >&2; echo a'];
        const fallback = which === 'native' ? 'found as the grader\'s orphaned children (a child subreaper)' : 'found in /proc by the mark in its environment';
        const on = grade(which, ['--tests', one, '--verbose'], program);
        const off = grade(which, ['--tests', one, '--verbose'], program, [], NO_NAMESPACE);
        expect(off.stderr).toBe(`slowstart grade: processes: no PID namespace can be made here: what a program leaves running is ${fallback} and killed${which === 'node' ? ' (a process that clears its environment escapes that: use --user)' : ''}\n`);
        expect(Number(off.report!.results[0].stderr)).toBeGreaterThan(1);
        expect(on.stderr).toBe('slowstart grade: processes: each program has a PID namespace of its own for what it starts, all of which is killed at once when the program ends\n');
        expect(on.report!.results[0].stderr).toBe('0\n');
        expect(on.report!.results[0].status).toBe('passed');
      });

      it('refuses a --user that has processes, or that another run is using, in either CLI', async () => {
        // A process of the user: not this run's, so the run would kill it, or be killed by it.
        const sleeper = spawn('setpriv', ['--reuid', user, '--regid', user, '--clear-groups', 'sleep', '60'], { stdio: 'ignore' });
        await expect.poll(() => processesOf(user).length, { timeout: 10_000 }).toBe(1);
        const busy = grade(which, ['--tests', one, '--user', user], ['true']);
        sleeper.kill('SIGKILL');
        expect(busy.status).toBe(2);
        expect(busy.stderr).toBe(
          `slowstart grade: --user: another run is using '${user}': it has 1 process running (every process of the user is killed after each round of tests: give each run a user of its own)\n`,
        );
        expect(busy.report).toMatchObject({ could_not_grade: expect.stringContaining('another run is using'), tests: 0 });
        await expect.poll(() => processesOf(user).length, { timeout: 10_000 }).toBe(0);

        // A run of the other CLI holds the user: this one is refused, the other grades untouched.
        const other: Cli = which === 'native' ? 'node' : 'native';
        const started = join(shared, `holding-${which}`);
        const holdReport = join(priv, `holding-${which}.json`);
        const holder: ChildProcess = spawn(
          CLI_COMMAND[other][0],
          [...CLI_COMMAND[other].slice(1), 'grade', '--tests', one, '--format', 'json', '--output', holdReport, '--user', user, '--', '/bin/sh', '-c', 'touch "$0"; i=0; while [ ! -e "$0.done" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done; echo a', started],
          { stdio: 'ignore', env: { ...process.env, ...EPOCH } },
        );
        const held = new Promise<number | null>((ok) => holder.on('exit', ok));
        await expect.poll(() => existsSync(started), { timeout: 30_000 }).toBe(true);
        // (The holder's program runs until this run is over: however slow this run is to start.)
        const refused = grade(which, ['--tests', one, '--user', user], ['true']);
        writeFileSync(`${started}.done`, '');
        expect(refused.status).toBe(2);
        expect(refused.stderr).toBe(
          `slowstart grade: --user: another run is using '${user}' (every process of the user is killed after each round of tests: give each run a user of its own)\n`,
        );
        expect(await held).toBe(0);
        expect((JSON.parse(readFileSync(holdReport, 'utf8')) as JsonReport).passed).toBe(1);
      });

      it.skipIf(!NAMESPACES && which === 'node')('without --user, leaves nothing alive over 50 runs of a daemon that leaves its session, clears its environment and hops from pid to pid', () => {
        // tests/grade/hostile/escapes.sh: the daemon runs when the program ends. The 50 runs are
        // 50 tests of one grading run (escapes-each.sh gives each its own state folder): each
        // program is contained by itself, as in a run of its own, and one CLI start instead of 50
        // (a Node CLI's start was most of this test's 50 s of CPU).
        const state = mkdtempSync(join(shared, `escapes-${which}-`));
        const runs = 50;
        try {
          const run = grade(which, ['--tests', fifty], ['/bin/sh', join(HOSTILE, 'escapes-each.sh'), state]);
          expect(run.status, run.stderr).toBe(0);
          expect(run.report?.passed).toBe(runs);
          for (let k = 0; k < runs; k++) {
            const own = join(state, String(k));
            expect(existsSync(join(own, 'current')), `run ${k + 1}: the daemon ran`).toBe(true);
            expect(aliveIn(join(own, 'first')) || aliveIn(join(own, 'current')), `run ${k + 1}`).toBe(false);
          }
          // Nothing hops on: each last pid stays the last.
          const last = Array.from({ length: runs }, (_, k) => readFileSync(join(state, String(k), 'current'), 'utf8'));
          spawnSync('sleep', ['0.2']);
          expect(Array.from({ length: runs }, (_, k) => readFileSync(join(state, String(k), 'current'), 'utf8'))).toEqual(last);
        } finally {
          for (let k = 0; k < runs; k++) if (existsSync(join(state, String(k)))) writeFileSync(join(state, String(k), 'stop'), '');
        }
      }, 600_000);

      it('negative control: with the namespace taken out, the Node CLI\'s mark in the environment loses the daemon (the native CLI\'s child subreaper still catches it)', () => {
        const state = mkdtempSync(join(shared, `escapes-off-${which}-`));
        try {
          const run = grade(which, ['--tests', one], ['/bin/sh', join(HOSTILE, 'escapes.sh'), state], [], NO_NAMESPACE);
          expect(run.status, run.stderr).toBe(0);
          // The daemon's pid now ('' while a hop rewrites the file).
          const current = () => readFileSync(join(state, 'current'), 'utf8').trim();
          const before = current();
          // A hop is a fork and two execs: on a loaded machine one can take
          // longer than a moment, so a surviving daemon is given 5 s to show
          // one; a caught one must stay still for 0.3 s.
          const until = performance.now() + (which === 'node' ? 5000 : 300);
          let hopsOn = false;
          while (!hopsOn && performance.now() < until) {
            spawnSync('sleep', ['0.05']);
            const now = current();
            hopsOn = now !== '' && now !== before;
          }
          expect(hopsOn, 'the daemon hops on after the run').toBe(which === 'node');
        } finally {
          writeFileSync(join(state, 'stop'), '');
        }
      });
    });
  }

  it('the Node CLI run by a user other than root: a user namespace with the PID namespace (where the kernel allows one), no capability in it, nothing left', () => {
    // The user the grader runs as: the isolation user, as a TA's own account would be.
    const asUser = ['setpriv', '--reuid', user, '--regid', user, '--clear-groups', '--'];
    const uid = spawnSync('id', ['-u', user]).stdout.toString().trim();
    const gid = spawnSync('id', ['-g', user]).stdout.toString().trim();
    const allowed = spawnSync(asUser[0], [...asUser.slice(1), 'unshare', '--user', `--map-user=${uid}`, `--map-group=${gid}`, '--pid', '--fork', '/bin/true']).status === 0;
    const runs = spawnSync(asUser[0], [...asUser.slice(1), process.execPath, '-e', '0']).status === 0;
    if (!allowed || !runs) return console.warn(`grade-isolation: the unprivileged Node CLI's namespace is not tried here (${!runs ? 'this Node is closed to other users' : 'no unprivileged user namespace'})`);
    const state = mkdtempSync(join(shared, 'escapes-unprivileged-'));
    chmodSync(state, 0o777);
    const report = join(state, 'report.json');
    try {
      // The program says its capabilities first, then is escapes.sh.
      const program = ['/bin/sh', '-c', 'grep "^CapEff:" /proc/self/status >&2; exec "$0" "$@"', '/bin/sh', join(HOSTILE, 'escapes.sh'), state];
      const run = spawnSync(asUser[0], [...asUser.slice(1), ...CLI_COMMAND.node, 'grade', '--tests', one, '--verbose', '--format', 'json', '--output', report, '--', ...program], { env: { ...process.env, ...EPOCH } });
      expect(run.stderr.toString()).toBe('slowstart grade: processes: each program has a PID namespace of its own for what it starts, all of which is killed at once when the program ends\n');
      expect(run.status).toBe(0);
      const result = (JSON.parse(readFileSync(report, 'utf8')) as JsonReport).results[0];
      expect(result.stderr).toBe('CapEff:\t0000000000000000\n');
      expect(existsSync(join(state, 'current')), 'the daemon ran').toBe(true);
      const last = readFileSync(join(state, 'current'), 'utf8');
      spawnSync('sleep', ['0.3']);
      expect(readFileSync(join(state, 'current'), 'utf8'), 'nothing hops on').toBe(last);
      expect(aliveIn(join(state, 'first')) || aliveIn(join(state, 'current'))).toBe(false);
    } finally {
      writeFileSync(join(state, 'stop'), '');
    }
  });
});
