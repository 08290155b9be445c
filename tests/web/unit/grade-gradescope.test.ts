// The Gradescope autograder of docs/gradescope (run_autograder), run as
// Gradescope runs it, in a throwaway /autograder tree (AUTOGRADER): with the
// npm package's `slowstart` on PATH (what setup.sh installs), a submission
// is graded into a results.json that Gradescope reads; a missing file and a
// program that cannot start give a results.json that says so. Also: a
// submission that brings the engine is refused (or flagged, when the course
// allows it), the program has a private temporary folder of limited size,
// what its user wrote is removed, the report is reserved before grading, a
// full disk never leaves a results.json that does not parse, and setup.sh
// refuses to install slowstart from anywhere but the course's package file.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gradescope, LEARNERS, N, NODE_CLI, ROOT, SLOW, testUser } from '../support/grade-cli.js';

const RUN_AUTOGRADER = join(ROOT, 'docs/gradescope/run_autograder');
const SETUP = join(ROOT, 'docs/gradescope/setup.sh');
let scratch: string;
let bin: string;

// The unprivileged user run_autograder runs the program as (--user); its
// own, so that no other test file's run is refused it or kills its processes.
const asRoot = process.getuid?.() === 0;
const LEARNER = asRoot ? testUser('gradescope') : '';

beforeAll(async () => {
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

/** The learners' temporary folders run_autograder made in this machine's /tmp (and has not removed). */
function learnerFolders(): string[] {
  return readdirSync(tmpdir()).filter((f) => f.startsWith('slowstart-learner-'));
}

/** As root, the set-up's --user; otherwise none (a trial run, said in the test's name). */
const learnerUser = asRoot ? LEARNER : '';

/** A fresh /autograder with `files` in submission/ (text, or bytes); runs run_autograder and reads results.json. */
async function autograde(name: string, files: Record<string, string | Uint8Array>, env: Record<string, string> = {}) {
  const root = join(scratch, name);
  await mkdir(join(root, 'submission'), { recursive: true });
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(root, 'submission', file, '..'), { recursive: true });
    await writeFile(join(root, 'submission', file), text);
  }
  const run = spawnSync('bash', [RUN_AUTOGRADER], {
    cwd: root,
    env: { ...process.env, AUTOGRADER: root, LEARNER_USER: learnerUser, PATH: `${bin}:${process.env.PATH}`, ...env },
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

describe('docs/gradescope: what a submission cannot do to the autograder', { timeout: SLOW }, () => {
  it('refuses a submission that brings the engine along, by content, not by name; a course may allow it', async () => {
    const learner = await readFile(join(LEARNERS, 'learner.py'), 'utf8');
    const wasm = await readFile(join(ROOT, 'dist/wasm/engine.wasm'));
    const refused = await autograde('engine-refused', { 'balancer.py': learner, 'lib/helper.dat': wasm });
    expect(refused.score).toBe(0);
    expect(refused.output).toMatch(/^Your submission was not graded: slowstart grade: the submission holds a copy of the slowstart engine \(lib\/helper\.dat holds the engine itself/);
    // Base64 inside the program itself is found as well.
    const inline = `${learner}\nENGINE = """\n${wasm.toString('base64').replace(/.{76}/g, '$&\n')}\n"""\n`;
    expect((await autograde('engine-inline', { 'balancer.py': inline })).output).toContain('balancer.py holds the engine itself');
    // ENGINE_COPIES=flag: graded, and the report leads with the warning.
    const flagged = await autograde('engine-flagged', { 'balancer.py': learner, 'lib/helper.dat': wasm }, { ENGINE_COPIES: 'flag' });
    expect(flagged.tests.reduce((sum, t) => sum + t.score, 0)).toBe(N);
    expect(flagged.output).toMatch(/^Warning: the submission holds a copy of the slowstart engine/);
  });

  it('reserves results.json before grading: a grader that never finishes leaves a report that says so', async () => {
    // A `slowstart` that notes what results.json holds when it starts, then is killed.
    const stopped = join(scratch, 'stopped-bin');
    await mkdir(stopped, { recursive: true });
    await writeFile(join(stopped, 'slowstart'), `#!/bin/sh\ncp "$AUTOGRADER/results/results.json" "$AUTOGRADER/at-start.json"\nkill -9 $$\n`);
    await chmod(join(stopped, 'slowstart'), 0o755);
    const root = join(scratch, 'stopped');
    await mkdir(join(root, 'submission'), { recursive: true });
    await mkdir(join(root, 'results'), { recursive: true });
    await writeFile(join(root, 'submission/balancer.py'), 'print(1)\n');
    await writeFile(join(root, 'results/results.json'), '{"tests": [{"score": 1, "max_score": 1, "name": "an older report"}]}\n');
    const run = spawnSync('bash', [RUN_AUTOGRADER], { env: { ...process.env, AUTOGRADER: root, LEARNER_USER: learnerUser, PATH: `${stopped}:${process.env.PATH}` }, encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(await readFile(join(root, 'at-start.json'), 'utf8'))).toEqual({ score: 0, output: 'The autograder did not finish grading this submission: please ask your course staff.' });
    expect(JSON.parse(await readFile(join(root, 'results/results.json'), 'utf8'))).toEqual({
      score: 0,
      output: 'The autograder was stopped before it finished (status 137): please ask your course staff.',
    });
  });

  it.skipIf(!asRoot)('gives the program a private temporary folder of limited size, and removes what its user wrote', async () => {
    const marker = `slowstart-gradescope-junk-${process.pid}`;
    // It says what its TMPDIR is, fills it, and leaves files behind in /tmp and in its TMPDIR.
    const program = [
      'import os, sys',
      'sys.stdin.read()',
      't = os.environ.get("TMPDIR", "")',
      's = os.stat(t)',
      'sys.stderr.write(f"tmpdir {oct(s.st_mode & 0o777)} {s.st_uid == os.getuid()}\\n")',
      `open("/tmp/${marker}", "w").write("left behind")`,
      'try:',
      '    with open(os.path.join(t, "big"), "wb") as f:',
      '        f.write(b"x" * (4 << 20))',
      '        f.flush()',
      '    sys.stderr.write("wrote 4 MiB\\n")',
      'except OSError as e:',
      '    sys.stderr.write(f"4 MiB: {e.strerror}\\n")',
    ].join('\n');
    const before = learnerFolders();
    const results = await autograde('tmp', { 'balancer.py': program }, { LEARNER_TMP_SIZE: '1m' });
    // The same in every test: said once, at the top.
    const said = results.output;
    expect(said).toContain('| tmpdir 0o700 True\n');
    // A tmpfs of 1 MiB where the machine lets run_autograder mount one (this one does: it runs as root).
    expect(said).toContain('| 4 MiB: No space left on device\n');
    expect(existsSync(`/tmp/${marker}`)).toBe(false);
    expect(learnerFolders().filter((f) => !before.includes(f))).toEqual([]);
  });

  it.skipIf(!asRoot)('removes the temporary folder even while a process of the learner still holds it', async () => {
    // A grader that leaves a process of the user behind, sitting in its
    // TMPDIR (a process still dying on a loaded machine looks the same to
    // umount: busy). run_autograder kills it and the folder goes.
    const leaky = join(scratch, 'leaky-bin');
    await mkdir(leaky, { recursive: true });
    await writeFile(
      join(leaky, 'slowstart'),
      [
        '#!/bin/sh',
        `setpriv --reuid="$(id -u ${LEARNER})" --regid="$(id -g ${LEARNER})" --clear-groups -- sh -c 'cd "$TMPDIR" && exec sleep 120' </dev/null >/dev/null 2>&1 &`,
        'sleep 0.3',
        `echo '{"tests": [{"score": 1, "max_score": 1, "name": "t"}]}' > "$AUTOGRADER/results/results.json"`,
      ].join('\n') + '\n',
    );
    await chmod(join(leaky, 'slowstart'), 0o755);
    const root = join(scratch, 'leaky');
    await mkdir(join(root, 'submission'), { recursive: true });
    await writeFile(join(root, 'submission/balancer.py'), 'print(1)\n');
    const before = learnerFolders();
    const run = spawnSync('bash', [RUN_AUTOGRADER], {
      env: { ...process.env, AUTOGRADER: root, LEARNER_USER: LEARNER, PATH: `${leaky}:${process.env.PATH}` },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stderr).toBe('');
    expect(learnerFolders().filter((f) => !before.includes(f))).toEqual([]);
    // None of its processes is left running. (A killed one may still be listed
    // as a zombie until its parent, here the machine's init, collects its
    // exit status: it runs nothing and holds nothing. A fresh clone's run saw one.)
    expect(spawnSync('pgrep', ['-U', LEARNER, '--runstates', 'R,S,D,T,t']).status).toBe(1);
  });

  it.skipIf(!asRoot)('a full disk never leaves a results.json that does not parse: the learner\'s files go, the reason stays; else exit 1', async () => {
    // The whole /autograder on a small tmpfs, with a folder the learner may write to.
    const root = join(scratch, 'full');
    await mkdir(root, { recursive: true });
    if (spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'slowstart-test', root]).status !== 0) return; // no mount here: nothing to show
    try {
      await mkdir(join(root, 'submission'), { recursive: true });
      await mkdir(join(root, 'scratch'), { recursive: true });
      await chmod(join(root, 'scratch'), 0o777);
      const learner = await readFile(join(LEARNERS, 'learner.py'), 'utf8');
      const filler = [
        'import os',
        'try:',
        `    with open(${JSON.stringify(join(root, 'scratch'))} + "/fill-%d" % os.getpid(), "wb") as f:`,
        '        while True:',
        '            f.write(b"x" * 65536)',
        '            f.flush()',
        'except OSError:',
        '    pass',
      ].join('\n');
      await writeFile(join(root, 'submission/balancer.py'), `${filler}\n${learner}`);
      const env = { ...process.env, AUTOGRADER: root, LEARNER_USER: LEARNER, PATH: `${bin}:${process.env.PATH}` };
      const run = spawnSync('bash', [RUN_AUTOGRADER], { env, encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(0);
      const results = JSON.parse(await readFile(join(root, 'results/results.json'), 'utf8')) as { score: number; output: string };
      expect(results).toMatchObject({ score: 0 });
      expect(results.output).toMatch(/^The autograder could not write your results: slowstart grade: cannot write the report to '.*results\.json': No space left on device/);
      expect(readdirSync(join(root, 'scratch'))).toEqual([]); // the learner's files are gone
      // A disk full of what is not the learner's: run_autograder fails loudly.
      spawnSync('dd', ['if=/dev/zero', `of=${join(root, 'root-owned')}`, 'bs=64k'], { stdio: 'ignore' });
      const loud = spawnSync('bash', [RUN_AUTOGRADER], { env, encoding: 'utf8' });
      expect(loud.status).toBe(1);
      expect(loud.stderr).toMatch(/^run_autograder: (cannot write|.*does not hold a report)/);
    } finally {
      spawnSync('umount', [root]);
    }
  });
});

describe('docs/gradescope/setup.sh', () => {
  it('fails when the autograder zip has no slowstart package file, and installs nothing from the registry', async () => {
    const root = join(scratch, 'setup');
    await mkdir(join(root, 'source'), { recursive: true });
    // Every installer it could reach only leaves a mark.
    const fake = join(scratch, 'setup-bin');
    await mkdir(fake, { recursive: true });
    for (const tool of ['apt-get', 'curl', 'npm', 'npx', 'slowstart', 'id', 'useradd', 'chown', 'chmod']) {
      await writeFile(join(fake, tool), `#!/bin/sh\necho ${tool} "$@" >> "${join(scratch, 'setup-ran')}"\nexit 0\n`);
      await chmod(join(fake, tool), 0o755);
    }
    const run = spawnSync('bash', [SETUP], { env: { ...process.env, AUTOGRADER: root, PATH: `${fake}:${process.env.PATH}` }, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`setup.sh: no slowstart-*.tgz in ${root}/source: put the package file from \`npm pack\` in the autograder zip\n`);
    expect(existsSync(join(scratch, 'setup-ran'))).toBe(false);
    // With the file, it installs that file.
    await copyFile(join(ROOT, 'package.json'), join(root, 'source', 'slowstart-0.1.0.tgz'));
    spawnSync('bash', [SETUP], { env: { ...process.env, AUTOGRADER: root, PATH: `${fake}:${process.env.PATH}` }, encoding: 'utf8' });
    expect(await readFile(join(scratch, 'setup-ran'), 'utf8')).toContain(`npm install --global ${root}/source/slowstart-0.1.0.tgz\n`);
  });
});
