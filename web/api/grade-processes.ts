/**
 * The process side of `slowstart grade` in the Node CLI, as the native CLI's
 * cpp/cli/grade_processes.cpp does it: running the learner's program once
 * per test, and making sure that nothing it starts outlives its test or
 * reaches anything of the grader's but the program's stdin and stdout
 * (docs/SECURITY.md, "Grading hostile programs").
 *
 * Each program starts detached (setsid: a session and a process group of
 * its own, no controlling terminal), in a PID namespace of its own where
 * one can be made (grade-namespace.ts: then all it starts dies with its
 * test, at once, and no sweep is needed), with no descriptor above 2 (the grader
 * closes those its caller left open: closeInherited), and with --user
 * through util-linux's `setpriv --init-groups`, so it has that user's
 * supplementary groups as the native CLI gives them (Node's own uid/gid
 * option drops them: libuv calls setgroups(0)). At the time limit, or past
 * the stdout cap, its process group gets SIGKILL; so does what is left of it
 * when it exits. Node cannot be a child subreaper, so without a namespace
 * what a program leaves running outside its group is found in /proc: with --user, every process of
 * that user that is not a running program or below one; without, every
 * process that carries this run's mark in its environment (a program that
 * clears its environment escapes that: use --user). Sweeps are bounded in
 * time and kill each stray's process group with it. With --user the tests
 * run in rounds, and after each round every process of the user is killed
 * by one kill(-1) as that user, atomic against fork; a user another run
 * holds (the abstract socket the native CLI binds too) or that has
 * processes is refused.
 */
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import type { RawOutcome } from '../wasm/lab.mjs';
import type { Readable } from 'node:stream';
import { errnoText } from './cli-io.js';
import { EXEC_FAILED, UNSHARE_FAILED } from './grade-namespace.js';

/** How long the pipes may stay open once the program has exited. */
const DRAIN_MS = 1000;
/** How long a sweep of strays may take when a test ends, and at the end (as the native CLI). */
export const SWEEP_MS = 1000;
export const LAST_SWEEP_MS = 5000;
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
export interface Runner {
  uid?: number;
  gid?: number;
  /** util-linux's setpriv, which gives the program --user's identity and groups. */
  setpriv?: string;
  /** A bare command name found on PATH as --user's user would find it (commandAsUser), by name. */
  found?: Map<string, string>;
  env: NodeJS.ProcessEnv;
  mark: string;
  running: Set<number>;
  /** Processes that started before the grader are never the programs'. */
  since: number;
  sweep?: ReturnType<typeof setImmediate>;
  /** The command that starts each program in a PID namespace of its own (grade-namespace.ts); none where none can be made. */
  namespace?: string[];
}

/** glibc's strerror() text back to its code, for the few exec can give. */
const EXEC_ERRORS: Record<string, string> = {
  'No such file or directory': 'ENOENT',
  'Permission denied': 'EACCES',
  'Exec format error': 'ENOEXEC',
  'Text file busy': 'ETXTBSY',
  'Not a directory': 'ENOTDIR',
  'Too many levels of symbolic links': 'ELOOP',
  'Argument list too long': 'E2BIG',
  'No space left on device': 'ENOSPC', // unshare: out of namespaces
  'Cannot allocate memory': 'ENOMEM',
  'Operation not permitted': 'EPERM',
};

/** One run; `stderrKept` bytes of its stderr are kept (the lab module's stderrKept: grade.hpp's kStderrKept). */
export function runOnce(argv: Uint8Array[], input: Uint8Array, timeoutMs: number, maxOutput: number, runner: Runner, stderrKept: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const start = performance.now();
    let settled = false;
    const finish = (o: RawOutcome) => {
      if (!settled) (settled = true), resolve(o);
    };
    const command = Buffer.from(argv[0]).toString();
    let child: ReturnType<typeof spawn>;
    try {
      const [file, args] = spawnArgs(argv);
      // In a PID namespace, descriptor 3 is its holder's lifeline (grade-namespace.ts).
      const stdio = (runner.namespace ? ['pipe', 'pipe', 'pipe', 'pipe'] : ['pipe', 'pipe', 'pipe']) as 'pipe'[];
      const program = runner.uid === undefined ? [file, ...args] : [runner.setpriv!, `--reuid=${runner.uid}`, `--regid=${runner.gid}`, '--init-groups', '--', commandAsUser(runner, file), ...args];
      const [first, ...rest] = runner.namespace ? [...runner.namespace, ...program] : program;
      child = spawn(first, rest, { detached: true, stdio, env: runner.env });
    } catch (e) {
      return finish(failedStart(e, command));
    }
    if (child.pid === undefined || !child.stdout || !child.stderr || !child.stdin) {
      // It did not start: 'error' says why (ENOENT, EACCES, EMFILE, ...).
      child.on('error', (e) => finish(failedStart(e, command)));
      return;
    }
    const pid = child.pid;
    runner.running.add(pid);
    // Closing it ends the holder, and with it every process of the namespace.
    const lifeline = child.stdio[3] as Readable | null | undefined;
    const endNamespace = () => lifeline?.destroy();
    lifeline?.on('error', () => {});
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
      endNamespace();
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
        endNamespace();
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
      clearTimeout(timer); // it ended in time: what is left is reading its pipes
      killGroup(); // what it left behind, so the pipes close
      endNamespace(); // and whatever left the group: all of the namespace at once
      runner.running.delete(pid);
      // With --user and no other test running, every process of the user
      // goes at once (atomic: a fork bomb cannot outrun it); else a sweep,
      // where no namespace already took everything.
      if (runner.uid !== undefined && runner.running.size === 0) killUser(runner);
      else if (!runner.namespace) strays(runner);
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
            endNamespace();
          }), DRAIN_MS);
      };
      drain();
    });
    child.on('close', () => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      runner.running.delete(pid);
      const e = exit ?? { code: null, signal: null, ms: Math.round(performance.now() - start) };
      const stderr = Buffer.concat(err);
      // setpriv or nsenter could not exec the program: it did not start (as execvp's failure in the native CLI).
      const said = stderr.toString('latin1');
      const execFailed = !outLength && (e.code === 127 || e.code === 126) && (runner.uid !== undefined || runner.namespace) ? EXEC_FAILED.exec(said) : null;
      if (execFailed) return finish(failedStart({ code: e.code === 127 ? 'ENOENT' : (EXEC_ERRORS[execFailed[1]] ?? 'EACCES') }, command));
      // The namespace could not be made (the probe's could: e.g. too many at once).
      const unshareFailed = runner.namespace && !outLength && e.code === 1 ? UNSHARE_FAILED.exec(said) : null;
      if (unshareFailed) return finish(failedStart({ code: EXEC_ERRORS[unshareFailed[1]] ?? 'EAGAIN' }, command));
      const ours = timedOut || outOver; // then the signal is our SIGKILL
      finish(
        outcome({
          out: Buffer.concat(out),
          outOver,
          err: stderr,
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

interface Proc {
  ppid: number;
  pgrp: number;
  state: string;
  start: number;
}

/** A process's "pid (comm) state ppid pgrp ... starttime (field 22)", from /proc; null when gone. */
function readStat(pid: number | string): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // comm may hold spaces and ')'
    return { state: fields[0], ppid: Number(fields[1]), pgrp: Number(fields[2]), start: Number(fields[19]) };
  } catch {
    return null;
  }
}

/** pid -> its stat, for every process (Linux; empty elsewhere), read until `deadline`. */
function processes(deadline = Infinity): Map<number, Proc> {
  const all = new Map<number, Proc>();
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return all;
  }
  for (const [k, name] of names.entries()) {
    if (k % 64 === 0 && performance.now() > deadline) break;
    if (!/^\d+$/.test(name)) continue;
    const p = readStat(name);
    if (p) all.set(Number(name), p);
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

function uidOf(pid: number): number | undefined {
  try {
    return statSync(`/proc/${pid}`).uid;
  } catch {
    return undefined;
  }
}

/** Kills the strays once the exits at hand are handled (one /proc scan for many). */
function strays(runner: Runner): void {
  if (runner.sweep) return;
  runner.sweep = setImmediate(() => {
    runner.sweep = undefined;
    killStrays(runner, SWEEP_MS);
  });
}

function kill(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone already
  }
}

/**
 * Kills what the programs left running outside their groups, each with its
 * process group (unless that is a running program's or the grader's): with
 * --user, each process of that user that is not a running program or below
 * one; without, each one still marked with this run's environment variable.
 * Round after round for at most `budgetMs`: true when none is left.
 */
export function killStrays(runner: Runner, budgetMs: number): boolean {
  const deadline = performance.now() + budgetMs;
  const ownGroup = readStat('self')?.pgrp ?? 0;
  for (;;) {
    const all = processes(deadline);
    const found: number[] = [];
    for (const [pid, p] of all) {
      if (pid === process.pid || runner.running.has(pid) || p.start < runner.since || p.state === 'Z') continue;
      const ours = runner.uid !== undefined ? uidOf(pid) === runner.uid : marked(pid, runner.mark);
      if (!ours) continue;
      let up = p.ppid;
      let below = false;
      for (let hops = 0; up > 1 && hops < 4096 && !below; hops++) {
        below = runner.running.has(up);
        up = all.get(up)?.ppid ?? 0;
      }
      if (!below) found.push(pid);
    }
    if (found.length === 0) return true;
    for (const pid of found) {
      const group = all.get(pid)!.pgrp;
      if (group > 1 && group !== ownGroup && !runner.running.has(group)) kill(-group);
      kill(pid);
    }
    if (performance.now() >= deadline) return false;
  }
}

/** The processes whose real or effective uid is `uid`, zombies aside. */
function processesOf(uid: number): number {
  let n = 0;
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch {
    return 0;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const status = readFileSync(`/proc/${name}/status`, 'latin1');
      if (/^State:\s+Z/m.test(status)) continue;
      const ids = /^Uid:\s+(\d+)\s+(\d+)/m.exec(status);
      if (ids && (Number(ids[1]) === uid || Number(ids[2]) === uid)) n++;
    } catch {
      // gone meanwhile
    }
  }
  return n;
}

const pause = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

/**
 * --user: every process of that user, wherever it is: kill(-1) as the user
 * (a shell's kill, run as the user), which the kernel does atomically
 * against fork. Then waits (a little) for them to be gone.
 */
export async function clearUser(runner: Runner): Promise<void> {
  if (runner.uid === undefined) return;
  killUser(runner);
  for (const until = performance.now() + 2000; processesOf(runner.uid) > 0 && performance.now() < until; ) await pause(2);
  killStrays(runner, 500);
}

/** --user: kill(-1) as the user, at once (what clearUser starts with, and a stopping signal does). */
export function killUser(runner: Runner): void {
  if (runner.uid === undefined) return;
  spawnSync('/bin/sh', ['-c', 'kill -s KILL -- -1'], { uid: runner.uid, gid: runner.gid, stdio: 'ignore', timeout: 2000 });
}

/** --user NAME: its uid and gid, or why not. */
export function runAs(name: string): { uid: number; gid: number } | string {
  const shown = JSON.stringify(name).slice(1, -1);
  let uid: number, gid: number;
  try {
    uid = Number(spawnSync('id', ['-u', '--', name], { stdio: ['ignore', 'pipe', 'ignore'] }).stdout.toString().trim() || NaN);
    gid = Number(spawnSync('id', ['-g', '--', name], { stdio: ['ignore', 'pipe', 'ignore'] }).stdout.toString().trim() || NaN);
  } catch {
    uid = gid = NaN;
  }
  if (Number.isNaN(uid) || Number.isNaN(gid)) return `--user: there is no user '${shown}'`;
  if (uid === 0) return `--user: '${shown}' is root: name an unprivileged user`;
  const me = process.geteuid?.() ?? -1;
  if (me !== 0) return `--user needs the grader to run as root (it runs as user ${me})`;
  return { uid, gid };
}

/**
 * A bare command name as --user's user finds it on PATH. setpriv looks the
 * name up while it still holds root's capabilities (it keeps them until it
 * execs), so it can pick a file in a folder closed to the user, such as a
 * pyenv shim under /root, that the program then cannot read ("bash:
 * /root/.pyenv/shims/python3: Permission denied"); the native CLI's execvp
 * runs as the user and goes on to /usr/bin/python3. So the name is looked up
 * once by a shell running as the user; a name it cannot find (or a shell
 * builtin) is left as it is, and fails to start as it would natively.
 */
function commandAsUser(runner: Runner, file: string): string {
  if (file.includes('/') || !file) return file;
  runner.found ??= new Map();
  let path = runner.found.get(file);
  if (path === undefined) {
    const looked = spawnSync(runner.setpriv!, [`--reuid=${runner.uid}`, `--regid=${runner.gid}`, '--init-groups', '--', '/bin/sh', '-c', 'command -v -- "$1"', 'sh', file], {
      env: runner.env,
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 5000,
    });
    const out = looked.stdout?.toString().replace(/\n$/, '') ?? '';
    path = looked.status === 0 && out.startsWith('/') && !out.includes('\n') ? out : file;
    runner.found.set(file, path);
  }
  return path;
}

/** util-linux's setpriv on PATH (or in /usr/bin, /bin), or null. */
export function findSetpriv(): string | null {
  const dirs = [...(process.env.PATH || '').split(':').filter(Boolean), '/usr/bin', '/bin'];
  return dirs.map((d) => `${d}/setpriv`).find((p) => existsSync(p)) ?? null;
}

/**
 * The user, for this run alone: the abstract socket "\0slowstart-grade-user-UID"
 * (which the native CLI binds too), and no process of the user running.
 * Returns the server to close at the end, or why the user is refused.
 */
export async function claimUser(name: string, uid: number): Promise<Server | string> {
  const shown = `--user: another run is using '${JSON.stringify(name).slice(1, -1)}'`;
  const why = '(every process of the user is killed after each round of tests: give each run a user of its own)';
  const server = createServer();
  const bound = await new Promise<string | null>((ok) => {
    server.once('error', (e: NodeJS.ErrnoException) => ok(e.code ?? 'error'));
    server.listen({ path: `\0slowstart-grade-user-${uid}` }, () => ok(null));
  });
  if (bound === 'EADDRINUSE') return `${shown} ${why}`;
  server.unref();
  const n = processesOf(uid);
  if (n > 0) {
    server.close();
    return `${shown}: it has ${n} ${n === 1 ? 'process' : 'processes'} running ${why}`;
  }
  return server;
}

/** A process's start time in clock ticks since boot (/proc/PID/stat); 0 when not known. */
export function startTime(pid: number): number {
  return readStat(pid)?.start ?? 0;
}

/**
 * Closes the descriptors above 2 that the grader's caller left open
 * (`exec 3>>log`, a harness's close_fds=False, Jenkins): Node's own are all
 * close-on-exec, but libuv passes the others on to every program. Node has
 * no fcntl to mark them, so the grader closes them; it needs none of them.
 * An IPC channel Node was given (NODE_CHANNEL_FD) stays.
 */
export function closeInherited(): void {
  if (process.platform !== 'linux') return;
  const channel = Number(process.env.NODE_CHANNEL_FD ?? -1);
  let fds: string[];
  try {
    fds = readdirSync('/proc/self/fd');
  } catch {
    return;
  }
  for (const name of fds) {
    const fd = Number(name);
    if (fd <= 2 || fd === channel) continue;
    try {
      const flags = /^flags:\s+([0-7]+)$/m.exec(readFileSync(`/proc/self/fdinfo/${fd}`, 'latin1'));
      if (flags && (Number.parseInt(flags[1], 8) & 0o2000000) === 0) closeSync(fd);
    } catch {
      // gone (the listing's own descriptor)
    }
  }
}
