import type { Engine, RawBalancer } from './engine-abi.js';
import { SlowStartError } from './errors.js';
import { raise } from './raise.js';
import './symbol-dispose.js';
import type { BackendWeight, PoolEntry, Whole } from './types.js';
import { NO_WINNER } from './winners.js';
import { nameForEngine } from './wtf8.js';

// Safety net for callers who forget dispose(): the C++ object is freed when
// the JS wrapper is collected. dispose() is still the way to free it now.
const finalizer = new FinalizationRegistry<RawBalancer>((raw) => {
  if (!raw.isDeleted()) raw.delete();
});

// pickMany asks the module for at most this many picks at a time (4 MiB of results).
const PICK_CHUNK = 1 << 20;

/** Decimal text of a whole number; anything else is passed as written so the engine rejects it with the script's message. */
export function wholeText(value: Whole): string {
  return typeof value === 'bigint' ? value.toString() : String(value);
}

/**
 * An imperative slow-start balancer: the script commands as methods.
 *
 * Every method checks its arguments exactly as the command language does and
 * throws a {@link SlowStartError} (code `INVALID_ARGUMENT`) with the same
 * message a script line would get; a call
 * that throws changes nothing. Free it with {@link Balancer.dispose} (or a
 * `using` declaration).
 */
export class Balancer {
  #raw: RawBalancer | null;
  #names: string[] | null = null; // pool order, cached between changes

  // Not for users: get one from SlowStart.createBalancer().
  private constructor(module: Engine) {
    this.#raw = new module.Balancer();
    finalizer.register(this, this.#raw, this);
  }

  /** @internal Use {@link SlowStart.createBalancer}. */
  static create(module: Engine): Balancer {
    return new Balancer(module);
  }

  get #b(): RawBalancer {
    if (!this.#raw) throw SlowStartError.of('DISPOSED', 'this Balancer has been disposed');
    return this.#raw;
  }

  #changed(): void {
    this.#names = null;
  }

  /** POOL: replace the whole pool (all UP, no ramp, score 0). `[]` empties it. */
  setPool(entries: readonly PoolEntry[] | Readonly<Record<string, number | bigint>>): this {
    // A script's text ('a=1 b=2') would be read as an object of characters ("got 'a'").
    const given: unknown = entries;
    if (typeof given !== 'object' || given === null)
      throw SlowStartError.of(
        'WRONG_TYPE',
        `setPool takes [{name, weight}, ...] or {name: weight, ...}, got ${typeof given === 'string' ? `the string '${given.slice(0, 60)}' (for a script line, use run())` : String(given)}`,
      );
    const list: readonly PoolEntry[] = Array.isArray(entries)
      ? (entries as readonly PoolEntry[])
      : Object.entries(entries).map(([name, weight]) => ({ name, weight }));
    const b = this.#b;
    const n = list.length;
    const names: unknown[] = new Array(n);
    // Weights that are whole numbers below 2^32 go to the module as they are
    // (the common case, and 100,000 of them cost what POOL costs); anything
    // else, or a name that is not ASCII, goes as the script's text, so that
    // the engine words any problem as a script line's.
    const numbers = new Uint32Array(n);
    let plain = true;
    for (let i = 0; i < n; i++) {
      const { name, weight } = list[i];
      names[i] = name;
      if (plain && typeof weight === 'number' && weight >>> 0 === weight) numbers[i] = weight;
      else plain = false;
    }
    if (!(plain && b.setPoolNumbers(names, numbers))) raise(b.setPool(names, list.map((e) => wholeText(e.weight))));
    this.#changed();
    return this;
  }

  /** NOW: set the clock, in whole seconds (0 … 10^12). */
  setNow(seconds: Whole): this {
    raise(this.#b.setNow(wholeText(seconds)));
    this.#changed();
    return this;
  }

  /** The clock, in seconds. */
  get now(): number {
    return this.#b.now();
  }

  /** ADD: join now with a ramp (seconds; 0 = none). An existing name is replaced in place. */
  add(name: string, weight: Whole, ramp: Whole = 0): this {
    raise(this.#b.add(nameForEngine(name), wholeText(weight), wholeText(ramp)));
    this.#changed();
    return this;
  }

  /** DOWN: take a backend out (it keeps its place and its score). */
  down(name: string): this {
    raise(this.#b.down(nameForEngine(name)));
    this.#changed();
    return this;
  }

  /** UP: bring a backend back, ramping from now, with score 0. */
  up(name: string, ramp: Whole = 0): this {
    raise(this.#b.up(nameForEngine(name), wholeText(ramp)));
    this.#changed();
    return this;
  }

  /** Backend names in pool order (the order `pickMany` indices refer to). */
  names(): readonly string[] {
    this.#names ??= this.#b.names();
    return this.#names;
  }

  /** Effective weights in pool order (the order of {@link names}). */
  poolWeights(): Float64Array {
    return this.#b.poolWeights();
  }

  /** WEIGHTS: every backend's effective weight, in WEIGHTS' order (byte order of name). */
  weights(): BackendWeight[] {
    const names = this.names();
    const weights = this.poolWeights();
    return Array.from(this.#b.byName(), (i) => ({ name: names[i], weight: weights[i] }));
  }

  /** WEIGHTS exactly as the command prints it. */
  weightsLine(): string {
    return this.#b.weightsLine();
  }

  /** PICK: the winner's name, or `null` when no backend takes part (the CLI's `NONE`). */
  pick(): string | null {
    const i = this.#b.pick();
    return i === NO_WINNER ? null : this.names()[i];
  }

  /**
   * `n` picks in one call, for traffic simulation: winners' pool indices
   * (see {@link names}), {@link NO_WINNER} (-1) where no backend took part. At most
   * {@link Balancer.MAX_PICK_MANY} per call (call again for more: scores
   * carry over). Throws a {@link SlowStartError}: `WRONG_TYPE` for a
   * non-number, `OUT_OF_RANGE` for a count that is negative, fractional or
   * over the maximum, `OUT_OF_MEMORY` when the result cannot be allocated;
   * a call that throws changes nothing.
   */
  pickMany(n: number): Int32Array {
    if (typeof n !== 'number') throw SlowStartError.of('WRONG_TYPE', `count must be a number, got ${typeof n}`);
    if (!Number.isSafeInteger(n) || n < 0) throw SlowStartError.of('OUT_OF_RANGE', `count must be a non-negative integer, got '${String(n)}'`);
    if (n > Balancer.MAX_PICK_MANY) throw SlowStartError.of('OUT_OF_RANGE', `count must be at most ${Balancer.MAX_PICK_MANY}, got '${String(n)}'`);
    const b = this.#b;
    if (n <= PICK_CHUNK) return b.pickMany(n);
    // The result is allocated in JavaScript before any pick, and filled in
    // chunks, so the module's memory stays small and a failed allocation
    // changes nothing.
    let out: Int32Array;
    try {
      out = new Int32Array(n);
    } catch {
      throw SlowStartError.of('OUT_OF_MEMORY', `not enough memory for ${n} picks (${Math.ceil((n * 4) / 2 ** 20)} MiB)`);
    }
    for (let at = 0; at < n; at += PICK_CHUNK) out.set(b.pickMany(Math.min(PICK_CHUNK, n - at)), at);
    return out;
  }

  /** The most picks {@link pickMany} makes in one call: 100,000,000 (a 400 MB result). */
  static readonly MAX_PICK_MANY = 100_000_000;

  /** Frees the engine object. Further calls throw; a second dispose does nothing. */
  dispose(): void {
    if (!this.#raw) return;
    finalizer.unregister(this);
    this.#raw.delete();
    this.#raw = null;
  }

  /** `using b = slowstart.createBalancer()`: disposed at the end of the block. */
  [Symbol.dispose](): void {
    this.dispose();
  }

  /** True once {@link dispose} has run. */
  get disposed(): boolean {
    return this.#raw === null;
  }
}
