/**
 * The file side of `slowstart grade` and `slowstart tests` in the Node CLI,
 * as the native CLI's cpp/cli/grade_files.cpp does it: the tests' folder and
 * the submission as the grader reads them (grade.hpp's GradeIo), the
 * scripts written for "{}", and the report file (--output). File names are
 * bytes throughout: a name need not be UTF-8.
 */
import {
  chmodSync,
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  fsyncSync,
  lstatSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GradeSession, RawGradeEnv } from '../wasm/lab.mjs';
import { errnoText } from './cli-io.js';

const EMPTY = new Uint8Array(0);
const SLASH = Buffer.from('/');

/** DIR/NAME as bytes. */
const joined = (dir: Uint8Array, name: Uint8Array): Buffer =>
  dir.length && dir[dir.length - 1] === 0x2f ? Buffer.concat([dir, name]) : Buffer.concat([dir, SLASH, name]);

/** The names of the entries DIR/*.txt that are regular files (or links to one). */
const listTxt = (dir: Uint8Array): Uint8Array[] | string => {
  const base = Buffer.from(dir);
  try {
    return readdirSync(base, { encoding: 'buffer' }).filter((name) => {
      if (name.length <= 4 || name.subarray(name.length - 4).toString('latin1') !== '.txt') return false;
      try {
        return statSync(joined(base, name)).isFile();
      } catch {
        return false;
      }
    });
  } catch (e) {
    return errnoText(e);
  }
};

/**
 * A tests' file: only a regular file is read (a link to /dev/zero or a FIFO
 * is refused, never read without end or waited on), and through a symbolic
 * link only when it stays inside the folder (grade.hpp's kLinksOut).
 */
const readTest =
  (linksOut: string) =>
  (dir: Uint8Array, name: Uint8Array): Uint8Array | string | null => {
    const path = joined(dir, name);
    try {
      if (lstatSync(path).isSymbolicLink()) {
        const target = realpathSync(path, { encoding: 'buffer' });
        const folder = Buffer.concat([realpathSync(Buffer.from(dir), { encoding: 'buffer' }), SLASH]);
        if (!target.subarray(0, folder.length).equals(folder)) return linksOut;
      }
    } catch {
      // not there, or a broken link: open() says which
    }
    let fd: number;
    try {
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
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

/** The regular files below DIR, relative, links not followed, at most `most`. */
const listFiles = (dir: Uint8Array, most: number): { files: Uint8Array[]; problem?: string } => {
  const files: Buffer[] = [];
  const walk = (rel: Buffer | null, depth: number): string | undefined => {
    const here = rel ? joined(dir, rel) : Buffer.from(dir);
    for (const name of readdirSync(here, { encoding: 'buffer' })) {
      const path = rel ? joined(rel, name) : name;
      let st: ReturnType<typeof lstatSync>;
      try {
        st = lstatSync(joined(dir, path));
      } catch {
        continue;
      }
      if (st.isFile()) {
        if (files.length >= most) return `more than ${most} files`;
        files.push(path);
      } else if (st.isDirectory() && depth < 64) {
        try {
          const problem = walk(path, depth + 1);
          if (problem) return problem;
        } catch {
          // a folder it cannot read: skipped, as the native CLI does
        }
      }
    }
    return undefined;
  };
  try {
    const problem = walk(null, 0);
    return problem ? { files, problem } : { files };
  } catch (e) {
    return { files, problem: errnoText(e) };
  }
};

/** Up to `max` bytes of the file from `offset`, or a problem (never through a link, never a FIFO). */
const readAt = (path: Uint8Array, offset: number, max: number): Uint8Array | string => {
  let fd: number;
  try {
    fd = openSync(Buffer.from(path), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY | constants.O_NOFOLLOW);
  } catch (e) {
    return errnoText(e);
  }
  try {
    if (!fstatSync(fd).isFile()) return 'not a regular file';
    const bytes = Buffer.alloc(max);
    let got = 0;
    while (got < max) {
      const n = readSync(fd, bytes, got, max - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return bytes.subarray(0, got);
  } catch (e) {
    return errnoText(e);
  } finally {
    closeSync(fd);
  }
};

/** The file access GradeRun needs (grade.hpp's GradeIo); `linksOut`: the lab module's wording. */
export function gradeIo(linksOut: string): Pick<RawGradeEnv, 'listTxt' | 'read' | 'listFiles' | 'readAt'> {
  return { listTxt, read: readTest(linksOut), listFiles, readAt };
}

/**
 * Writes a file never through a symbolic link (O_NOFOLLOW; `flags` adds
 * O_EXCL or O_TRUNC), mode 0644: null, or why it could not.
 */
export function writeAll(path: string | Uint8Array, bytes: Uint8Array, flags: number): string | null {
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

/**
 * Scripts on disk for "{}": a dir test has its file; the others go to a
 * temporary directory (with --user all of them, readable by that user).
 */
export function scriptPaths(session: GradeSession, copyAll: boolean): { paths: Uint8Array[]; cleanup: () => void } {
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
 * Why --output's `path` cannot take a report, or null: a symbolic link, a
 * FIFO, a device or a folder there is refused at once, never opened (so
 * never waited on).
 */
export function reportTargetProblem(path: Uint8Array): string | null {
  try {
    const st = lstatSync(Buffer.from(path));
    if (st.isSymbolicLink()) return 'a symbolic link (a report is never written through one)';
    if (!st.isFile()) return 'not a regular file';
  } catch {
    // not there yet (or the write says why)
  }
  return null;
}

/**
 * Leaves `bytes` at --output's `path`: written to a new file beside it,
 * flushed, and renamed into place, so the file is always a whole report and
 * nothing is written through a link. Null, or why it could not.
 */
export function leaveReport(path: Uint8Array, bytes: Uint8Array): string | null {
  const problem = reportTargetProblem(path);
  if (problem) return problem;
  const target = Buffer.from(path);
  const slash = target.lastIndexOf(0x2f);
  const dir = target.subarray(0, slash + 1);
  const base = target.subarray(slash + 1);
  const temp = Buffer.concat([dir, Buffer.from('.'), base, Buffer.from(`.slowstart-${randomBytes(6).toString('hex')}`)]);
  let fd: number | undefined;
  try {
    fd = openSync(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
    fchmodSync(fd, 0o644);
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd); // a full disk may only say so here
    closeSync(fd);
    fd = undefined;
    renameSync(temp, target);
    return null;
  } catch (e) {
    if (fd !== undefined) closeSync(fd);
    for (const file of [temp, target]) {
      // The temporary file (if made), and an older report at the target:
      // the report is this run's or nothing (a full disk, above all).
      try {
        unlinkSync(file);
      } catch {
        // never made, or not there
      }
    }
    return errnoText(e);
  }
}
