import { SlowStartError, type SlowStartErrorCode } from './errors.js';

/**
 * The engine returns problems as Error objects instead of throwing them
 * through WebAssembly (which would leak the module's stack); this throws
 * them as a `SlowStartError`: the code the engine set on the Error (e.g.
 * `WRONG_TYPE`, `TOO_LARGE`), else `INVALID_ARGUMENT` with the engine's
 * message, or `SCRIPT_REJECTED` with its line when the message starts `line N: `.
 */
export function raise<T>(result: T | Error): T {
  if (!(result instanceof Error)) return result;
  const code = (result as Error & { code?: SlowStartErrorCode }).code;
  if (code) throw SlowStartError.of(code, result.message);
  const at = /^line (\d+): /.exec(result.message);
  throw at ? SlowStartError.atLine(result.message.slice(at[0].length), Number(at[1]), 1) : SlowStartError.of('INVALID_ARGUMENT', result.message);
}
