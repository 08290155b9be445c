#!/usr/bin/env node
/**
 * The Node CLI, `npx slowstart FILE`: byte for byte the native
 * `build/slowstart`. The engine formats every line (TextRunner uses the same
 * C++ sink as the native CLI); this file only moves bytes and sets the exit
 * status. Input is streamed, so memory stays flat on any script length.
 * When a standard stream fails, it ends as the native CLI does (cli-io.ts).
 */
import { createReadStream, readFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { CANNOT_RUN, errnoText, exitStatusFor, rawArguments, stdinProblem, write, WriteFailure } from './cli-io.js';
import { grade, tests } from './grade-cli.js';
import { systemCommand } from './system-cli.js';
import { loadLab, loadSlowStart } from './node.js';

/** `slowstart simulate ...`: all of it is the engine's, as in the native CLI. */
async function simulate(args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const read = (path: string): Uint8Array | string => {
    const stdin = path === '' || path === '-';
    const problem = stdin ? stdinProblem() : null;
    if (problem) return problem;
    try {
      return readFileSync(stdin ? 0 : path);
    } catch (e) {
      return stdin ? `read error: ${errnoText(e)}` : `cannot open '${path}': ${errnoText(e)}`;
    }
  };
  const { out, err, status } = lab.simulateCommand(args, read);
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
  const engine = (await loadSlowStart()).module;
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
      if ((e as NodeJS.ErrnoException).syscall === 'open') {
        // The name as given, byte for byte (it may not be UTF-8).
        const name = typeof file === 'string' ? Buffer.from(file) : file!;
        await write(
          process.stderr,
          Buffer.concat([Buffer.from("slowstart: cannot open '"), name, Buffer.from(`': ${errnoText(e)}\n`)]),
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

process.exitCode = await main(process.argv.slice(2)).catch(exitStatusFor);
