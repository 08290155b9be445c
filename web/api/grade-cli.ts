/**
 * `slowstart grade` and `slowstart tests` in the Node CLI. Like the native
 * CLI (cpp/cli/grade_native.cpp), this file only touches files and runs the
 * learner's program; the options, the tests, the comparison, the diagnosis
 * and every byte of the report come from the same C++ (cpp/grading/grade.cpp,
 * in the lab module), so both CLIs print the same report.
 *
 * Each test runs the program with child_process.spawn, detached (a process
 * group of its own: setsid), the script on its stdin. At the time limit, or
 * past the stdout cap, the whole group gets SIGKILL; when the program exits,
 * what is left of its group is killed too, so no leftover holds the pipes.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism, hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GradeSession, RawOutcome } from '../wasm/lab.mjs';
import { CANNOT_RUN, errnoText, write } from './cli-io.js';
import { loadLab } from './node.js';

/** How long the pipes may stay open once the program has exited. */
const DRAIN_MS = 1000;

const EMPTY = new Uint8Array(0);

function outcome(fields: Partial<RawOutcome>): RawOutcome {
  return {
    started: true,
    startError: '',
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

/** One run of the program: spawn, feed the script, collect, kill the group when needed. */
/** One run; `stderrKept` bytes of its stderr are kept (the lab module's stderrKept: grade.hpp's kStderrKept). */
function runOnce(argv: string[], input: Uint8Array, timeoutMs: number, maxOutput: number, stderrKept: number): Promise<RawOutcome> {
  return new Promise((resolve) => {
    const start = performance.now();
    let settled = false;
    const finish = (o: RawOutcome) => {
      if (!settled) (settled = true), resolve(o);
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(argv[0], argv.slice(1), { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    } catch (e) {
      return finish(outcome({ started: false, startError: errnoText(e) }));
    }
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
        if (child.pid) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is gone already
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    child.on('error', (e) => {
      // Only a program that never started reports here (ENOENT, EACCES).
      if (child.pid === undefined) {
        clearTimeout(timer);
        finish(outcome({ started: false, startError: errnoText(e) }));
      }
    });
    child.stdout!.on('data', (chunk: Buffer) => {
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
    child.stderr!.on('data', (chunk: Buffer) => {
      const room = stderrKept - errLength;
      if (chunk.length > room) errCut = true;
      if (room > 0) err.push(chunk.subarray(0, room));
      errLength += Math.min(room, chunk.length);
    });
    child.stdin!.on('error', () => {}); // EPIPE: it did not read its stdin, and need not
    child.stdin!.end(input);
    child.on('exit', (code, signal) => {
      exit = { code, signal, ms: Math.round(performance.now() - start) };
      killGroup(); // what it left behind, so the pipes close
      drainTimer = setTimeout(() => {
        child.stdout!.destroy();
        child.stderr!.destroy();
      }, DRAIN_MS);
    });
    child.on('close', () => {
      clearTimeout(timer);
      clearTimeout(drainTimer);
      if (child.pid === undefined) return; // 'error' reported it
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

/** The file access GradeRun needs (grade.hpp's GradeIo). */
const listTxt = (dir: string): string[] | string => {
  try {
    return readdirSync(dir).filter((name) => {
      if (name.length <= 4 || !name.endsWith('.txt')) return false;
      try {
        return statSync(join(dir, name)).isFile();
      } catch {
        return false;
      }
    });
  } catch (e) {
    return errnoText(e);
  }
};

const read = (path: string): Uint8Array | string | null => {
  try {
    return readFileSync(path);
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'ENOENT' ? null : errnoText(e);
  }
};

/** Scripts on disk for "{}": a dir test has its file; the others go to a temporary directory. */
function scriptPaths(session: GradeSession): { paths: string[]; cleanup: () => void } {
  const n = session.size();
  const paths = new Array<string>(n).fill('');
  if (!session.needsScriptPaths()) return { paths, cleanup: () => {} };
  const dir = mkdtempSync(join(process.env.TMPDIR || tmpdir(), 'slowstart-grade-'));
  for (let i = 0; i < n; i++) {
    const t = session.test(i);
    if (t.path) {
      paths[i] = t.path;
    } else {
      paths[i] = join(dir, `${t.id}.txt`);
      writeFileSync(paths[i], t.script);
    }
  }
  return { paths, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function grade(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const session = new lab.GradeSession();
  try {
    const epoch = process.env.SOURCE_DATE_EPOCH;
    const started = session.start(args, {
      cpus: availableParallelism(),
      hostname: hostname(),
      now: Math.floor(Date.now() / 1000),
      sourceDateEpoch: epoch ? Number.parseInt(epoch, 10) : undefined,
      listTxt,
      read,
    });
    if (!started.ok) {
      await write(process.stderr, started.err);
      await write(process.stdout, started.out);
      return started.status;
    }
    let files: ReturnType<typeof scriptPaths>;
    try {
      files = scriptPaths(session);
    } catch (e) {
      await write(process.stderr, `slowstart grade: cannot write the scripts for {}: ${errnoText(e)}\n`);
      return CANNOT_RUN;
    }
    try {
      const t0 = performance.now();
      const n = session.size();
      const timeout = session.timeoutMs();
      const cap = session.maxOutput();
      let next = 0;
      let cannotStart = false;
      const worker = async () => {
        while (!cannotStart && next < n) {
          const i = next++;
          const o = await runOnce(session.argv(files.paths[i]), session.test(i).script, timeout, cap, lab.stderrKept);
          if (!o.started) cannotStart = true;
          session.setOutcome(i, o);
        }
      };
      await Promise.all(Array.from({ length: Math.min(session.jobs(), n) }, worker));
      const { out, err, status } = session.finish(Math.round(performance.now() - t0));
      await write(process.stderr, err);
      await write(process.stdout, out);
      return status;
    } finally {
      files.cleanup();
    }
  } finally {
    session.delete();
  }
}

export async function tests(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const { out, err, status, dir, files } = lab.testsCommand(args);
  if (status === 0 && dir) {
    try {
      mkdirSync(dir, { recursive: false });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') {
        await write(process.stderr, `slowstart tests: cannot make '${dir}': ${errnoText(e)}\n`);
        return CANNOT_RUN;
      }
    }
    for (const f of files) {
      const path = `${dir}/${f.name}`;
      try {
        writeFileSync(path, f.bytes);
      } catch (e) {
        await write(process.stderr, `slowstart tests: cannot write '${path}': ${errnoText(e)}\n`);
        return CANNOT_RUN;
      }
    }
  }
  await write(process.stderr, err);
  await write(process.stdout, out);
  return status;
}
