// `slowstart grade` and `slowstart tests` through both CLIs (the native
// build/slowstart and the Node dist/api/cli.js), on learner programs in
// Python and JavaScript (tests/grade/learners): a correct one and a failing
// one on the whole suite (both CLIs must print the same bytes:
// SOURCE_DATE_EPOCH makes the reports reproducible), and the misbehaving
// programs a grader meets, on a test or two each: timeouts, crashes, endless
// output, leftover children, a program that does not exist. Every format is
// parsed and checked (JSON, Gradescope's results.json, JUnit XML through
// Python's XML parser): the formats of a whole-suite run come from the same
// GradeRun in-process (gradeInProcess, on the program's outcomes from one
// batch process), so each process runs once per CLI, not once per format.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  both,
  checkJunit,
  type Cli,
  cli,
  EPOCH,
  type Gradescope,
  gradeInProcess,
  outcomes,
  JAVASCRIPT,
  JOBS,
  json,
  LANGUAGES,
  N,
  NATIVE,
  NODE_CLI,
  parseXml,
  PATIENT,
  PYTHON,
  PYTHON_BIN,
  SLOW,
  SUITE,
} from '../support/grade-cli.js';

let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'slowstart-grade-test-'));
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

describe('slowstart grade: a correct program', { timeout: SLOW }, () => {
  for (const [language, program] of Object.entries(LANGUAGES)) {
    it(`passes every built-in test (${language}), in every format${language === 'Python' ? ', with the same bytes from both CLIs' : ''}`, async () => {
      // Real processes through both CLIs for one language; the other's
      // outcomes go through the same GradeRun in-process.
      const report =
        language === 'Python'
          ? json(await both(['grade', ...PATIENT, '--format', 'json', '-j', JOBS, '--', ...program]))
          : (JSON.parse(gradeInProcess('json', outcomes(program), program).bytes.toString()) as ReturnType<typeof json>);
      expect(report).toMatchObject({ format: 'slowstart-grade', version: 1, tests: N, passed: N, failed: 0, problems: 0, looks_like: [] });
      expect(report.command).toEqual(program);
      expect(report.results.map((r) => [r.id, r.status, r.source])).toEqual(SUITE.map((t) => [t.id, 'passed', 'builtin']));
      // The learner exits 1 exactly where the engine does (a rejected line).
      for (const r of report.results) expect(r.exit_code).toBe(r.expected_exit_code);

      // The other formats of the same program's outcomes.
      const runs = outcomes(program);
      const text = gradeInProcess('text', runs);
      expect(text.status).toBe(0);
      const lines = text.bytes.toString().split('\n');
      for (const t of SUITE) expect(lines).toContain(`PASS ${t.id}: ${t.title}`);
      expect(lines.at(-2)).toBe(`${N} tests, ${N} passed, 0 failed.`);

      const gradescope = JSON.parse(gradeInProcess('gradescope', runs).bytes.toString()) as Gradescope;
      expect(gradescope.tests.length).toBe(N);
      expect(gradescope.tests.every((t) => t.score === 1 && t.max_score === 1 && t.status === 'passed')).toBe(true);
      expect(gradescope.tests.map((t) => t.number)).toEqual(SUITE.map((_, i) => String(i + 1)));
      expect(gradescope).toMatchObject({ execution_time: 0, output_format: 'text', test_output_format: 'text', test_name_format: 'text' });
      expect(gradescope.output).toContain(`${N} tests, ${N} passed, 0 failed.`);

      const cases = checkJunit(gradeInProcess('junit', runs).bytes, { tests: N, failures: 0, errors: 0 });
      expect(cases.map((c) => c.attrib.name)).toEqual(SUITE.map((t) => `${t.id}: ${t.title}`));
    });
  }
});

describe('slowstart grade: a failing program', { timeout: SLOW }, () => {
  it('reports a failing program in every format: the first difference, its script line, the mistake', async () => {
    const program = [...PYTHON, '--mistake', 'ties-to-last'];
    const report = json(await both(['grade', ...PATIENT, '--format', 'json', '-j', JOBS, '--', ...program]));
    const ties = report.results.find((r) => r.id === 'ties-go-first')!;
    // POOL z=1 y=1 x=1 then PICK x3: z y x; ties to the last: x first.
    expect(ties).toMatchObject({
      status: 'failed',
      summary: 'output line 1 (printed by script line 2: PICK): expected "z", got "x"',
      difference: { output_line: 1, script_line: 2, script: 'PICK', expected: 'z', actual: 'x', newline_at_end: false },
      looks_like: ['ties-to-last'],
    });
    const failed = report.results.filter((r) => !r.passed).map((r) => r.id);

    const runs = outcomes(PYTHON, 'ties-to-last');
    const text = gradeInProcess('text', runs).bytes.toString();
    expect(text).toContain(
      'FAIL ties-go-first: On equal scores the backend earliest in the pool wins\n' +
        '       output line 1 (printed by script line 2: PICK)\n' +
        '       expected: z\n' +
        '       got:      x\n' +
        '       looks like: ties-to-last\n',
    );
    expect(text).toContain('Looks like: Ties go to the last backend instead of the first. [ties-to-last]');
    expect(text).toContain(`${N} tests, ${N - failed.length} passed, ${failed.length} failed.\n`);

    const gradescope = JSON.parse(gradeInProcess('gradescope', runs).bytes.toString()) as Gradescope;
    const g = gradescope.tests.find((t) => t.name.endsWith('(ties-go-first)'))!;
    expect(g).toMatchObject({ score: 0, max_score: 1, status: 'failed', tags: ['ties-to-last'] });
    expect(g.output).toContain('expected: z\ngot:      x\n');
    expect(gradescope.tests.filter((t) => t.status === 'failed').length).toBe(failed.length);
    expect(gradescope.output).toContain('Looks like: Ties go to the last backend');

    const junit = gradeInProcess('junit', runs).bytes;
    const cases = checkJunit(junit, { tests: N, failures: failed.length, errors: 0 });
    const failure = cases.find((c) => c.attrib.name.startsWith('ties-go-first:'))!.children[0];
    expect(failure.attrib).toEqual({ type: 'wrong-output', message: ties.summary });
    expect(failure.text).toContain('looks like: ties-to-last');
    const properties = parseXml(junit).children[0].children[0].children;
    expect(properties.map((p) => p.attrib)).toContainEqual({ name: 'looks-like', value: 'ties-to-last' });
  });
});

describe('slowstart grade: programs that misbehave', { timeout: SLOW }, () => {
  /** A directory of a few tests, so that slow cases stay short. */
  async function dir(name: string, scripts: Record<string, string>): Promise<string> {
    const d = join(scratch, name);
    await mkdir(d, { recursive: true });
    for (const [file, text] of Object.entries(scripts)) await writeFile(join(d, file), text);
    return d;
  }

  it('stops a program that hangs at the time limit, killing its process group', async () => {
    const tests = await dir('hang', { 'a.txt': 'POOL a=1\nPICK\nPICK\n', 'b.txt': 'POOL b=1\nWEIGHTS\n' });
    for (const [program, which] of [[PYTHON, 'native'], [JAVASCRIPT, 'node'], [PYTHON, 'node'], [JAVASCRIPT, 'native']] as const) {
      // How far it got before the kill depends on the machine: the verdicts, not the bytes.
      const run = await cli(which, ['grade', ...PATIENT, '--tests', tests, '--timeout', '0.5', '--format', 'json', '--', ...program, '--misbehave', 'hang'], EPOCH);
      expect(run.code).toBe(1);
      const report = json(run);
      expect(report.results.map((r) => [r.id, r.status, r.summary])).toEqual([
        ['a', 'timed-out', 'did not finish within 0.5 s: its process group was killed'],
        ['b', 'timed-out', 'did not finish within 0.5 s: its process group was killed'],
      ]);
      expect(report.problems).toBe(2);
      // Problems come first, and name no mistake.
      expect(report.looks_like).toEqual([]);
    }
    const text = (await cli('native', ['grade', ...PATIENT, '--tests', tests, '--timeout', '0.5', '--', ...PYTHON, '--misbehave', 'hang'])).stdout.toString();
    expect(text).toContain(
      'Fix these first: in 2 tests the program was stopped, ended in an error or\n' +
        '  printed a weight that is not a whole number, so those tests name no mistake.\n' +
        '  a: did not finish within 0.5 s: its process group was killed\n',
    );
  });

  it('kills the whole process group at the time limit: a child the program started goes too', async () => {
    const tests = await dir('hang-group', { 'a.txt': 'POOL a=1\nPICK\n' });
    for (const which of ['native', 'node'] as const) {
      // A shell that starts a long sleep, writes its pid down, and waits for it. The pid
      // as the machine sees it: the shell's own from /proc/self (the machine's /proc,
      // whatever PID namespace it is in), then its child's from that pid's children.
      const pidFile = join(scratch, `sleeper-${which}.pid`);
      const program = ['sh', '-c', 'sleep 300 & read -r me _ </proc/self/stat; read -r kid _ <"/proc/$me/task/$me/children"; echo "$kid" > "$0"; wait', pidFile];
      const run = await cli(which, ['grade', ...PATIENT, '--tests', tests, '--timeout', '1', '--format', 'json', '--', ...program], EPOCH);
      expect(json(run).results[0].status, which).toBe('timed-out');
      const pid = Number(await readFile(pidFile, 'utf8'));
      expect(pid).toBeGreaterThan(1);
      // Gone, or a zombie waiting for init to reap it: killed with its group, not left sleeping.
      const state = () => {
        try {
          return spawnSync('ps', ['-o', 'stat=', '-p', String(pid)]).stdout.toString().trim();
        } catch {
          return '';
        }
      };
      await expect.poll(() => state() === '' || state().startsWith('Z'), { timeout: 10_000 }).toBe(true);
    }
  });

  it('does not wait for a child the program leaves behind holding its stdout', async () => {
    const tests = await dir('hang-child', { 'a.txt': 'POOL a=1\nPICK\n', 'b.txt': 'POOL b=2\nWEIGHTS\n' });
    for (const program of [PYTHON, JAVASCRIPT]) {
      const run = await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '-j', JOBS, '--', ...program, '--misbehave', 'hang-child']);
      const report = json(run);
      expect(report.passed).toBe(2);
      // Each test's child sleeps an hour holding stdout: a grader that waited for
      // it would never get here (the test's own limit fails it), so reaching this
      // line with every test passed is the proof that it kills the group instead.
    }
    // And none of those children is left sleeping (pgrep exits 1 when none matches).
    await expect.poll(() => spawnSync('pgrep', ['-f', '^sleep 3600$']).status, { timeout: 10_000 }).toBe(1);
  });

  it('reports a crash, an exception and an unexpected exit status, with the start of stderr', async () => {
    const tests = await dir('crash', { 'ok.txt': 'POOL a=2 b=1\nPICK\nPICK\n' });
    const crash = json(await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '--', ...PYTHON, '--misbehave', 'crash'])).results[0];
    expect(crash).toMatchObject({ status: 'crashed', summary: 'killed by SIGSEGV', signal: 'SIGSEGV', exit_code: null });
    // It printed its first line before dying: the report says where its output stopped.
    expect(crash.difference).toMatchObject({ output_line: 2, expected: 'b', actual: null }); // a, then b (2/1)
    const jsCrash = json(await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '--', ...JAVASCRIPT, '--misbehave', 'crash'])).results[0];
    expect(jsCrash).toMatchObject({ status: 'crashed', summary: 'killed by SIGSEGV' });

    const thrown = json(await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '--', ...PYTHON, '--misbehave', 'throw'])).results[0];
    expect(thrown).toMatchObject({ status: 'crashed', summary: 'exited with status 1 where the engine exits 0', exit_code: 1 });
    expect(thrown.stderr).toContain('RuntimeError: something went wrong in my balancer');
    const text = (await both(['grade', ...PATIENT, '--tests', tests, '--', ...PYTHON, '--misbehave', 'throw'])).stdout.toString();
    expect(text).toMatch(/stderr:\n {7}\| Traceback \(most recent call last\):\n/);

    const exit3 = json(await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '--', ...JAVASCRIPT, '--misbehave', 'exit-3'])).results[0];
    expect(exit3).toMatchObject({ status: 'crashed', summary: 'exited with status 3 where the engine exits 0', difference: null });
    const junit = (await both(['grade', ...PATIENT, '--tests', tests, '--format', 'junit', '--', ...JAVASCRIPT, '--misbehave', 'exit-3'])).stdout;
    const [error] = checkJunit(junit, { tests: 1, failures: 0, errors: 1 })[0].children;
    expect(error).toMatchObject({ tag: 'error', attrib: { type: 'crashed', message: 'exited with status 3 where the engine exits 0' } });
  });

  it('puts a weight that is not a whole number first, as a problem, and names no mistake for it', async () => {
    const round = SUITE.find((t) => t.id === 'round-down')!;
    const ramp = SUITE.find((t) => t.id === 'ramp-table')!;
    const tests = await dir('float', { 'round-down.txt': round.script, 'ramp-table.txt': ramp.script, 'ties.txt': 'POOL a=1 b=1\nPICK\nPICK\n' });
    for (const program of [PYTHON, JAVASCRIPT]) {
      const args = ['grade', ...PATIENT, '--tests', tests, '-j', JOBS, '--', ...program, '--misbehave', 'float-weights'];
      const report = json(await both([...args.slice(0, 1), '--format', 'json', ...args.slice(1)]));
      const r = report.results.find((x) => x.id === 'round-down')!;
      // ADD web=10 30, NOW 1, WEIGHTS: 10 × 1 / 30, which the engine rounds down to 0.
      expect(r).toMatchObject({
        status: 'failed',
        problem: 'printed the weight "web=0.3333333333333333" (output line 1): a weight is a whole number',
        difference: { output_line: 1, script_line: 3, expected: 'web=0', actual: 'web=0.3333333333333333' },
        looks_like: [],
      });
      const problems = report.results.filter((x) => x.problem !== null);
      expect(problems.every((x) => x.looks_like.length === 0 && /a weight is a whole number$/.test(x.problem!))).toBe(true);
      expect(report.problems).toBe(problems.length);
      // The text report says it first, before any mistake.
      const text = (await cli('native', args, EPOCH)).stdout.toString();
      const first = text.indexOf('\nFix these first: in ');
      expect(first).toBeGreaterThan(0);
      expect(text).toContain('\n  round-down: printed the weight "web=0.3333333333333333" (output line 1): a weight is a whole number\n');
      const looks = text.indexOf('\nLooks like: ');
      if (looks >= 0) expect(looks).toBeGreaterThan(first);
    }
  });

  it('stops a program that prints without end at the output cap', async () => {
    const tests = await dir('flood', { 'a.txt': 'POOL a=1\nPICK\n' });
    for (const program of [PYTHON, JAVASCRIPT]) {
      const run = await both(['grade', ...PATIENT, '--tests', tests, '--max-output', '64K', '--format', 'json', '--', ...program, '--misbehave', 'flood']);
      const r = json(run).results[0];
      expect(r).toMatchObject({ status: 'output-limit', summary: 'printed more than 64 KiB on stdout: its process group was killed', stdout_bytes: 65536 });
    }
  });

  it('keeps the start of a long stderr and passes a program whose stdout is right', async () => {
    const tests = await dir('stderr', { 'a.txt': 'POOL a=1\nPICK\n' });
    const r = json(await both(['grade', ...PATIENT, '--tests', tests, '--format', 'json', '--', ...PYTHON, '--misbehave', 'stderr'])).results[0];
    expect(r.status).toBe('passed');
    expect(r.stderr.startsWith(`debug: ${'y'.repeat(200)}\nnoise\n`)).toBe(true);
    expect(r.stderr_truncated).toBe(true);
    expect(r.stderr.endsWith('…')).toBe(true);
  });

  it('says in one line that a program cannot be started, and exits 2', async () => {
    const missing = await both(['grade', ...PATIENT, '--', join(scratch, 'no-such-program'), 'x']);
    expect(missing).toMatchObject({ code: 2, stderr: `slowstart grade: cannot run '${join(scratch, 'no-such-program')}': No such file or directory\n` });
    expect(missing.stdout.length).toBe(0);
    const directory = await both(['grade', ...PATIENT, '--', scratch]);
    expect(directory).toMatchObject({ code: 2, stderr: `slowstart grade: cannot run '${scratch}': Permission denied\n` });
    const unknown = await both(['grade', ...PATIENT, '--', 'slowstart-no-such-command-on-path']);
    expect(unknown.stderr).toBe("slowstart grade: cannot run 'slowstart-no-such-command-on-path': No such file or directory\n");
  });

  it('checks its options', async () => {
    const cases: [string[], string][] = [
      [['grade', ...PATIENT], 'slowstart grade: no program to grade (slowstart grade [options] -- COMMAND [ARGS...])\n'],
      [['grade', ...PATIENT, '--format', 'xml', '--', 'x'], "slowstart grade: --format takes text, json, gradescope or junit, got 'xml'\n"],
      [['grade', ...PATIENT, '--timeout', '0', '--', 'x'], "slowstart grade: --timeout takes seconds above 0 and at most 86400, with up to 3 decimals, got '0'\n"],
      [['grade', ...PATIENT, '-j', '0', '--', 'x'], "slowstart grade: --jobs takes a whole number from 1 to 1024, got '0'\n"],
      [['grade', ...PATIENT, '--max-output', '2G', '--', 'x'], "slowstart grade: --max-output takes a size from 1 byte to 1G (e.g. 512K, 16M), got '2G'\n"],
      [['grade', ...PATIENT, '--bogus', '--', 'x'], "slowstart grade: unknown option '--bogus'\n"],
      [['grade', ...PATIENT, '--tests', join(scratch, 'none'), '--', 'x'], `slowstart grade: cannot read '${join(scratch, 'none')}': No such file or directory\n`],
    ];
    for (const [args, message] of cases) expect(await both(args), args.join(' ')).toMatchObject({ code: 2, stderr: message });
    const help = await both(['grade', ...PATIENT, '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout.toString()).toContain('usage: slowstart grade [options] -- COMMAND [ARGS...]');
  });
});

describe('slowstart grade: tests and arguments', { timeout: SLOW }, () => {
  it('passes the script path in place of {} (the learner reads the file, not stdin)', async () => {
    // A dir test's own file, and generated scripts written to a temporary folder.
    const d = join(scratch, 'paths');
    await mkdir(d, { recursive: true });
    await writeFile(join(d, 'a.txt'), 'POOL a=2 b=1\nPICK\nPICK\nPICK\n');
    const report = json(await both(['grade', ...PATIENT, '--tests', d, '--random', '4', '--format', 'json', '-j', JOBS, '--', ...PYTHON, '{}']));
    expect([report.tests, report.passed]).toEqual([5, 5]);
  });

  it('grades on a directory of scripts, with a .out beside a script as its expected output', async () => {
    const d = join(scratch, 'authored');
    await mkdir(d, { recursive: true });
    await writeFile(join(d, 'picks.txt'), 'POOL a=2 b=1\nPICK\nPICK\nPICK\n');
    // An author's own expectation, not the engine's (a a b is wrong: a b a is right).
    await writeFile(join(d, 'picks.out'), 'a\na\nb\n');
    await writeFile(join(d, 'ramp.txt'), 'ADD web=10 20\nNOW 5\nWEIGHTS\n');
    await writeFile(join(d, 'notes.md'), 'not a test');
    const report = json(await both(['grade', ...PATIENT, '--tests', d, '--format', 'json', '--', ...PYTHON]));
    expect(report.results.map((r) => [r.id, r.source, r.status])).toEqual([
      ['picks', 'dir', 'failed'],
      ['ramp', 'dir', 'passed'],
    ]);
    // Expected from the .out: no script line (the engine did not print it), no mistake named.
    expect(report.results[0]).toMatchObject({
      difference: { output_line: 2, script_line: null, expected: 'a', actual: 'b' },
      looks_like: [],
    });
    // With --builtin the suite comes first.
    const more = json(await cli('native', ['grade', ...PATIENT, '--tests', d, '--builtin', '--format', 'json', '-j', JOBS, '--', ...PYTHON], EPOCH));
    expect(more.results.map((r) => r.id)).toEqual([...SUITE.map((t) => t.id), 'picks', 'ramp']);
  });

  it('adds generated scripts with --random, the same for a seed in both CLIs, some with rejected lines', async () => {
    const tiny = join(scratch, 'tiny');
    await mkdir(tiny, { recursive: true });
    await writeFile(join(tiny, 'a.txt'), 'POOL a=1\nPICK\n');
    const report = json(await both(['grade', ...PATIENT, '--tests', tiny, '--random', '20', '--seed', '7', '--format', 'json', '-j', JOBS, '--', ...JAVASCRIPT]));
    const generated = report.results.filter((r) => r.source === 'random');
    expect(generated.map((r) => r.id)).toEqual(Array.from({ length: 20 }, (_, i) => `random-${i + 1}`));
    expect(generated.every((r) => r.status === 'passed')).toBe(true);
    expect(generated.some((r) => r.expected_exit_code === 1)).toBe(true);
    expect(generated.some((r) => r.expected_exit_code === 0)).toBe(true);
    // A mistake shows on generated scripts too, and is named there.
    const wrong = json(await cli('native', ['grade', ...PATIENT, '--tests', tiny, '--random', '20', '--seed', '7', '--format', 'json', '-j', JOBS, '--', ...PYTHON, '--mistake', 'no-subtract'], EPOCH));
    expect(wrong.results.filter((r) => r.source === 'random' && !r.passed).every((r) => r.looks_like.join() === 'no-subtract')).toBe(true);
  });

  it('runs -j N tests at once: two tests that each wait for the other to start pass with -j 2 only', async () => {
    const d = join(scratch, 'parallel');
    await mkdir(d, { recursive: true });
    for (const name of ['one', 'two']) await writeFile(join(d, `${name}.txt`), 'POOL a=1\nPICK\n');
    for (const which of ['native', 'node'] as const) {
      // Each run marks its start in a fresh directory, then waits until two runs have
      // started, and prints the right answer: no clock, just whether the two overlap.
      const barrier = await mkdtemp(join(scratch, `barrier-${which}-`));
      const program = ['sh', '-c', 'cat >/dev/null; touch "$0/$$"; while [ "$(ls "$0" | wc -l)" -lt 2 ]; do sleep 0.05; done; echo a', barrier];
      const together = json(await cli(which, ['grade', ...PATIENT, '--tests', d, '-j', '2', '--format', 'json', '--', ...program], EPOCH));
      expect(together.results.map((r) => r.status), which).toEqual(['passed', 'passed']);
      // One at a time, the first waits for a second run that never starts.
      const alone = await mkdtemp(join(scratch, `alone-${which}-`));
      const oneByOne = json(await cli(which, ['grade', ...PATIENT, '--tests', d, '-j', '1', '--timeout', '2', '--format', 'json', '--', ...program.slice(0, -1), alone], EPOCH));
      expect(oneByOne.results.map((r) => r.status), which).toEqual(['timed-out', 'passed']);
    }
  });

  it('a link out of the tests\' folder is refused, one inside it is a test', async () => {
    const d = join(scratch, 'links');
    await mkdir(d, { recursive: true });
    await writeFile(join(d, 'a.txt'), 'POOL a=1\nPICK\n');
    await symlink(join(d, 'a.txt'), join(d, 'alias.txt')); // inside: fine
    const ok = json(await both(['grade', ...PATIENT, '--tests', d, '--format', 'json', '--', ...PYTHON]));
    expect(ok.results.map((r) => [r.id, r.status])).toEqual([['a', 'passed'], ['alias', 'passed']]);
    // A grader's own file, which a failed test's report would show (its script, its expected lines).
    const secret = join(scratch, 'secret-answers');
    await writeFile(secret, 'the grader\'s own file\n');
    for (const name of ['stolen.txt', 'a.out']) {
      await symlink(secret, join(d, name));
      const run = await both(['grade', ...PATIENT, '--tests', d, '--', ...PYTHON]);
      expect(run).toMatchObject({ code: 2, stderr: `slowstart grade: cannot read '${d}/${name}': a symbolic link that leads out of the folder\n` });
      await rm(join(d, name));
    }
  });

  it('--exit-status strict fails a program that exits 0 after a rejected line', async () => {
    const d = join(scratch, 'strict');
    await mkdir(d, { recursive: true });
    await writeFile(join(d, 'bad.txt'), 'POOL a=1\npick\nPICK\n');
    await writeFile(join(d, 'good.txt'), 'POOL a=1\nPICK\n');
    const lenient = json(await both(['grade', ...PATIENT, '--tests', d, '--format', 'json', '--', ...PYTHON, '--misbehave', 'exit-0']));
    expect(lenient.results.map((r) => r.status)).toEqual(['passed', 'passed']);
    const strict = json(await both(['grade', ...PATIENT, '--tests', d, '--exit-status', 'strict', '--format', 'json', '--', ...PYTHON, '--misbehave', 'exit-0']));
    expect(strict.results.map((r) => [r.status, r.summary])).toEqual([
      ['failed', 'exited with status 0, but the engine exits 1 (the script has a rejected line)'],
      ['passed', ''],
    ]);
  });
});

describe('slowstart tests', { timeout: SLOW }, () => {
  it('lists the suite, and writes it as NAME.txt and NAME.out files, the same from both CLIs', async () => {
    const list = (await both(['tests'])).stdout.toString();
    expect(list.trimEnd().split('\n')).toEqual(SUITE.map((t) => `${t.id}  ${t.title}`));
    const [a, b] = [join(scratch, 'suite-native'), join(scratch, 'suite-node')];
    const native = await cli('native', ['tests', '--out', a, '--random', '3', '--seed', '7']);
    const node = await cli('node', ['tests', '--out', b, '--random', '3', '--seed', '7']);
    expect(native).toMatchObject({ code: 0, stderr: '' });
    expect(native.stdout.toString()).toBe(`Wrote ${N + 3} tests to ${a} (NAME.txt and NAME.out each).\n`);
    expect(node.code).toBe(0);
    const names = (await readdir(a)).sort();
    expect(names).toEqual((await readdir(b)).sort());
    expect(names.length).toBe(2 * (N + 3));
    for (const name of names) expect((await readFile(join(b, name))).equals(await readFile(join(a, name))), name).toBe(true);
    // Each .out is what the CLI prints for its .txt.
    for (const t of SUITE.slice(0, 5)) {
      const run = spawnSync(NATIVE, [join(a, `${t.id}.txt`)]);
      expect(run.stdout.equals(await readFile(join(a, `${t.id}.out`))), t.id).toBe(true);
    }
    // A file where the folder should be: one line, the same from both CLIs.
    const file = join(scratch, 'a-file');
    await writeFile(file, 'not a folder');
    expect(await both(['tests', '--out', file])).toMatchObject({ code: 2, stderr: `slowstart tests: cannot open '${file}': Not a directory\n` });
    // And grading on the written files gives what grading on the built-in suite gives.
    const fromFiles = json(await cli('native', ['grade', ...PATIENT, '--tests', a, '--format', 'json', '-j', JOBS, '--', ...PYTHON, '--mistake', 'round-up'], EPOCH));
    const builtIn = JSON.parse(gradeInProcess('json', outcomes(PYTHON, 'round-up')).bytes.toString()) as ReturnType<typeof json>;
    expect(fromFiles.looks_like.map((e) => e.id)).toEqual(['round-up']);
    const statuses = new Map(fromFiles.results.map((r) => [r.id, r.status]));
    for (const r of builtIn.results) expect(statuses.get(r.id), r.id).toBe(r.status);
  });
});

describe('slowstart grade: limits, signals and any bytes (issue 23)', { timeout: SLOW }, () => {
  /** A shell command line that runs a CLI with these arguments (bytes allowed: printf's octal escapes). */
  const shellCli = (which: Cli, args: string) => (which === 'native' ? `"${NATIVE}" ${args}` : `"${process.execPath}" "${NODE_CLI}" ${args}`);

  it('says in one line that a program fails every test alike (python3 nosuch.py), and exits 2', async () => {
    const d = join(scratch, 'nosuch');
    await mkdir(d, { recursive: true });
    for (const name of ['a', 'b', 'c']) await writeFile(join(d, `${name}.txt`), 'POOL a=1\nPICK\n');
    const run = await both(['grade', ...PATIENT, '--tests', d, '--', 'python3', '-S', join(scratch, 'nosuch.py')]);
    expect(run.code).toBe(2);
    expect(run.stdout.length).toBe(0);
    expect(run.stderr).toMatch(/^slowstart grade: cannot run 'python3': every test exited with status 2 and printed nothing, saying: .*can't open file .*nosuch\.py.*\n$/);
    expect(run.stderr.split('\n')).toHaveLength(2);
  });

  it('clamps -j to the open-file limit with one line, and grades', async () => {
    const d = join(scratch, 'files');
    await mkdir(d, { recursive: true });
    for (const name of ['a', 'b', 'c']) await writeFile(join(d, `${name}.txt`), 'POOL a=1\nPICK\n');
    for (const which of ['native', 'node'] as Cli[]) {
      const r = spawnSync('sh', ['-c', `ulimit -n 256; ${shellCli(which, `grade --tests "${d}" --random 20 --timeout 120 --format json -j 400 -- ${PYTHON.map((w) => `"${w}"`).join(' ')}`)}`], {
        env: { ...process.env, ...EPOCH },
      });
      const failed = r.stdout.length ? (JSON.parse(r.stdout.toString()) as ReturnType<typeof json>).results.filter((x) => !x.passed) : [];
      expect(r.status, `${which}: ${r.stderr} ${JSON.stringify(failed).slice(0, 2000)}`).toBe(0);
      expect(r.stderr.toString(), which).toMatch(/^slowstart grade: -j 400 is more than the open-file limit \(256\) allows: running \d+ at a time\n$/);
      expect((JSON.parse(r.stdout.toString()) as { passed: number }).passed).toBe(23);
    }
  });

  it('interrupted, kills every program, removes its temporary files and ends by the signal', async () => {
    for (const which of ['native', 'node'] as Cli[]) {
      for (const sig of ['SIGTERM', 'SIGINT'] as const) {
        const tmp = await mkdtemp(join(scratch, `signal-${which}-`));
        const pids = join(tmp, 'pids');
        // Each test's program writes its pid (as the machine sees it: /proc/self), then sleeps; {} makes the grader write temporary files.
        const program = ['sh', '-c', 'read -r me _ </proc/self/stat; echo "$me" >> "$0"; exec sleep 300', pids, '{}'];
        const child = spawn(which === 'native' ? NATIVE : process.execPath, [...(which === 'native' ? [] : [NODE_CLI]), 'grade', '-j', '2', '--', ...program], {
          env: { ...process.env, TMPDIR: tmp },
          stdio: 'ignore',
        });
        await expect.poll(() => (existsSync(pids) ? readFileSync(pids, 'utf8').trim().split('\n').length : 0), { timeout: 20_000 }).toBe(2);
        const exited = new Promise<NodeJS.Signals | null>((ok) => child.on('exit', (_code, signal) => ok(signal)));
        child.kill(sig);
        expect(await exited, `${which} ${sig}`).toBe(sig);
        for (const pid of readFileSync(pids, 'utf8').trim().split('\n').map(Number)) {
          const gone = () => {
            try {
              return /\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'latin1'));
            } catch {
              return true;
            }
          };
          await expect.poll(gone, { timeout: 5_000 }).toBe(true);
        }
        expect((await readdir(tmp)).filter((f) => f.startsWith('slowstart-grade-')), `${which} ${sig}`).toEqual([]);
      }
    }
  });

  it('reads the same tests whatever their names, and reports any bytes as well-formed XML and valid UTF-8', async () => {
    // Test files named in Latin-1, with a newline and ESC, with a bidi control;
    // a program at a path that is not UTF-8, printing and saying noncharacters,
    // invalid UTF-8, controls and an encoded lone surrogate.
    const d = join(scratch, 'names');
    await mkdir(d, { recursive: true });
    const names = [Buffer.from('caf\xe9', 'latin1'), Buffer.from('new\nline\x1b[31m'), Buffer.from('\u202Eevil'), Buffer.from('plain')];
    for (const n of names) await writeFile(Buffer.concat([Buffer.from(`${d}/`), n, Buffer.from('.txt')]), 'POOL a=1\nPICK\n');
    const program = Buffer.concat([Buffer.from(`${scratch}/prog`), Buffer.from([0xe9]), Buffer.from('.py')]);
    await writeFile(
      program,
      [
        'import sys',
        'sys.stdin.buffer.read()',
        String.raw`sys.stdout.buffer.write(b"a\xef\xbf\xbe\xef\xbf\xbf\xff\x01\xed\xa0\x80\n")`,
        String.raw`sys.stderr.buffer.write(b"oops \xef\xbf\xbe \xff \x1b[2J \xed\xa0\x80 \x00\n")`,
      ].join('\n'),
    );
    const octal = (b: Buffer) => Array.from(b, (x) => `\\${x.toString(8).padStart(3, '0')}`).join('');
    const reports: Record<string, Buffer[]> = {};
    for (const which of ['native', 'node'] as Cli[]) {
      for (const format of ['json', 'junit', 'gradescope', 'text']) {
        const r = spawnSync('sh', ['-c', `${shellCli(which, `grade --tests "${d}" --format ${format} -- "${PYTHON_BIN}" -S "$(printf '${octal(program)}')"`)}`], {
          env: { ...process.env, ...EPOCH },
        });
        expect(r.status, `${which} ${format}: ${r.stderr}`).toBe(1);
        (reports[format] ??= []).push(r.stdout);
      }
    }
    for (const [format, [native, node]] of Object.entries(reports)) {
      expect(node.equals(native), `${format}: the same bytes from both CLIs`).toBe(true);
      expect(() => new TextDecoder('utf-8', { fatal: true }).decode(native), format).not.toThrow();
      // Nothing raw that a terminal or an XML parser would choke on.
      expect(/[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]|\uFFFE|\uFFFF|\u202E/.test(native.toString()), format).toBe(false);
    }
    const report = JSON.parse(reports.json[0].toString()) as ReturnType<typeof json>;
    expect(report.tests).toBe(4); // every file, in both CLIs (Node used to skip the Latin-1 one)
    const ids = report.results.map((r) => r.id);
    expect(ids).toEqual(['caf\\xe9', 'new\\x0aline\\x1b[31m', 'plain', '\\u{202e}evil']);
    expect(report.command[2]).toBe(`${scratch}/prog\\xe9.py`);
    // One spelling of a name everywhere: the text report and the JUnit names.
    for (const id of ids) expect(reports.text[0].toString()).toContain(`FAIL ${id}: ${id}\n`);
    const cases = parseXml(reports.junit[0]).children[0].children.filter((c) => c.tag === 'testcase');
    expect(cases.map((c) => c.attrib.name)).toEqual(ids.map((id) => `${id}: ${id}`));
    // And a JUnit consumer's parser: xmllint (libxml2), when it is installed.
    const lint = spawnSync('xmllint', ['--noout', '-'], { input: reports.junit[0] });
    if (!lint.error) expect(lint.status, lint.stderr.toString()).toBe(0);
  });
});
