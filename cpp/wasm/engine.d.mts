// Types of the embind module built from cpp/wasm/bindings.cpp. Low level:
// use the typed API in web/api instead.

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
}

export interface RawRun {
  /** Output lines, UTF-8, joined with '\n'. */
  outputBytes: Uint8Array;
  outputLines: Uint32Array;
  /** Diagnostics, UTF-8, joined with '\n'. */
  diagnosticBytes: Uint8Array;
  diagnosticLines: Uint32Array;
  timeline?: RawTimeline;
  /** Output and diagnostics passed the 64 MiB cap; the rest was not kept. */
  truncated: boolean;
}

interface Deletable {
  delete(): void;
  isDeleted(): boolean;
}

export interface RawTextRunner extends Deletable {
  /** Feeds the input buffer's first `length` bytes; returns how many were taken (feed the rest after draining). */
  feed(length: number): number;
  finish(): void;
  takeOutput(): Uint8Array;
  takeDiagnostics(): Uint8Array;
  rejected(): number;
}

/** Changes return undefined, or an Error to throw (never thrown through WebAssembly). */
export interface RawBalancer extends Deletable {
  setPool(names: string[], weights: string[]): Error | undefined;
  setNow(seconds: string): Error | undefined;
  add(name: string, weight: string, ramp: string): Error | undefined;
  down(name: string): Error | undefined;
  up(name: string, ramp: string): Error | undefined;
  now(): number;
  size(): number;
  name(index: number): string;
  weightsLine(): string;
  weights(): Float64Array;
  pick(): number;
  pickMany(n: number): Int32Array;
}

export interface EngineModule {
  version: string;
  usage: string;
  /** The module's linear memory (it only ever grows). */
  HEAP8: Int8Array;
  /** The module's input buffer resized to n bytes (valid until the next call into the module). */
  inputBuffer(n: number): Uint8Array;
  /** Runs the input buffer's first `length` bytes. */
  run(length: number, withTimeline: boolean): RawRun;
  TextRunner: { new (): RawTextRunner };
  Balancer: { new (): RawBalancer };
}

export interface EngineOptions {
  locateFile?: (path: string, prefix: string) => string;
  wasmBinary?: ArrayBuffer | Uint8Array;
  instantiateWasm?: (
    imports: WebAssembly.Imports,
    receive: (instance: WebAssembly.Instance) => void,
  ) => WebAssembly.Exports | {};
  print?: (text: string) => void;
  printErr?: (text: string) => void;
  onAbort?: (what: unknown) => void;
}

export default function createEngine(options?: EngineOptions): Promise<EngineModule>;
