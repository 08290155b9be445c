/**
 * The engine module's plain C exports (cpp/wasm/bindings.cpp) as the few
 * objects the API needs: a script run, a streaming text runner (the Node
 * CLI) and a raw balancer. Arguments go in through the module's input
 * buffer; results come back as an address and a length in its memory and
 * are copied out at once (the memory may grow, and be replaced, on the next
 * call).
 */
import type { EngineModule, RawRun } from '../wasm/engine.mjs';
import { readRun } from './run-view.js';
import { toUtf16Columns } from './columns.js';
import type { Keyword } from './types.js';
import { decodeText, writeInput } from './wasm-io.js';

const encoder = new TextEncoder();

/** A string argument: text, or bytes to pass as they are (see wtf8.ts). */
export type Bytes = string | Uint8Array;

export interface RawTextRunner {
  /** Feeds the input buffer's first `length` bytes; returns how many were taken (feed the rest after draining). */
  feed(length: number): number;
  finish(): void;
  /**
   * The text waiting since the last take, as a view into the module's memory:
   * valid until the next call into the module (write it out, or copy it,
   * first). A view, not a copy: the Node CLI takes 64 KiB at a time, and a
   * copy each time was garbage that cost whole collections mid-run.
   */
  takeOutput(): Uint8Array;
  takeDiagnostics(): Uint8Array;
  rejected(): number;
  delete(): void;
}

/** Changes return undefined, or an Error to throw. */
export interface RawBalancer {
  setPool(names: Bytes[], weights: string[]): Error | undefined;
  setNow(seconds: string): Error | undefined;
  add(name: Bytes, weight: string, ramp: string): Error | undefined;
  down(name: Bytes): Error | undefined;
  up(name: Bytes, ramp: string): Error | undefined;
  now(): number;
  size(): number;
  name(index: number): string;
  /** Every name, in pool order. */
  names(): string[];
  weightsLine(): string;
  /** Effective weights in pool order. */
  poolWeights(): Float64Array;
  /** WEIGHTS' order (byte order of name) as pool positions. */
  byName(): Uint32Array;
  pick(): number;
  pickMany(n: number): Int32Array;
  delete(): void;
  isDeleted(): boolean;
}

export class Engine {
  readonly #m: EngineModule;
  /** The engine's version and the CLI's usage text. */
  readonly version: string;
  readonly usage: string;
  /** The language's keywords (cpp/core/command.hpp's table). */
  readonly keywords: readonly Keyword[];
  /** A streaming runner in the CLI's text format. */
  readonly TextRunner: new () => RawTextRunner;
  readonly Balancer: new () => RawBalancer;

  constructor(module: EngineModule) {
    this.#m = module;
    const m = module;
    this.version = decodeText(this.bytes(m._ss_version()));
    this.usage = decodeText(this.bytes(m._ss_usage()));
    this.keywords = Object.freeze(
      decodeText(this.bytes(m._ss_keywords()))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => {
          const [word, usage, summary, min, max, kinds] = line.split('\t');
          const args = Object.freeze(kinds === '' ? [] : (kinds.split(' ') as Keyword['args'][number][]));
          const maxArgs = max === 'any' ? Infinity : Number(max);
          return Object.freeze({ word, usage, summary, minArgs: Number(min), maxArgs, args });
        }),
    );
    const engine = this;
    this.TextRunner = class {
      readonly #r = m._ss_runner_new();
      feed(length: number): number {
        return m._ss_runner_feed(this.#r, length);
      }
      finish(): void {
        m._ss_runner_finish(this.#r);
      }
      takeOutput(): Uint8Array {
        return engine.view(m._ss_runner_take(this.#r, 0));
      }
      takeDiagnostics(): Uint8Array {
        return engine.view(m._ss_runner_take(this.#r, 1));
      }
      rejected(): number {
        return m._ss_runner_rejected(this.#r);
      }
      delete(): void {
        m._ss_runner_delete(this.#r);
      }
    };
    this.Balancer = class {
      #b = m._ss_balancer_new();
      #call(change: (b: number, length: number) => number, args: Bytes[]): Error | undefined {
        const length = engine.writeStrings(args);
        return change(this.#b, length) === 0 ? undefined : new Error(decodeText(engine.bytes(m._ss_problem())));
      }
      setPool(names: Bytes[], weights: string[]): Error | undefined {
        return this.#call(m._ss_balancer_set_pool, names.flatMap((n, i) => [n, weights[i] ?? '']));
      }
      setNow(seconds: string): Error | undefined {
        return this.#call(m._ss_balancer_set_now, [seconds]);
      }
      add(name: Bytes, weight: string, ramp: string): Error | undefined {
        return this.#call(m._ss_balancer_add, [name, weight, ramp]);
      }
      down(name: Bytes): Error | undefined {
        return this.#call(m._ss_balancer_down, [name]);
      }
      up(name: Bytes, ramp: string): Error | undefined {
        return this.#call(m._ss_balancer_up, [name, ramp]);
      }
      now(): number {
        return m._ss_balancer_now(this.#b);
      }
      size(): number {
        return m._ss_balancer_size(this.#b);
      }
      name(index: number): string {
        return decodeText(engine.bytes(m._ss_balancer_name(this.#b, index)));
      }
      names(): string[] {
        const text = decodeText(engine.bytes(m._ss_balancer_names(this.#b)));
        return m._ss_balancer_size(this.#b) === 0 ? [] : text.split('\n');
      }
      weightsLine(): string {
        return decodeText(engine.bytes(m._ss_balancer_weights_line(this.#b)));
      }
      // (The address first: the call may grow the memory, which replaces HEAPU8's buffer.)
      poolWeights(): Float64Array {
        const n = m._ss_balancer_size(this.#b);
        const at = m._ss_balancer_pool_weights(this.#b);
        return new Float64Array(m.HEAPU8.buffer, at, n).slice();
      }
      byName(): Uint32Array {
        const n = m._ss_balancer_size(this.#b);
        const at = m._ss_balancer_by_name(this.#b);
        return new Uint32Array(m.HEAPU8.buffer, at, n).slice();
      }
      pick(): number {
        return m._ss_balancer_pick(this.#b);
      }
      pickMany(n: number): Int32Array {
        const at = m._ss_balancer_pick_many(this.#b, n);
        return new Int32Array(m.HEAPU8.buffer, at, n).slice();
      }
      delete(): void {
        m._ss_balancer_delete(this.#b);
        this.#b = 0;
      }
      isDeleted(): boolean {
        return this.#b === 0;
      }
    };
  }

  /** The module's linear memory (for tests). */
  get HEAP8(): Int8Array {
    return this.#m.HEAP8;
  }

  /** The raw exports (for tests that measure the module's own memory). */
  get exports(): EngineModule {
    return this.#m;
  }

  /** The module's input buffer resized to n bytes (valid until the next call into the module). */
  inputBuffer(n: number): Uint8Array {
    const at = this.#m._ss_input(n);
    return this.#m.HEAPU8.subarray(at, at + n);
  }

  /**
   * Runs the input buffer's first `length` bytes. `utf16`: the script was a
   * string, so the diagnostics' columns are given in its units, not bytes.
   */
  run(length: number, withTimeline: boolean, utf16: boolean): RawRun {
    const view = this.#m._ss_run(length, withTimeline ? 1 : 0);
    let raw: RawRun;
    try {
      raw = readRun(this.#m, view);
    } finally {
      this.#m._ss_release_run();
    }
    if (utf16) toUtf16Columns(this.inputBuffer(length), raw.diagnosticLines, raw.diagnosticColumns);
    return raw;
  }

  /** A copy of the bytes at `address` (their length is _ss_length()). */
  bytes(address: number): Uint8Array {
    return this.view(address).slice();
  }

  /** The same bytes in place: valid until the next call into the module. */
  view(address: number): Uint8Array {
    const length = this.#m._ss_length();
    return this.#m.HEAPU8.subarray(address, address + length);
  }

  /** Writes strings into the input buffer as bindings.cpp's input_strings reads them; returns the length. */
  writeStrings(parts: readonly Bytes[]): number {
    const encoded = parts.map((p) => (typeof p === 'string' ? encoder.encode(p) : p));
    const head = 4 * (1 + encoded.length);
    const length = encoded.reduce((n, p) => n + p.length, head);
    const buffer = new Uint8Array(length);
    const words = new DataView(buffer.buffer);
    words.setUint32(0, encoded.length, true);
    let at = head;
    encoded.forEach((p, i) => {
      words.setUint32(4 * (1 + i), p.length, true);
      buffer.set(p, at);
      at += p.length;
    });
    return writeInput(this, buffer);
  }
}
