// `slowstart grade --output FILE` (docs/GRADING.md): a report is the
// grader's or one that says why there is none, never an older one and never
// half of one, in both CLIs: a run that cannot grade (exit 2) replaces a
// stale all-pass report with a "could not grade" one (the GitLab job of
// GRADING.md, a committed grade.xml); the report is written to a new file
// beside the target and renamed into place; its place is taken before the
// first test; a FIFO, a device, a folder or a link there is refused at once
// (the Node CLI used to block on a FIFO for ever, deaf to SIGTERM); a
// stopping signal leaves a report that says so; and the Node CLI ends on
// SIGTERM whenever it comes.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkJunit, CLI_COMMAND, CLIS, type Cli, EPOCH, type JsonReport, SLOW } from '../support/grade-cli.js';

let base: string;
let tests: string;

beforeAll(() => {
  base = mkdtempSync(join(tmpdir(), 'slowstart-grade-output-'));
  tests = join(base, 'tests');
  mkdirSync(tests);
  for (const name of ['a', 'b']) writeFileSync(join(tests, `${name}.txt`), 'POOL a=1\nPICK\n');
});
afterAll(() => rmSync(base, { recursive: true, force: true }));

function grade(which: Cli, args: string[]) {
  const [cmd, ...pre] = CLI_COMMAND[which];
  const t0 = performance.now();
  const run = spawnSync(cmd, [...pre, 'grade', ...args], { env: { ...process.env, ...EPOCH }, timeout: 60_000 });
  return { status: run.status, signal: run.signal, stderr: run.stderr.toString(), stdout: run.stdout.toString(), ms: performance.now() - t0 };
}

const STALE = '<?xml version="1.0" encoding="UTF-8"?>\n<testsuites><testsuite name="slowstart grade" tests="38" failures="0" errors="0"/></testsuites>\n';

describe('slowstart grade --output', { timeout: SLOW }, () => {
  it('replaces a stale report when grading cannot run: a "could not grade" report, the same from both CLIs', () => {
    const reports: Record<string, string> = {};
    for (const which of CLIS) {
      // A program that exits 2 in every test, printing nothing: it cannot run (exit 2).
      const xml = join(base, `stale-${which}.xml`);
      writeFileSync(xml, STALE);
      const run = grade(which, ['--tests', tests, '--format', 'junit', '--output', xml, '--', '/bin/sh', '-c', 'echo "no such module" >&2; exit 2']);
      expect(run.status, which).toBe(2);
      expect(run.stderr).toBe("slowstart grade: cannot run '/bin/sh': every test exited with status 2 and printed nothing, saying: no such module\n");
      reports[which] = readFileSync(xml, 'utf8');
      const [grading] = checkJunit(Buffer.from(reports[which]), { tests: 1, failures: 0, errors: 1 });
      expect(grading.attrib.name).toBe('grading');
      expect(grading.children[0].attrib).toEqual({
        type: 'could-not-grade',
        message: "Could not grade: cannot run '/bin/sh': every test exited with status 2 and printed nothing, saying: no such module",
      });
    }
    expect(reports.node).toBe(reports.native);
    // Arguments it cannot read still leave the report where, and in the form, they asked for.
    for (const which of CLIS) {
      const json = join(base, `bad-args-${which}.json`);
      writeFileSync(json, '{"tests": 38, "passed": 38}\n');
      const run = grade(which, ['--output', json, '--format', 'json', '--timeout', 'soon', '--', 'true']);
      expect(run.status).toBe(2);
      expect(JSON.parse(readFileSync(json, 'utf8'))).toMatchObject({
        could_not_grade: "--timeout takes seconds above 0 and at most 86400, with up to 3 decimals, got 'soon'",
        tests: 0,
        results: [],
      });
    }
  });

  it('refuses a FIFO, a device, a folder or a symbolic link there at once, without opening it', () => {
    const fifo = join(base, 'fifo');
    spawnSync('mkfifo', [fifo]);
    const folder = join(base, 'folder');
    mkdirSync(folder);
    const link = join(base, 'link');
    writeFileSync(join(base, 'elsewhere'), 'untouched');
    symlinkSync(join(base, 'elsewhere'), link);
    for (const which of CLIS) {
      for (const [target, why] of [
        [fifo, 'not a regular file'],
        ['/dev/null', 'not a regular file'],
        [folder, 'not a regular file'],
        [link, 'a symbolic link (a report is never written through one)'],
      ]) {
        const run = grade(which, ['--tests', tests, '--output', target, '--', 'true']);
        expect(run.status, `${which} ${target}`).toBe(2);
        expect(run.stderr).toBe(`slowstart grade: cannot write the report to '${target}': ${why}\n`);
        expect(run.ms, `${which} ${target}: no wait`).toBeLessThan(30_000);
      }
    }
    expect(readFileSync(join(base, 'elsewhere'), 'utf8')).toBe('untouched');
  });

  it('writes a new file beside the target and renames it into place: an older copy keeps its bytes, no temporary file stays', () => {
    for (const which of CLIS) {
      const dir = join(base, `rename-${which}`);
      mkdirSync(dir);
      const report = join(dir, 'report.json');
      writeFileSync(report, 'the old report\n');
      linkSync(report, join(dir, 'old-copy')); // the same file, by another name
      const run = grade(which, ['--tests', tests, '--format', 'json', '--output', report, '--', '/bin/sh', '-c', 'echo a']);
      expect(run.status, run.stderr).toBe(0);
      expect((JSON.parse(readFileSync(report, 'utf8')) as JsonReport).passed).toBe(2);
      expect(readFileSync(join(dir, 'old-copy'), 'utf8')).toBe('the old report\n');
      expect(statSync(report).ino).not.toBe(statSync(join(dir, 'old-copy')).ino);
      expect(readdirSync(dir).sort()).toEqual(['old-copy', 'report.json']);
      expect(statSync(report).mode & 0o777).toBe(0o644);
    }
  });

  it.skipIf(process.getuid?.() !== 0)('removes an older report it cannot replace (a full disk): the grader\'s or nothing', () => {
    // A small tmpfs, full: the report's new file cannot be written.
    const full = join(base, 'full');
    mkdirSync(full);
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'slowstart-test', full]).status !== 0) return; // no mount here
    try {
      for (const which of CLIS) {
        const xml = join(full, `grade-${which}.xml`);
        writeFileSync(xml, STALE);
        spawnSync('dd', ['if=/dev/zero', `of=${join(full, 'filler')}`, 'bs=4k'], { stdio: 'ignore' });
        const run = grade(which, ['--tests', tests, '--format', 'junit', '--output', xml, '--', '/bin/sh', '-c', 'echo a']);
        expect(run.status, which).toBe(2);
        expect(run.stderr).toContain(`slowstart grade: cannot write the report to '${xml}': No space left on device\n`);
        expect(existsSync(xml), `${which}: the all-pass report of an earlier run is gone`).toBe(false);
        expect(readdirSync(full).sort(), which).toEqual(['filler']); // no temporary file left either
        rmSync(join(full, 'filler'));
      }
    } finally {
      spawnSync('umount', [full]);
    }
  });

  it('takes the report\'s place before the first test, and says so when a signal stops it', async () => {
    for (const which of CLIS) {
      const report = join(base, `reserved-${which}.json`);
      writeFileSync(report, '{"passed": 38}\n');
      const started = join(base, `started-${which}`);
      const [cmd, ...pre] = CLI_COMMAND[which];
      const child = spawn(cmd, [...pre, 'grade', '--tests', tests, '-j', '1', '--format', 'json', '--output', report, '--', '/bin/sh', '-c', 'touch "$0"; sleep 30', started], {
        stdio: 'ignore',
        env: { ...process.env, ...EPOCH },
      });
      const ended = new Promise<NodeJS.Signals | null>((ok) => child.on('exit', (_code, signal) => ok(signal)));
      await expect.poll(() => existsSync(started), { timeout: 30_000 }).toBe(true);
      expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({
        could_not_grade: 'grading started but did not finish (the grader was stopped before it wrote its report)',
      });
      child.kill('SIGTERM');
      expect(await ended, which).toBe('SIGTERM');
      expect(JSON.parse(readFileSync(report, 'utf8'))).toMatchObject({ could_not_grade: 'grading was interrupted by SIGTERM', tests: 0 });
    }
  });

  it('the Node CLI ends on SIGTERM and SIGINT wherever they come', async () => {
    const report = join(base, 'anytime.json');
    for (const sig of ['SIGTERM', 'SIGINT'] as const) {
      for (const after of [0, 30, 100, 300, 700, 1500]) {
        const [cmd, ...pre] = CLI_COMMAND.node;
        const child = spawn(cmd, [...pre, 'grade', '--tests', tests, '--format', 'json', '--output', report, '--', '/bin/sh', '-c', 'sleep 0.2; echo a'], { stdio: 'ignore' });
        const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
        await new Promise((ok) => setTimeout(ok, after));
        const t0 = performance.now();
        child.kill(sig);
        const end = await ended;
        // By the signal (or done already, when the run was over first).
        expect(end.signal === sig || end.code === 0, `${sig} after ${after} ms: ${JSON.stringify(end)}`).toBe(true);
        expect(performance.now() - t0, `${sig} after ${after} ms`).toBeLessThan(10_000);
      }
    }
  });
});
