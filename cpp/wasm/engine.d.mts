// Types of the engine module built from cpp/wasm/bindings.cpp: plain C
// exports over the module's memory. Low level: web/api/engine-abi.ts wraps
// them, and the typed API in web/api is what to use.

export interface RawTimeline {
  names: string[];
  stepLine: Uint32Array;
  stepNow: Float64Array;
  stepWinner: Int32Array;
  stepBlock: Uint32Array;
  blockStart: Uint32Array;
  cellBackend: Uint32Array;
  cellUp: Uint8Array;
  cellWeight: Float64Array;
  cellScore: Float64Array;
  stepScoresEnd: Uint32Array;
  scoreCell: Uint32Array;
  scoreValue: Float64Array;
  scoredSteps: number;
  truncated: boolean;
  /** Some blocks hold only part of their pool (a light timeline: the lab module's `runLight`). */
  partial?: boolean;
  /**
   * Set by the reader, not the module: the score changes were left in the
   * module (stepScoresEnd, scoreCell and scoreValue are empty) and are worked
   * out from the winners under the SPEC's rules when asked for (timeline.ts).
   */
  scoresDerived?: boolean;
}

/** A run as web/api/run-view.ts reads it out of a module's RunView (cpp/wasm/run_view.hpp). */
export interface RawRun {
  /** Output lines, UTF-8, joined with '\n'. */
  outputBytes: Uint8Array;
  outputLines: Uint32Array;
  /** Diagnostics, UTF-8, joined with '\n'. */
  diagnosticBytes: Uint8Array;
  diagnosticLines: Uint32Array;
  /** Each diagnostic's columns, from and to (bytes of its line), two per diagnostic. */
  diagnosticColumns: Uint32Array;
  timeline?: RawTimeline;
  /** Output and diagnostics passed the 64 MiB cap; the rest was not kept. */
  truncated: boolean;
}

/** Addresses are into the module's memory; read them through HEAPU8 (it is replaced when memory grows). */
export interface EngineModule {
  /** The module's linear memory (it only ever grows). */
  HEAP8: Int8Array;
  HEAPU8: Uint8Array;
  _malloc(n: number): number;
  _free(address: number): void;
  /** The input buffer resized to n bytes: its address. */
  _ss_input(n: number): number;
  /** The length of the bytes whose address the last call returned. */
  _ss_length(): number;
  _ss_problem(): number;
  _ss_version(): number;
  _ss_usage(): number;
  /** The language's keywords: lines of word, usage and summary separated by tabs. */
  _ss_keywords(): number;
  /**
   * Runs the input buffer's first `length` bytes: the address of its RunView.
   * `timeline`: 0 none, 1 without the score changes (their columns empty: the
   * reader works them out, run-view.ts), 2 with them.
   */
  _ss_run(length: number, timeline: 0 | 1 | 2): number;
  _ss_release_run(): void;
  _ss_runner_new(): number;
  _ss_runner_delete(runner: number): void;
  _ss_runner_feed(runner: number, length: number): number;
  _ss_runner_finish(runner: number): void;
  _ss_runner_take(runner: number, diagnostics: number): number;
  _ss_runner_rejected(runner: number): number;
  _ss_balancer_new(): number;
  _ss_balancer_delete(balancer: number): void;
  /** The changes read strings from the input buffer; 0, or 1 and _ss_problem(). */
  _ss_balancer_set_pool(balancer: number, length: number): number;
  /** setPool's fast path: names as strings (the first `length` bytes), weights as u32 at `weightsAt`; 0, or 2 when not plain (nothing changed). */
  _ss_balancer_set_pool_numbers(balancer: number, length: number, weightsAt: number): number;
  _ss_balancer_set_now(balancer: number, length: number): number;
  _ss_balancer_add(balancer: number, length: number): number;
  _ss_balancer_down(balancer: number, length: number): number;
  _ss_balancer_up(balancer: number, length: number): number;
  _ss_balancer_now(balancer: number): number;
  _ss_balancer_size(balancer: number): number;
  _ss_balancer_name(balancer: number, index: number): number;
  /** Every name in pool order, joined with '\n'. */
  _ss_balancer_names(balancer: number): number;
  _ss_balancer_weights_line(balancer: number): number;
  /** Effective weights in pool order (doubles). */
  _ss_balancer_pool_weights(balancer: number): number;
  /** WEIGHTS' order (byte order of name) as pool positions (u32). */
  _ss_balancer_by_name(balancer: number): number;
  _ss_balancer_pick(balancer: number): number;
  _ss_balancer_pick_many(balancer: number, n: number): number;
}

/**
 * Options of `loadSlowStart()` and `loadLab()`: where the WebAssembly comes
 * from, and where the module's own messages go. Give none to load the
 * package's .wasm from next to its JavaScript (the shared instance); give
 * any to get a fresh instance. docs/EMBEDDING.md shows each bundler's set-up.
 */
export interface EngineOptions {
  /**
   * The URL of a file the module needs (`path` is `engine.wasm` or
   * `lab.wasm`; `prefix` is the folder of the module's script). Return your
   * own URL for it, e.g. a CDN's or where your bundler copied it.
   */
  locateFile?: (path: string, prefix: string) => string;
  /** The .wasm's bytes, when you have them already (then nothing is fetched). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * Emscripten's hook to instantiate the module yourself: call
   * `receive(instance)` with a `WebAssembly.Instance` of the module's bytes
   * made with `imports`; return `{}`. Typed without the WebAssembly
   * namespace, so a Node-only project needs no DOM lib.
   */
  instantiateWasm?: (imports: Record<string, Record<string, unknown>>, receive: (instance: object) => void) => object;
  /** Where the module's standard output goes (default: `console.log`). */
  print?: (text: string) => void;
  /** Where the module's standard error goes (default: `console.warn`). */
  printErr?: (text: string) => void;
  /** Called when the module aborts (a failed load among them). */
  onAbort?: (what: unknown) => void;
}

export default function createEngine(options?: EngineOptions): Promise<EngineModule>;
