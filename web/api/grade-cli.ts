/**
 * `slowstart grade` and `slowstart tests` in the Node CLI. Like the native
 * CLI (cpp/cli/grade_native.cpp), this file only touches files and runs the
 * learner's program; the options, the tests, the comparison, the diagnosis
 * and every byte of the report come from the same C++ (cpp/grading/grade.cpp,
 * in the lab module), so both CLIs print the same report.
 *
 * Each test runs the program with child_process.spawn, detached (a process
 * group of its own: setsid), the script on its stdin, as --user's user when
 * given. At the time limit, or past the stdout cap, the whole group gets
 * SIGKILL; when the program exits, what is left of its group is killed too.
 * Node cannot be a child subreaper, so what a program leaves running outside
 * its group is found in /proc instead (docs/SECURITY.md): with --user, every
 * process of that user that is not a running test's program or below one;
 * without, every process that still carries this run's mark in its
 * environment. They are killed whenever a test ends and at the end. File
 * names and arguments are bytes throughout: a name need not be UTF-8.
 */
import { execFileSync, spawn } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GradeSession, RawOutcome } from '../wasm/lab.mjs';
import { CANNOT_RUN, errnoText, rawArguments, write } from './cli-io.js';
import { loadLab } from './node.js';

/** How long the pipes may stay open once the program has exited. */
const DRAIN_MS = 1000;
/** Errors that say the grader, not the program, ran out of something. */
const EXHAUSTED = new Set(['EMFILE', 'ENFILE', 'EAGAIN', 'ENOMEM', 'ENOSPC']);

const EMPTY = new Uint8Array(0);

function outcome(fields: Partial<RawOutcome>): RawOutcome {
  return {
    started: true,
    startError: '',
    exhausted: false,
    out: EMPTY,
    outOver: false,
    err: EMPTY,
    errCut: false,
    exitCode: 0,
    signal: '',
    timedOut: false,
    ms: 0,
    ...fields,
  };
}

/**
 * True when `command` names a file: a path, or a name found on PATH (as
 * --user's user, a name not found is EACCES when a folder on PATH is closed
 * to it: that is "not found" all the same).
 */
function commandExists(command: string): boolean {
  const dirs = command.includes('/') ? [''] : (process.env.PATH || '/usr/local/bin:/usr/bin:/bin').split(':').map((d) => `${d || '.'}/`);
  return dirs.some((d) => existsSync(d + command));
}

function failedStart(e: unknown, command: string): RawOutcome {
  if ((e as NodeJS.ErrnoException).code === 'EACCES' && !commandExists(command)) e = Object.assign(new Error(), { code: 'ENOENT' });
  const code = (e as NodeJS.ErrnoException).code ?? '';
  return outcome({ started: false, startError: errnoText(e), exhausted: EXHAUSTED.has(code) });
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * The command and its arguments as spawn takes them. spawn takes strings
 * only, which cannot hold bytes that are not UTF-8: then the program starts
 * through `sh`, which turns each argument's octal escapes back into its bytes.
 */
function spawnArgs(argv: Uint8Array[]): [string, string[]] {
  try {
    const text = argv.map((a) => utf8.decode(a));
    return [text[0], text.slice(1)];
  } catch {
    const octal = (a: Uint8Array) => Array.from(a, (b) => `\\${b.toString(8).padStart(3, '0')}`).join('');
    const decode = 'for a do x=$(printf "${a}_"); set -- "$@" "${x%_}"; shift; done; exec "$@"';
    return ['/bin/sh', ['-c', decode, 'sh', ...argv.map(octal)]];
  }
}

/** How the programs run: as whom, and the mark their environment carries. */
interface Runner {
  uid?: number;
  gid?: number;
  env: NodeJS.ProcessEnv;
  mark: string;
  running: Set<number>;
  /** Processes that started before the grader are never the programs'. */
  since: number;
  sweep?: ReturnType<typeof setImmediate>;
}

/** One run of the program: spawn, feed the script, collect, kill the group when needed. */
/** One run; `stderrKept` bytes of its stderr are kept (the lab module's stderrKept: grade.hpp's kStderrKept). */
function runOnce(argv: Uint8Array[], input: Uint8Array, timeoutMs: number, maxOutput: number, runner: Runner, stderrKept: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const start = performance.now();
    let settled = false;
    const finish = (o: RawOutcome) => {
      if (!settled) (settled = true), resolve(o);
    };
    let child: ReturnType<typeof spawn>;
    try {
      const [file, args] = spawnArgs(argv);
      child = spawn(file, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'], env: runner.env, uid: runner.uid, gid: runner.gid });
    } catch (e) {
      return finish(failedStart(e, Buffer.from(argv[0]).toString()));
    }
    if (child.pid === undefined || !child.stdout || !child.stderr || !child.stdin) {
      // It did not start: 'error' says why (ENOENT, EACCES, EMFILE, ...).
      child.on('error', (e) => finish(failedStart(e, Buffer.from(argv[0]).toString())));
      return;
    }
    const pid = child.pid;
    runner.running.add(pid);
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let outLength = 0;
    let errLength = 0;
    let outOver = false;
    let errCut = false;
    let timedOut = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null; ms: number } | null = null;
    let drainTimer: ReturnType<typeof setTimeout> | undefined;
    const killGroup = () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', () => {}); // it started: 'exit' and 'close' tell the rest
    child.stdout.on('data', (chunk: Buffer) => {
      if (outOver) return;
      const room = maxOutput - outLength;
      if (chunk.length > room) {
        out.push(chunk.subarray(0, room));
        outLength = maxOutput;
        outOver = true;
        killGroup();
        child.stdout!.destroy();
        return;
      }
      out.push(chunk);
      outLength += chunk.length;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const room = stderrKept - errLength;
      if (chunk.length > room) errCut = true;
      if (room > 0) err.push(chunk.subarray(0, room));
      errLength += Math.min(room, chunk.length);
    });
    child.stdin.on('error', () => {}); // EPIPE: it did not read its stdin, and need not
    child.stdin.end(input);
    child.on('exit', (code, signal) => {
      exit = { code, signal, ms: Math.round(performance.now() - start) };
      killGroup(); // what it left behind, so the pipes close
      runner.running.delete(pid);
      strays(runner);
      // Whatever still holds the pipes after DRAIN_MS (something that escaped
      // the kills) is cut off: but only once the output already waiting in
      // the pipes is read (setImmediate runs after the poll for I/O).
      let heard = outLength + errLength;
      const drain = () => {
        drainTimer = setTimeout(() =>
          setImmediate(() => {
            if (outLength + errLength !== heard) {
              heard = outLength + errLength;
              drain();
              return;
            }
            child.stdout!.destroy();
            child.stderr!.destroy();
          }), DRAIN_MS);
      };
      drain();
    });
    child.on('close', () => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      runner.running.delete(pid);
      const e = exit ?? { code: null, signal: null, ms: Math.round(performance.now() - start) };
      const ours = timedOut || outOver; // then the signal is our SIGKILL
      finish(
        outcome({
          out: Buffer.concat(out),
          outOver,
          err: Buffer.concat(err),
          errCut,
          exitCode: e.code ?? 0,
          signal: ours || !e.signal ? '' : e.signal,
          timedOut,
          ms: e.ms,
        }),
      );
    });
  });
}

/** pid -> {ppid, uid, start} of every process, from /proc (Linux); empty elsewhere. */
function processes(): Map<number, { ppid: number; uid: number; start: number }> {
  const all = new Map<number, { ppid: number; uid: number; start: number }>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return all;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // "pid (comm) state ppid ... starttime (field 22)"; comm may hold spaces and ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const uid = statSync(`/proc/${name}`).uid;
      all.set(Number(name), { ppid: Number(fields[1]), uid, start: Number(fields[19]) });
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

function marked(pid: number, mark: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(mark);
  } catch {
    return false;
  }
}

/** Kills the strays once the exits at hand are handled (one /proc scan for many). */
function strays(runner: Runner): void {
  if (runner.sweep) return;
  runner.sweep = setImmediate(() => {
    runner.sweep = undefined;
    killStrays(runner);
  });
}

/**
 * Kills what the programs left running outside their groups: with --user,
 * each process of that user that is not a running program or below one;
 * without, each one still marked with this run's environment variable.
 */
function killStrays(runner: Runner): void {
  for (let round = 0; round < 1000; round++) {
    const all = processes();
    const strays: number[] = [];
    for (const [pid, p] of all) {
      if (pid === process.pid || runner.running.has(pid) || p.start < runner.since) continue;
      const ours = runner.uid !== undefined ? p.uid === runner.uid : marked(pid, runner.mark);
      if (!ours) continue;
      let up = p.ppid;
      let below = false;
      for (let hops = 0; up > 1 && hops < 4096 && !below; hops++) {
        below = runner.running.has(up);
        up = all.get(up)?.ppid ?? 0;
      }
      if (!below) strays.push(pid);
    }
    if (strays.length === 0) return;
    for (const pid of strays) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone already
      }
    }
  }
}

/** A process's start time in clock ticks since boot (/proc/PID/stat); 0 when not known. */
function startTime(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]) || 0;
  } catch {
    return 0;
  }
}

/** --user NAME: its uid and gid, or why not. */
function runAs(name: string): { uid: number; gid: number } | string {
  const shown = JSON.stringify(name).slice(1, -1);
  let uid: number, gid: number;
  try {
    uid = Number(execFileSync('id', ['-u', '--', name], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
    gid = Number(execFileSync('id', ['-g', '--', name], { stdio: ['ignore', 'pipe', 'ignore'] }).toString().trim());
  } catch {
    return `--user: there is no user '${shown}'`;
  }
  if (uid === 0) return `--user: '${shown}' is root: name an unprivileged user`;
  const me = process.geteuid?.() ?? -1;
  if (me !== 0) return `--user needs the grader to run as root (it runs as user ${me})`;
  return { uid, gid };
}

/** The open-file limit, from /proc/self/limits (Linux); undefined when not known. */
function fileLimit(): number | undefined {
  try {
    const m = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'latin1'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** The file access GradeRun needs (grade.hpp's GradeIo); names are bytes. */
const listTxt = (dir: Uint8Array): Uint8Array[] | string => {
  const base = Buffer.from(dir);
  try {
    return readdirSync(base, { encoding: 'buffer' }).filter((name) => {
      if (name.length <= 4 || name.subarray(name.length - 4).toString('latin1') !== '.txt') return false;
      try {
        return statSync(Buffer.concat([base, Buffer.from('/'), name])).isFile();
      } catch {
        return false;
      }
    });
  } catch (e) {
    return errnoText(e);
  }
};

/** A test's file: only a regular file is read (a link to /dev/zero or a FIFO is refused). */
const read = (path: Uint8Array): Uint8Array | string | null => {
  let fd: number;
  try {
    fd = openSync(Buffer.from(path), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : errnoText(e);
  }
  try {
    if (!fstatSync(fd).isFile()) return 'not a regular file';
    return readFileSync(fd);
  } catch (e) {
    return errnoText(e);
  } finally {
    closeSync(fd);
  }
};

/**
 * Scripts on disk for "{}": a dir test has its file; the others go to a
 * temporary directory (with --user all of them, readable by that user).
 */
function scriptPaths(session: GradeSession, copyAll: boolean): { paths: Uint8Array[]; cleanup: () => void } {
  const n = session.size();
  const paths = new Array<Uint8Array>(n).fill(EMPTY);
  if (!session.needsScriptPaths()) return { paths, cleanup: () => {} };
  const base = process.env.TMPDIR || tmpdir();
  let dir: string;
  try {
    dir = mkdtempSync(join(base, 'slowstart-grade-'));
  } catch (e) {
    throw new Error(`cannot make a temporary folder in '${base}' (TMPDIR): ${errnoText(e)}`);
  }
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    if (copyAll) chmodSync(dir, 0o711);
    for (let i = 0; i < n; i++) {
      const t = session.test(i);
      if (t.path.length && !copyAll) {
        paths[i] = t.path;
      } else {
        const path = join(dir, `test-${i + 1}.txt`);
        const problem = writeAll(path, t.script, constants.O_EXCL);
        if (problem) throw new Error(`cannot write '${path}': ${problem}`);
        paths[i] = Buffer.from(path);
      }
    }
  } catch (e) {
    cleanup();
    throw e;
  }
  return { paths, cleanup };
}

/**
 * Writes a file never through a symbolic link (O_NOFOLLOW; `flags` adds
 * O_EXCL or O_TRUNC), mode 0644: null, or why it could not.
 */
function writeAll(path: string | Uint8Array, bytes: Uint8Array, flags: number): string | null {
  let fd: number;
  try {
    fd = openSync(typeof path === 'string' ? path : Buffer.from(path), constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | flags, 0o644);
  } catch (e) {
    return errnoText(e);
  }
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    closeSync(fd);
    return null;
  } catch (e) {
    closeSync(fd);
    return errnoText(e);
  }
}

const STOPS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export async function grade(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const session = new lab.GradeSession();
  try {
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const started = session.start(rawArguments(args), {
      cpus: availableParallelism(),
      hostname: hostname(),
      now: Math.floor(Date.now() / 1000),
      sourceDateEpoch: epoch ? Number.parseInt(epoch, 10) : undefined,
      listTxt,
      read,
    });
    await write(process.stderr, started.err); // a warning when it starts
    if (!started.ok) {
      await write(process.stdout, started.out);
      return started.status;
    }
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
      if (typeof as === 'string') {
        await write(process.stderr, `slowstart grade: ${as}\n`);
        return CANNOT_RUN;
      }
      runner.uid = as.uid;
      runner.gid = as.gid;
    }
    const limit = fileLimit();
    // Each test holds three pipes, and Node itself some descriptors.
    if (limit !== undefined) await write(process.stderr, session.clampJobs(Math.max(1, Math.floor((limit - 64) / 4)), limit));
    let files: ReturnType<typeof scriptPaths>;
    try {
      files = scriptPaths(session, runner.uid !== undefined);
    } catch (e) {
      await write(process.stderr, `slowstart grade: ${(e as Error).message}\n`);
      return CANNOT_RUN;
    }
    // Stopping signals: every program killed, the files removed, then the
    // grader ends as that signal would end it.
    const stop = (sig: NodeJS.Signals) => {
      for (const pid of runner.running) {
        try {
          process.kill(-pid, 'SIGKILL');
        } catch {
          // gone
        }
      }
      runner.running.clear();
      killStrays(runner);
      files.cleanup();
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
      const worker = async () => {
        while (!cannotStart && next < n) {
          const i = next++;
          const o = await runOnce(session.argv(files.paths[i]), session.test(i).script, timeout, session.maxOutput(i), runner, lab.stderrKept);
          if (!o.started) cannotStart = true;
          session.setOutcome(i, o);
        }
      };
      await Promise.all(Array.from({ length: Math.min(session.jobs(), n) }, worker));
      killStrays(runner);
      if (runner.uid !== undefined) killUser(runner.uid, runner.gid!);
      const { out, err, status } = session.finish(Math.round(performance.now() - t0));
      await write(process.stderr, err);
      const output = session.output();
      if (output.length && status !== CANNOT_RUN) {
        const problem = writeAll(output, out, constants.O_TRUNC); // once every program is dead
        if (problem) {
          await write(process.stderr, `slowstart grade: cannot write the report to '${Buffer.from(output).toString()}': ${problem}\n`);
          return CANNOT_RUN;
        }
        return status;
      }
      await write(process.stdout, out);
      return status;
    } finally {
      for (const s of STOPS) process.removeListener(s, stop);
      files.cleanup();
    }
  } finally {
    session.delete();
  }
}

/** --user: every process of that user, wherever it is (kill -1 as the user). */
function killUser(uid: number, gid: number): void {
  try {
    execFileSync('kill', ['-KILL', '--', '-1'], { uid, gid, stdio: 'ignore' });
  } catch {
    // killed along with the rest: nothing of the user is left
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
