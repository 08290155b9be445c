/**
 * How the Node CLI moves bytes and ends when its standard streams fail,
 * exactly as the native CLI does (cpp/cli/stdio.hpp), so a grader never gets
 * a silent 0 with the output lost:
 *
 * - a write that fails (`>/dev/full`): the run stops,
 *   `slowstart: write error: <strerror>`, exit 2;
 * - a reader that went away (`| head -1`: EPIPE, or ECONNRESET when stdout
 *   is a socket closed with bytes unread): the CLI ends quietly, killed by
 *   SIGPIPE like `cat` or `seq` (status 141 in a shell);
 * - stdin a directory: `slowstart: read error: Is a directory`, exit 2.
 *
 * One case the Node CLI cannot see: a standard descriptor closed when it
 * starts (`>&-`, `2>&-`, `<&-`). Before any JavaScript runs, Node opens
 * /dev/null read-write in its place, which is exactly what harnesses pass to
 * discard output (Python's `subprocess.DEVNULL`, Node's `stdio: 'ignore'`),
 * and nothing in the process tells the two apart. So /dev/null is /dev/null:
 * output discarded, the exit status the script's, as the native CLI does with
 * a harness's /dev/null (the native CLI also reports `>&-`; README, "The CLI").
 */
import { closeSync, fstatSync, openSync, readFileSync, readSync, writeSync } from 'node:fs';
import type { Writable } from 'node:stream';

/** Exit status when the script cannot be read or the output cannot be written. */
export const CANNOT_RUN = 2;

/** glibc's strerror() wording, so that both CLIs print the same bytes. */
const ERRNO_TEXT: Record<string, string> = {
  ENOENT: 'No such file or directory',
  EACCES: 'Permission denied',
  EPERM: 'Operation not permitted',
  EISDIR: 'Is a directory',
  ENOTDIR: 'Not a directory',
  EBADF: 'Bad file descriptor',
  ENOSPC: 'No space left on device',
  EDQUOT: 'Disk quota exceeded',
  EFBIG: 'File too large',
  EIO: 'Input/output error',
  EROFS: 'Read-only file system',
  EINVAL: 'Invalid argument',
  ENXIO: 'No such device or address',
  ELOOP: 'Too many levels of symbolic links',
  ENAMETOOLONG: 'File name too long',
  EMFILE: 'Too many open files',
  ECONNRESET: 'Connection reset by peer',
  EPIPE: 'Broken pipe',
  ENOMEM: 'Cannot allocate memory',
  EAGAIN: 'Resource temporarily unavailable',
  ENOEXEC: 'Exec format error',
  ETXTBSY: 'Text file busy',
  E2BIG: 'Argument list too long',
};

/** The strerror() text of a Node system error. */
export function errnoText(e: unknown): string {
  const err = e as NodeJS.ErrnoException;
  return (err.code && ERRNO_TEXT[err.code]) ?? err.message;
}

/**
 * The trailing arguments `args` as the bytes the shell passed. Node decodes
 * arguments as UTF-8, which loses bytes that are not (a file name in
 * Latin-1); on Linux the raw bytes are in /proc/self/cmdline, whose last
 * entries are these. Elsewhere, or when nothing was lost, `args` itself.
 */
export function rawArguments(args: string[]): (string | Buffer)[] {
  if (process.platform !== 'linux' || !args.some((a) => a.includes('\uFFFD'))) return args;
  try {
    const raw = readFileSync('/proc/self/cmdline');
    const parts: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < raw.length; i++) {
      if (raw[i] === 0) {
        parts.push(raw.subarray(start, i));
        start = i + 1;
      }
    }
    return parts.length >= args.length ? parts.slice(parts.length - args.length) : args;
  } catch {
    return args;
  }
}

/** A standard stream could not be written. */
export class WriteFailure extends Error {
  constructor(readonly cause: NodeJS.ErrnoException) {
    super(`write error: ${errnoText(cause)}`);
  }
}

/** Why standard input cannot be read as a script (a directory), or null. */
export function stdinProblem(): string | null {
  try {
    if (fstatSync(0).isDirectory()) return `read error: ${ERRNO_TEXT.EISDIR}`;
  } catch (e) {
    return `read error: ${errnoText(e)}`;
  }
  return null;
}

// A failed stream also emits 'error', which would otherwise end the process
// with a stack trace; the first error is what the write reports.
const firstError = new WeakMap<Writable, NodeJS.ErrnoException>();

function watch(stream: Writable): void {
  if (stream.listeners('error').includes(remember)) return;
  stream.on('error', remember);
}

function remember(this: Writable, error: NodeJS.ErrnoException): void {
  if (!firstError.has(this)) firstError.set(this, error);
}

/**
 * Writes all of `text` and waits until the stream took it; rejects with a
 * {@link WriteFailure} when the stream failed (now or earlier).
 */
export function write(stream: Writable, text: string | Uint8Array): Promise<void> {
  watch(stream);
  const failed = firstError.get(stream);
  if (failed) return Promise.reject(new WriteFailure(failed));
  if (text.length === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    stream.write(text, (error) => {
      if (!error) return resolve();
      // After a failure the stream is destroyed: report the failure, not that.
      const cause = firstError.get(stream) ?? (error as NodeJS.ErrnoException);
      reject(new WriteFailure(cause));
    });
  });
}

/**
 * The exit status for a run that threw: a {@link WriteFailure} is reported
 * (or, for a reader that went away, ends the process by SIGPIPE); anything
 * else is a bug and is thrown again.
 */
export function exitStatusFor(error: unknown): number {
  if (!(error instanceof WriteFailure)) throw error;
  if (error.cause.code === 'EPIPE' || error.cause.code === 'ECONNRESET') dieOfSigpipe();
  try {
    writeSync(2, `slowstart: ${error.message}\n`);
  } catch {
    // stderr is what failed: the status still says it
  }
  return CANNOT_RUN;
}

/**
 * Ends the process the way the kernel ends a C program that writes to a
 * closed pipe. Node ignores SIGPIPE; libuv puts the default action back when
 * the last listener for a signal is removed.
 */
function dieOfSigpipe(): never {
  const listener = () => {};
  process.on('SIGPIPE', listener);
  process.off('SIGPIPE', listener);
  process.kill(process.pid, 'SIGPIPE');
  process.exit(128 + 13); // not reached where signals work as on Linux
}

/**
 * At most `max` bytes of file descriptor `fd` (the engine asks for one byte
 * past its script limit, so /dev/zero is never read to its end), as the
 * native CLI's fread loop does.
 */
function readUpTo(fd: number, max: number): Uint8Array {
  // Read in place into a buffer that doubles as it fills (no copy per read).
  let buffer = Buffer.allocUnsafe(Math.min(max, 1 << 16));
  let total = 0;
  while (total < max) {
    if (total === buffer.length) {
      const bigger = Buffer.allocUnsafe(Math.min(max, buffer.length * 2));
      buffer.copy(bigger, 0, 0, total);
      buffer = bigger;
    }
    let n: number;
    try {
      n = readSync(fd, buffer, total, buffer.length - total, null);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') continue; // a non-blocking stdin: wait for more
      throw e;
    }
    if (n === 0) break;
    total += n;
  }
  return buffer.subarray(0, total);
}

/**
 * A command's file argument (`-` or none: standard input), at most
 * `maxBytes` of it, or the problem worded as the native CLI words it. Shared
 * by simulate, fit and recommend (the engine says how much it takes).
 */
export function readArgument(path: string, maxBytes: number): Uint8Array | string {
  const stdin = path === '' || path === '-';
  const problem = stdin ? stdinProblem() : null;
  if (problem) return problem;
  let fd: number;
  try {
    fd = stdin ? 0 : openSync(path, 'r');
  } catch (e) {
    return `cannot open '${path}': ${errnoText(e)}`;
  }
  try {
    return readUpTo(fd, maxBytes);
  } catch (e) {
    // A directory opens, and fails here, as with fread: the file is named, as natively.
    return stdin ? `read error: ${errnoText(e)}` : `cannot read '${path}': ${errnoText(e)}`;
  } finally {
    if (!stdin) closeSync(fd);
  }
}
