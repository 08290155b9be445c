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
import { nameForEngine } from './wtf8.js';

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
  /** POOL from names (any value: turned to text as a script would read it) and weights' decimal text. */
  setPool(names: readonly unknown[], weights: readonly string[]): Error | undefined;
  /** The same for weights that are whole numbers below 2^32 and names of ASCII text: true when applied; false changed nothing (then call setPool, which words the problem). */
  setPoolNumbers(names: readonly unknown[], weights: Uint32Array): boolean;
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
      setPool(names: readonly unknown[], weights: readonly string[]): Error | undefined {
        const length = engine.writePairs(names, weights);
        return m._ss_balancer_set_pool(this.#b, length) === 0 ? undefined : new Error(decodeText(engine.bytes(m._ss_problem())));
      }
      setPoolNumbers(names: readonly unknown[], weights: Uint32Array): boolean {
        const at = engine.writeNames(names, weights);
        return at !== null && m._ss_balancer_set_pool_numbers(this.#b, at.length, at.weightsAt) === 0;
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
      raw = readRun(this.#m, view, true); // this module runs the SPEC's rules only: its scores follow from the winners
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

  /**
   * Writes name, weight, name, weight, ... as writeStrings does. A pool of
   * 100,000 is the case to make fast: the text is joined once and encoded
   * once when it is all ASCII (each part's byte length is then its length);
   * otherwise each name goes through nameForEngine (lone surrogates as WTF-8).
   */
  writePairs(names: readonly unknown[], weights: readonly string[]): number {
    const n = names.length;
    const head = 4 * (1 + 2 * n);
    const lengths = new Uint32Array(2 * n);
    let text = '';
    for (let i = 0; i < n; i++) {
      const name = String(names[i]);
      const weight = weights[i] ?? '';
      lengths[2 * i] = name.length;
      lengths[2 * i + 1] = weight.length;
      text += name;
      text += weight;
    }
    const buffer = this.inputBuffer(head + text.length * 3);
    const { written } = encoder.encodeInto(text, buffer.subarray(head));
    if (written !== text.length) return this.writeStrings(names.flatMap((name, i) => [nameForEngine(name), weights[i] ?? '']));
    const words = new Uint32Array(2 * n + 1);
    words[0] = 2 * n;
    words.set(lengths, 1);
    buffer.set(new Uint8Array(words.buffer), 0); // little-endian, as WebAssembly reads it
    return head + written;
  }

  /**
   * setPool's fast path: the names as writeStrings writes them, joined and
   * encoded once, then the weights as u32 (4-aligned). Null, having written
   * nothing the module reads, when a name is not ASCII text.
   */
  writeNames(names: readonly unknown[], weights: Uint32Array): { length: number; weightsAt: number } | null {
    const n = names.length;
    const head = 4 * (1 + n);
    const header = new Uint32Array(n + 1);
    header[0] = n;
    let text = '';
    for (let i = 0; i < n; i++) {
      const name = names[i];
      if (typeof name !== 'string') return null;
      header[i + 1] = name.length;
      text += name;
    }
    const buffer = this.inputBuffer(head + text.length * 3 + 4 + 4 * n);
    const { written } = encoder.encodeInto(text, buffer.subarray(head));
    if (written !== text.length) return null;
    buffer.set(new Uint8Array(header.buffer), 0); // little-endian, as WebAssembly reads it
    const length = head + written;
    const weightsAt = (length + 3) & ~3;
    buffer.set(new Uint8Array(weights.buffer, weights.byteOffset, 4 * n), weightsAt);
    return { length, weightsAt };
  }

  /** Writes strings into the input buffer as bindings.cpp's input_strings reads them; returns the length. */
  writeStrings(parts: readonly Bytes[]): number {
    // The common case, all text and all ASCII (a 100,000-backend setPool):
    // one encode of the joined text, each part's byte length its length.
    if (parts.every((p) => typeof p === 'string')) {
      const text = (parts as string[]).join('');
      const head = 4 * (1 + parts.length);
      const buffer = this.inputBuffer(head + text.length * 3);
      const { written } = encoder.encodeInto(text, buffer.subarray(head));
      if (written === text.length) {
        const words = new DataView(buffer.buffer, buffer.byteOffset, head);
        words.setUint32(0, parts.length, true);
        for (let i = 0; i < parts.length; i++) words.setUint32(4 * (1 + i), parts[i].length, true);
        return head + written;
      }
    }
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
