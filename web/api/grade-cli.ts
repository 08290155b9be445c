/**
 * `slowstart grade` and `slowstart tests` in the Node CLI: the order of
 * things, as the native CLI's cpp/cli/grade_native.cpp has it. Like the
 * native CLI, this side only touches files (grade-files.ts) and runs the
 * learner's program (grade-processes.ts); the options, the tests, the
 * comparison, the diagnosis and every byte of the report come from the same
 * C++ (cpp/grading/grade.cpp, in the lab module), so both CLIs print the
 * same report.
 *
 * With --output a report is always left: the grader's, or one that says
 * grading could not run (exit 2) or did not finish (written before the first
 * test, replaced at the end), so an older report never stays in its place.
 */
import { closeSync, constants, lstatSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import type { Server } from 'node:net';
import { availableParallelism, hostname } from 'node:os';
import type { GradeSession } from '../wasm/lab.mjs';
import { CANNOT_RUN, errnoText, rawArguments, write } from './cli-io.js';
import { gradeIo, leaveReport, reportTargetProblem, scriptPaths, writeAll } from './grade-files.js';
import {
  claimUser,
  clearUser,
  closeInherited,
  findSetpriv,
  killStrays,
  killUser,
  LAST_SWEEP_MS,
  type Runner,
  runAs,
  runOnce,
  startTime,
} from './grade-processes.js';
import { loadLab } from './node.js';

const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
const PREFIX = 'slowstart grade: ';

/** The open-file limit, from /proc/self/limits (Linux); undefined when not known. */
function fileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'latin1'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

const shownPath = (path: Uint8Array) => Buffer.from(path).toString();

/** --output: `bytes` left at the report's path, or one line on stderr that says why not. */
async function leave(session: GradeSession, bytes: Uint8Array): Promise<boolean> {
  const path = session.output();
  const problem = leaveReport(path, bytes);
  if (!problem) return true;
  await write(process.stderr, `${PREFIX}cannot write the report to '${shownPath(path)}': ${problem}\n`);
  return false;
}

/** Grading cannot run: `line` on stderr, and with --output a report that says why. Exit status 2. */
async function cannotGrade(session: GradeSession, line: Uint8Array | string): Promise<number> {
  await write(process.stderr, line);
  if (session.output().length) {
    let reason = Buffer.from(line).toString();
    if (reason.startsWith(PREFIX)) reason = reason.slice(PREFIX.length);
    await leave(session, session.couldNotGrade(reason.replace(/\n+$/, '')));
  }
  return CANNOT_RUN;
}

export async function grade(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const session = new lab.GradeSession();
  let claim: Server | undefined;
  try {
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const started = session.start(rawArguments(args), {
      cpus: availableParallelism(),
      hostname: hostname(),
      now: Math.floor(Date.now() / 1000),
      sourceDateEpoch: epoch ? Number.parseInt(epoch, 10) : undefined,
      ...gradeIo(lab.linksOut),
    });
    if (!started.ok) {
      await write(process.stdout, started.out);
      if (started.status === CANNOT_RUN) return await cannotGrade(session, started.err);
      await write(process.stderr, started.err);
      return started.status;
    }
    await write(process.stderr, started.err); // a warning when it starts
    const output = session.output();
    if (output.length) {
      // A FIFO, a device or a folder there is refused now, never opened.
      const problem = reportTargetProblem(output);
      if (problem) {
        await write(process.stderr, `${PREFIX}cannot write the report to '${shownPath(output)}': ${problem}\n`);
        return CANNOT_RUN;
      }
    }
    closeInherited();
    const runner: Runner = {
      env: {},
      mark: `SLOWSTART_GRADE_RUN=${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2)}`,
      running: new Set(),
      since: startTime(process.pid),
    };
    runner.env = { ...process.env, [runner.mark.split('=')[0]]: runner.mark.split('=')[1] };
    const user = session.user();
    if (user) {
      const as = runAs(user);
      if (typeof as === 'string') return await cannotGrade(session, `${PREFIX}${as}\n`);
      const setpriv = findSetpriv();
      if (!setpriv) return await cannotGrade(session, `${PREFIX}--user needs setpriv (util-linux) in the Node CLI: it gives the program the user's groups\n`);
      const claimed = await claimUser(user, as.uid);
      if (typeof claimed === 'string') return await cannotGrade(session, `${PREFIX}${claimed}\n`);
      claim = claimed;
      runner.uid = as.uid;
      runner.gid = as.gid;
      runner.setpriv = setpriv;
    }
    const limit = fileLimit();
    // Each test holds three pipes, and Node itself some descriptors.
    if (limit !== undefined) await write(process.stderr, session.clampJobs(Math.max(1, Math.floor((limit - 64) / 4)), limit));
    // The report's place is taken before the first test: if the grader is
    // killed, what is left says so, not an older report.
    if (output.length && !(await leave(session, session.couldNotGrade('grading started but did not finish (the grader was stopped before it wrote its report)'))))
      return CANNOT_RUN;
    let files: ReturnType<typeof scriptPaths>;
    try {
      files = scriptPaths(session, runner.uid !== undefined);
    } catch (e) {
      return await cannotGrade(session, `${PREFIX}${(e as Error).message}\n`);
    }
    // Stopping signals: every program killed, the files removed, the report
    // says so; then the grader ends as that signal would end it.
    const stop = (sig: NodeJS.Signals) => {
      for (const pid of runner.running) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      runner.running.clear();
      killUser(runner);
      killStrays(runner, LAST_SWEEP_MS);
      files.cleanup();
      if (output.length) leaveReport(output, session.couldNotGrade(`grading was interrupted by ${sig}`));
      for (const s of STOPS) process.removeAllListeners(s);
      process.kill(process.pid, sig);
    };
    for (const s of STOPS) process.on(s, stop);
    try {
      const t0 = performance.now();
      const n = session.size();
      const timeout = session.timeoutMs();
      let next = 0;
      let cannotStart = false;
      const runTest = async (i: number) => {
        const o = await runOnce(session.argv(files.paths[i]), session.test(i).script, timeout, session.maxOutput(i), runner, lab.stderrKept);
        if (!o.started) cannotStart = true;
        session.setOutcome(i, o);
      };
      if (runner.uid === undefined) {
        const worker = async () => {
          while (!cannotStart && next < n) await runTest(next++);
        };
        await Promise.all(Array.from({ length: Math.min(session.jobs(), n) }, worker));
      } else {
        // With --user, a round of tests starts once the last one is over and
        // the user has no process left.
        while (!cannotStart && next < n) {
          if (next > 0) await clearUser(runner);
          const round: Promise<void>[] = [];
          while (round.length < session.jobs() && next < n) round.push(runTest(next++));
          await Promise.all(round);
        }
      }
      await clearUser(runner);
      if (!killStrays(runner, LAST_SWEEP_MS)) await write(process.stderr, lab.straysLeft);
      const { out, err, status } = session.finish(Math.round(performance.now() - t0));
      if (status === CANNOT_RUN) return await cannotGrade(session, err);
      await write(process.stderr, err);
      if (output.length) return (await leave(session, out)) ? status : CANNOT_RUN; // once every program is dead
      await write(process.stdout, out);
      return status;
    } finally {
      for (const s of STOPS) process.removeListener(s, stop);
      files.cleanup();
    }
  } finally {
    claim?.close();
    session.delete();
  }
}

export async function tests(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const { out, err, status, dir, force, files } = lab.testsCommand(args);
  if (status === 0 && dir) {
    try {
      mkdirSync(dir, { recursive: false });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        await write(process.stderr, `slowstart tests: cannot make '${dir}': ${errnoText(e)}\n`);
        return CANNOT_RUN;
      }
    }
    // The folder, opened as the native CLI opens it (a file there is "Not a directory").
    try {
      closeSync(openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY));
    } catch (e) {
      await write(process.stderr, `slowstart tests: cannot open '${dir}': ${errnoText(e)}\n`);
      return CANNOT_RUN;
    }
    // Everything checked before anything is written.
    for (const f of files) {
      const path = `${dir}/${f.name}`;
      let st: ReturnType<typeof lstatSync> | undefined;
      try {
        st = lstatSync(path);
      } catch {
        continue; // not there: written below
      }
      const why = st.isSymbolicLink() ? 'symlink' : !st.isFile() ? 'not-regular' : !force ? 'exists' : null;
      if (why) {
        await write(process.stderr, lab.testsOutBlocked(path, why));
        return CANNOT_RUN;
      }
    }
    for (const f of files) {
      const path = `${dir}/${f.name}`;
      const problem = writeAll(path, f.bytes, force ? constants.O_TRUNC : constants.O_EXCL);
      if (problem) {
        await write(process.stderr, `slowstart tests: cannot write '${path}': ${problem}\n`);
        return CANNOT_RUN;
      }
    }
  }
  await write(process.stderr, err);
  await write(process.stdout, out);
  return status;
}
