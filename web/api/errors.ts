/**
 * Why an API call failed: a stable {@link SlowStartError.code} to branch on,
 * and a message to show. Every rejection of the API is a `SlowStartError`
 * (engine loading, a balancer's arguments, `run()`'s input, the lab's
 * scripts and options); messages may be reworded, codes do not change.
 */
export type SlowStartErrorCode =
  /** The WebAssembly could not be fetched, read or compiled: `url` names what was tried. */
  | 'WASM_LOAD_FAILED'
  /** The engine rejected an argument, with the message a script line would get (e.g. a bad weight or name). */
  | 'INVALID_ARGUMENT'
  /** An argument of the wrong JavaScript type (e.g. `run(42)`, `pickMany('3')`). */
  | 'WRONG_TYPE'
  /** A number outside what the call accepts (e.g. a negative or too large `pickMany` count). */
  | 'OUT_OF_RANGE'
  /** The result could not be allocated. */
  | 'OUT_OF_MEMORY'
  /** A method of a `Balancer` called after `dispose()`. */
  | 'DISPOSED'
  /** A script given to the lab was rejected at a line (`line`, `column`). */
  | 'SCRIPT_REJECTED'
  /**
   * A proxy's configuration or a canary's log given to the lab could not be
   * read (`line` and `column` where, 0 when it is the whole file).
   */
  | 'FILE_REJECTED'
  /**
   * A simulation over the work budget (its script, requests, rows, work or
   * requests in flight: `Lab.simulationLimits()`); the message says its size
   * and the limit. Nothing ran, or the run stopped and returned nothing.
   */
  | 'TOO_LARGE';

/** The error every API call throws or rejects with. */
export class SlowStartError extends Error {
  /** What went wrong, stable across versions (the message may change). */
  readonly code: SlowStartErrorCode;
  /** For `SCRIPT_REJECTED` and `FILE_REJECTED`: the 1-based line (0: the whole file). */
  declare readonly line?: number;
  /** For `SCRIPT_REJECTED` and `FILE_REJECTED`: the 1-based column on that line where the problem starts (0: the whole line). */
  declare readonly column?: number;
  /** For `WASM_LOAD_FAILED`: the URL (or, in Node, the file) that was tried. */
  declare readonly url?: string;

  private constructor(code: SlowStartErrorCode, message: string, where: { line?: number; column?: number; url?: string; cause?: unknown }) {
    super(message, where.cause === undefined ? undefined : { cause: where.cause });
    this.name = 'SlowStartError';
    this.code = code;
    if (where.line !== undefined) this.line = where.line;
    if (where.column !== undefined) this.column = where.column;
    if (where.url !== undefined) this.url = where.url;
  }

  /** @internal */
  static of(code: SlowStartErrorCode, message: string): SlowStartError {
    return new SlowStartError(code, message, {});
  }

  /** @internal */
  static atLine(message: string, line: number, column: number): SlowStartError {
    return new SlowStartError('SCRIPT_REJECTED', message, { line, column });
  }

  /** @internal */
  static inFile(message: string, line: number, column: number): SlowStartError {
    return new SlowStartError('FILE_REJECTED', message, { line, column });
  }

  /** @internal */
  static wasmLoadFailed(url: string, cause: unknown, said: readonly string[] = [], hint = ''): SlowStartError {
    const why = cause instanceof Error ? cause.message : String(cause);
    // What Emscripten printed while it failed (kept out of the console), when it adds to `why`.
    const more = said.filter((line) => !why.includes(line)).slice(0, 4);
    const message = `could not load the WebAssembly module from ${url}: ${why}${more.length ? ` (${more.join('; ')})` : ''}${hint}`;
    return new SlowStartError('WASM_LOAD_FAILED', message, { url, cause });
  }
}
