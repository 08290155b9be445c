/**
 * The Node CLI's `slowstart fit` and `slowstart recommend` (docs/YOUR-SYSTEM.md): all of it is the
 * engine's (cpp/system/fit_command.cpp through the lab module), as in the
 * native CLI; this file reads the file and moves the bytes.
 */
import { readFileSync } from 'node:fs';
import { errnoText, stdinProblem, write } from './cli-io.js';
import { loadLab } from './node.js';

/** A subcommand's file (`-` or none: standard input), or the problem the native CLI words. */
export function readInput(path: string): Uint8Array | string {
  const stdin = path === '' || path === '-';
  const problem = stdin ? stdinProblem() : null;
  if (problem) return problem;
  try {
    return readFileSync(stdin ? 0 : path);
  } catch (e) {
    return stdin ? `read error: ${errnoText(e)}` : `cannot open '${path}': ${errnoText(e)}`;
  }
}

/** `slowstart fit ...` or `slowstart recommend ...`: the exit status. */
export async function systemCommand(name: 'fit' | 'recommend', args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const { out, err, status } = (name === 'fit' ? lab.fitCommand : lab.recommendCommand)(args, readInput);
  await write(process.stderr, err);
  await write(process.stdout, out);
  return status;
}
