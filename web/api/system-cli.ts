/**
 * The Node CLI's `slowstart fit` and `slowstart recommend` (docs/YOUR-SYSTEM.md): all of it is the
 * engine's (cpp/system/fit_command.cpp through the lab module), as in the
 * native CLI; this file reads the file and moves the bytes.
 */
import { readArgument, write } from './cli-io.js';
import { loadLab } from './node.js';

/** `slowstart fit ...` or `slowstart recommend ...`: the exit status. */
export async function systemCommand(name: 'fit' | 'recommend', args: string[]): Promise<number> {
  const lab = (await loadLab()).module;
  const { out, err, status } = (name === 'fit' ? lab.fitCommand : lab.recommendCommand)(args, readArgument);
  await write(process.stderr, err);
  await write(process.stdout, out);
  return status;
}
