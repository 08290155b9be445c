// The grader's threat model (docs/SECURITY.md, "Grading hostile programs"):
// a submission that runs the reference engine, one that reads the author's
// .out files, one that leaves a daemon to rewrite the report once the
// grader is gone, one that forks 200 children. Through both CLIs, graded as
// the documented set-ups grade (--user, the engine and the tests in a
// folder only root can open, --output): each is a failure, no process of
// the program is left, and the report is the grader's. Without --user a
// negative control shows the first attack working (so the test sees one),
// and the process defences (each program's PID namespace where one can be
// made; else a child subreaper natively, /proc and the run's mark in Node)
// still leave nothing running.
import { spawnSync } from 'node:child_process';
import { chmodSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AS_ROOT, type Cli, EPOCH, NATIVE, PYTHON_BIN, ROOT, type JsonReport, testUser, USER_PREFIX } from '../support/grade-cli.js';

const HOSTILE = join(ROOT, 'tests/grade/hostile');
const root = AS_ROOT;
if (!root) console.warn(`grade-security: skipped: --user needs the tests to run as root (they create and use the user ${USER_PREFIX}-learner)`);
const USER = root ? testUser('learner') : `${USER_PREFIX}-learner`;

/** pids in a file the programs wrote (one a line) that are still alive. */
function alive(pidFile: string): number[] {
  if (!existsSync(pidFile)) return [];
  return readFileSync(pidFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map(Number)
    .filter((pid) => {
      try {
        const state = readFileSync(`/proc/${pid}/stat`, 'latin1');
        return !/\) Z /.test(state); // a zombie is dead (its parent has not collected it)
      } catch {
        return false;
      }
    });
}

/** Processes of the learner's user that are alive (a zombie is dead: its parent, init, has not collected it yet), with their state. */
const userProcesses = () =>
  spawnSync('pgrep', ['-u', USER])
    .stdout.toString()
    .split('\n')
    .filter(Boolean)
    .map((pid) => {
      try {
        return `${pid} ${readFileSync(`/proc/${pid}/stat`, 'latin1').split(') ')[1]?.slice(0, 1)}`;
      } catch {
        return `${pid} gone`;
      }
    })
    .filter((p) => !/ (Z|gone)$/.test(p))
    .join('\n');

describe.skipIf(!root)('slowstart grade against hostile programs (docs/SECURITY.md)', { timeout: 120_000 }, () => {
  let base: string;
  let priv: string; // root's alone (0700): the engines, the tests, the reports
  let shared: string; // where the programs may write their pids
  let tests: string;
  const grader: Record<Cli, string[]> = { native: [], node: [] };

  beforeAll(() => {
    base = mkdtempSync(join(tmpdir(), 'slowstart-security-'));
    chmodSync(base, 0o755);
    priv = join(base, 'private');
    mkdirSync(priv, { mode: 0o700 });
    shared = join(base, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    // The engines, as docs/gradescope/setup.sh installs them: closed to the learner.
    cpSync(NATIVE, join(priv, 'slowstart'));
    cpSync(join(ROOT, 'dist/api'), join(priv, 'dist/api'), { recursive: true });
    cpSync(join(ROOT, 'dist/wasm'), join(priv, 'dist/wasm'), { recursive: true });
    writeFileSync(join(priv, 'package.json'), '{"type": "module"}\n');
    grader.native = [join(priv, 'slowstart')];
    grader.node = [process.execPath, join(priv, 'dist/api/cli.js')];
    // Two tests with the author's answers.
    tests = join(priv, 'tests');
    mkdirSync(tests);
    writeFileSync(join(tests, 'one.txt'), 'POOL a=1 b=1\nPICK\nPICK\n');
    writeFileSync(join(tests, 'one.out'), 'a\nb\n');
    writeFileSync(join(tests, 'two.txt'), 'POOL a=3\nWEIGHTS\n');
    writeFileSync(join(tests, 'two.out'), 'a=3\n');
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  function grade(which: Cli, args: string[], program: string[]) {
    const [cmd, ...pre] = grader[which];
    return spawnSync(cmd, [...pre, 'grade', '--tests', tests, '--timeout', '20', '-j', '2', ...args, '--', PYTHON_BIN, '-S', ...program], {
      cwd: base,
      env: { ...process.env, ...EPOCH },
    });
  }

  /** Graded as a failure of both tests, in an intact report that the grader wrote. */
  function failedBoth(report: string, status: number | null, which: Cli) {
    expect(status, which).toBe(1);
    const r = JSON.parse(readFileSync(report, 'utf8')) as JsonReport;
    expect([r.tests, r.passed], which).toEqual([2, 0]);
  }

  for (const which of ['native', 'node'] as Cli[]) {
    it(`${which}: a program that runs the engine gets no answer from it`, () => {
      const report = join(priv, `engine-${which}.json`);
      const run = grade(which, ['--user', USER, '--format', 'json', '--output', report], [join(HOSTILE, 'runs-engine.py'), ...grader[which]]);
      failedBoth(report, run.status, which);
      expect(readFileSync(report, 'utf8')).toMatch(/Permission denied|EACCES|Cannot find module/);
      expect(userProcesses()).toBe('');
    });

    it(`${which}: a program that reads the .out files cannot open them`, () => {
      const report = join(priv, `out-${which}.json`);
      const run = grade(which, ['--user', USER, '--format', 'json', '--output', report], [join(HOSTILE, 'reads-out.py'), tests]);
      failedBoth(report, run.status, which);
      expect(readFileSync(report, 'utf8')).toMatch(/cannot read the answers: \[Errno 13\] Permission denied/);
    });

    it(`${which}: a daemon that waits to rewrite the report is killed with its test`, () => {
      const report = join(priv, `daemon-${which}.json`);
      const pids = join(shared, `daemon-${which}.pids`);
      const run = grade(which, ['--user', USER, '--format', 'json', '--output', report], [join(HOSTILE, 'rewrites-report.py'), report, pids]);
      failedBoth(report, run.status, which);
      expect(readFileSync(pids, 'utf8').trim().length).toBeGreaterThan(0); // it did leave a daemon (one may be killed before it says so)
      expect(alive(pids)).toEqual([]);
      expect(userProcesses()).toBe('');
      spawnSync('sleep', ['0.5']);
      failedBoth(report, 1, which); // still the grader's
    });

    it(`${which}: 200 children per test, half in sessions of their own, are all killed`, () => {
      const report = join(priv, `forks-${which}.json`);
      const pids = join(shared, `forks-${which}.pids`);
      const run = grade(which, ['--user', USER, '--format', 'json', '--output', report], [join(HOSTILE, 'forks-200.py'), pids]);
      failedBoth(report, run.status, which);
      expect(alive(pids)).toEqual([]);
      expect(userProcesses()).toBe('');
    });

    it(`${which}: without --user, a daemon and 200 children are killed all the same`, () => {
      // Each program's PID namespace takes them all; where none can be
      // made, the native grader is a child subreaper, and Node finds them by
      // the run's mark in their environment (a program that execs with a
      // clean environment escapes that: use --user; grade-isolation.test.ts).
      for (const program of ['rewrites-report.py', 'forks-200.py']) {
        const pids = join(shared, `plain-${which}-${program}.pids`);
        const args = program === 'forks-200.py' ? [pids] : [join(shared, 'plain-report'), pids];
        const run = grade(which, ['--format', 'json'], [join(HOSTILE, program), ...args]);
        expect(run.status, `${which} ${program}`).toBe(1);
        expect(readFileSync(pids, 'utf8').trim().length).toBeGreaterThan(0);
        expect(alive(pids), `${which} ${program}`).toEqual([]);
      }
    });
  }

  it('--user: a program named without a folder is the one the user finds on PATH, in both CLIs', () => {
    // A folder on PATH closed to the user comes first (as a pyenv shim under
    // root's 0700 home does on many machines): the user cannot run what is
    // there, so the name is what the user finds next, as execvp finds it.
    // (util-linux's setpriv looks names up with root's capabilities; the
    // Node CLI once picked the closed file and failed with status 126.)
    const closed = join(priv, 'bin');
    const open = join(shared, 'bin');
    for (const [dir, says] of [[closed, 'b'], [open, 'a']]) {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'pick-a'), `#!/bin/sh\nwhile read -r line; do case "$line" in PICK*) echo ${says};; esac; done\n`, { mode: 0o755 });
    }
    chmodSync(open, 0o755);
    const one = join(shared, 'path-tests');
    mkdirSync(one, { recursive: true });
    chmodSync(one, 0o755);
    writeFileSync(join(one, 'one.txt'), 'POOL a=1\nPICK\n');
    writeFileSync(join(one, 'one.out'), 'a\n');
    for (const which of ['native', 'node'] as Cli[]) {
      const [cmd, ...pre] = grader[which];
      const run = spawnSync(cmd, [...pre, 'grade', '--tests', one, '--user', USER, '--', 'pick-a'], {
        cwd: base,
        env: { ...process.env, ...EPOCH, PATH: `${closed}:${open}:${process.env.PATH}` },
      });
      expect([run.status, run.stdout.toString() + run.stderr.toString()], which).toEqual([0, expect.stringContaining('1 test, 1 passed, 0 failed.')]);
    }
  });

  it('negative control: without --user and with the engine open, the first attack passes', () => {
    const run = grade('native', ['--format', 'json'], [join(HOSTILE, 'runs-engine.py'), NATIVE]);
    expect(run.status, run.stderr.toString()).toBe(0);
  });
});
