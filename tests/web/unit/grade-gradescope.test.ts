// The Gradescope autograder of docs/gradescope (run_autograder), run as
// Gradescope runs it, in a throwaway /autograder tree (AUTOGRADER): with the
// npm package's `slowstart` on PATH (what setup.sh installs), a submission
// is graded into a results.json that Gradescope reads; a missing file and a
// program that cannot start give a results.json that says so.
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gradescope, LEARNERS, N, NODE_CLI, ROOT, SLOW } from '../support/grade-cli.js';

const RUN_AUTOGRADER = join(ROOT, 'docs/gradescope/run_autograder');
let scratch: string;
let bin: string;

// The unprivileged user run_autograder runs the program as (--user); its
// own, so that no other test file's run kills its processes.
const LEARNER = 'slowstart-gradescope';
const asRoot = process.getuid?.() === 0;

beforeAll(async () => {
  if (asRoot && spawnSync('id', [LEARNER]).status !== 0) spawnSync('useradd', ['-M', '-r', '-s', '/usr/sbin/nologin', LEARNER]);
  scratch = await mkdtemp(join(tmpdir(), 'slowstart-gradescope-'));
  await chmod(scratch, 0o755); // the learner's user reaches its submission
  // `npm install --global` puts this on PATH: the Node CLI.
  bin = join(scratch, 'bin');
  await mkdir(bin);
  await writeFile(join(bin, 'slowstart'), `#!/bin/sh\nexec "${process.execPath}" "${NODE_CLI}" "$@"\n`);
  await chmod(join(bin, 'slowstart'), 0o755);
});

afterAll(async () => {
  await rm(scratch, { recursive: true, force: true });
});

/** As root, the set-up's --user; otherwise none (a trial run, said in the test's name). */
const learnerUser = asRoot ? LEARNER : '';

/** A fresh /autograder with `files` in submission/; runs run_autograder and reads results.json. */
async function autograde(name: string, files: Record<string, string>) {
  const root = join(scratch, name);
  await mkdir(join(root, 'submission'), { recursive: true });
  for (const [file, text] of Object.entries(files)) await writeFile(join(root, 'submission', file), text);
  const run = spawnSync('bash', [RUN_AUTOGRADER], {
    cwd: root,
    env: { ...process.env, AUTOGRADER: root, LEARNER_USER: learnerUser, PATH: `${bin}:${process.env.PATH}` },
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0); // Gradescope wants 0; the grade is in results.json
  return JSON.parse(await readFile(join(root, 'results/results.json'), 'utf8')) as Gradescope & { score?: number };
}

describe(`docs/gradescope/run_autograder${asRoot ? ' (the program as an unprivileged user)' : ' (not root: without --user)'}`, { timeout: SLOW }, () => {
  it('grades a correct submission: a point for each test', async () => {
    const learner = await readFile(join(LEARNERS, 'learner.py'), 'utf8');
    const results = await autograde('correct', { 'balancer.py': learner });
    expect(results.tests.length).toBe(N);
    expect(results.tests.reduce((sum, t) => sum + t.score, 0)).toBe(N);
    expect(results.score).toBeUndefined(); // Gradescope adds up the tests
    expect(results.output).toContain(`${N} tests, ${N} passed, 0 failed.`);
  });

  it('grades a submission with a classic mistake: the failures, and the mistake named for the student', async () => {
    // The learner program with its switch set for good: the winner never gives back the total.
    const learner = (await readFile(join(LEARNERS, 'learner.py'), 'utf8')).replace(
      'mistake = misbehave = path = None',
      'mistake, misbehave, path = "no-subtract", None, None',
    );
    expect(learner).toContain('"no-subtract", None, None');
    const results = await autograde('mistake', { 'balancer.py': learner });
    const failed = results.tests.filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((t) => t.score === 0 && t.max_score === 1 && t.tags.join() === 'no-subtract')).toBe(true);
    expect(results.output).toMatch(/^Looks like: The winner does not give back the total weight\. \[no-subtract\]$/m);
  });

  it('gives 0 points and says why when the file is missing or the program cannot start', async () => {
    const missing = await autograde('missing', { 'Balancer.PY': 'print(1)\n' });
    expect(missing).toEqual({ score: 0, output: 'Your submission has no balancer.py at its top level: please upload it again.' });
    // python3 is there, but the grader is told to run a program that is not.
    const root = join(scratch, 'no-python');
    await mkdir(join(root, 'submission'), { recursive: true });
    await writeFile(join(root, 'submission/balancer.py'), 'print(1)\n');
    const script = (await readFile(RUN_AUTOGRADER, 'utf8')).replace('command=(python3 "$program")', 'command=(python-not-installed "$program")');
    await writeFile(join(scratch, 'run_autograder_no_python'), script);
    const run = spawnSync('bash', [join(scratch, 'run_autograder_no_python')], {
      env: { ...process.env, AUTOGRADER: root, LEARNER_USER: learnerUser, PATH: `${bin}:${process.env.PATH}` },
    });
    expect(run.status).toBe(0);
    expect(JSON.parse(await readFile(join(root, 'results/results.json'), 'utf8'))).toEqual({
      score: 0,
      output: "Your program could not be run: slowstart grade: cannot run 'python-not-installed': No such file or directory",
    });
  });
});
