#!/usr/bin/env node
/**
 * The Node CLI, `npx --no-install slowstart FILE` (the package installed from its file): byte for byte the native
 * `build/slowstart`. The engine formats every line (TextRunner uses the same
 * C++ sink as the native CLI); this file only moves bytes and sets the exit
 * status. Input is streamed, so memory stays flat on any script length.
 * When a standard stream fails, it ends as the native CLI does (cli-io.ts).
 */
import { createReadStream, writeSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CANNOT_RUN, errnoText, exitStatusFor, rawArguments, readArgument, stdinProblem, write, WriteFailure } from './cli-io.js';
import { grade, tests } from './grade-cli.js';
import { systemCommand } from './system-cli.js';
import { loadLab, loadSlowStart } from './node.js';

/**
 * The module's messages of its own (an abort's "Aborted(...)") are not
 * printed: the CLI says what went wrong in one line of its own (`failed`).
 */
const QUIET = { printErr: () => {} };

/** `slowstart simulate ...`: all of it is the engine's, as in the native CLI. */
async function simulate(args: string[]): Promise<number> {
  const lab = (await loadLab(QUIET)).module;
  const { out, err, status } = lab.simulateCommand(args, readArgument);
  await write(process.stderr, err);
  await write(process.stdout, out);
  return status;
}

/**
 * The script path as the bytes the shell passed. Node decodes arguments as
 * UTF-8, which loses a file name that is not valid UTF-8; on Linux the raw
 * bytes are in /proc/self/cmdline (the user's arguments are its last ones).
 */
function rawPath(path: string, argv: string[]): string | Buffer {
  return rawArguments(argv)[argv.indexOf(path)] ?? path;
}

async function main(argv: string[]): Promise<number> {
  if (argv[0] === 'simulate') return simulate(argv.slice(1));
  if (argv[0] === 'grade') return grade(argv.slice(1));
  if (argv[0] === 'fit' || argv[0] === 'recommend') return systemCommand(argv[0], argv.slice(1));
  if (argv[0] === 'tests') return tests(argv.slice(1));
  const engine = (await loadSlowStart(QUIET)).module;
  let path: string | undefined;
  for (const arg of argv) {
    if (arg === '-h' || arg === '--help') {
      await write(process.stdout, engine.usage);
      return 0;
    }
    if (arg === '--version') {
      await write(process.stdout, `slowstart ${engine.version}\n`);
      return 0;
    }
    if (arg.length > 1 && arg.startsWith('-')) {
      await write(process.stderr, `slowstart: unknown option '${arg}'\n\n${engine.usage}`);
      return CANNOT_RUN;
    }
    if (path !== undefined) {
      await write(process.stderr, `slowstart: one script at a time\n\n${engine.usage}`);
      return CANNOT_RUN;
    }
    path = arg;
  }

  const file = path === undefined || path === '-' ? undefined : rawPath(path, argv);
  const unreadable = file === undefined ? stdinProblem() : null;
  if (unreadable) {
    await write(process.stderr, `slowstart: ${unreadable}\n`);
    return CANNOT_RUN;
  }
  const input: Readable = file === undefined ? process.stdin : createReadStream(file);
  const runner = new engine.TextRunner();
  try {
    try {
      for await (const chunk of input) {
        // Raw bytes: no UTF-8 decoding on the way in. The engine pauses when
        // 64 KiB of text waits, so memory stays flat however much is printed.
        let rest = chunk as Uint8Array;
        while (rest.length > 0) {
          engine.inputBuffer(rest.length).set(rest);
          rest = rest.subarray(runner.feed(rest.length));
          await write(process.stderr, runner.takeDiagnostics());
          await write(process.stdout, runner.takeOutput());
        }
      }
    } catch (e) {
      if (e instanceof WriteFailure) throw e; // the output's fault, not the input's
      if (file !== undefined) {
        // The name as given, byte for byte (it may not be UTF-8): "cannot
        // open" when it does not open, "cannot read" when it opens and fails
        // (a directory), as natively.
        const name = typeof file === 'string' ? Buffer.from(file) : file;
        const verb = (e as NodeJS.ErrnoException).syscall === 'open' ? 'open' : 'read';
        await write(
          process.stderr,
          Buffer.concat([Buffer.from(`slowstart: cannot ${verb} '`), name, Buffer.from(`': ${errnoText(e)}\n`)]),
        );
      } else {
        await write(process.stderr, `slowstart: read error: ${errnoText(e)}\n`);
      }
      return CANNOT_RUN;
    }
    runner.finish();
    await write(process.stderr, runner.takeDiagnostics());
    await write(process.stdout, runner.takeOutput());
    return runner.rejected() > 0 ? 1 : 0;
  } finally {
    runner.delete();
  }
}

/**
 * How the CLI ends on what it did not expect: a failed standard stream as
 * the native CLI does (cli-io.ts); anything else, such as the WebAssembly
 * module aborting (out of memory), in one line and exit 2: never a stack
 * trace that quotes a line of the minified glue.
 */
function failed(error: unknown): number {
  if (error instanceof WriteFailure) return exitStatusFor(error);
  const what = (error instanceof Error ? error.message : String(error)).split('\n')[0].slice(0, 200);
  // An abort's message is "Aborted(...). Build with -s ASSERTIONS=1 for more
  // info.": the first sentence is the news; the build hint is the project's.
  const line =
    error instanceof WebAssembly.RuntimeError
      ? `slowstart: the engine aborted (out of memory?): ${what.replace(/\. Build with .*$/, '')}`
      : `slowstart: the engine stopped: ${what}`;
  try {
    writeSync(2, `${line}\n`);
  } catch {
    // stderr is gone: the status still says it
  }
  return CANNOT_RUN;
}

process.exitCode = await main(process.argv.slice(2)).catch(failed);
