import type { EngineModule } from '../wasm/engine.mjs';
import { Balancer } from './balancer.js';
import { Engine } from './engine-abi.js';
import { toRunResult } from './run-result.js';
import { writeInput } from './wasm-io.js';
import type { Timeline } from './timeline.js';
import type { Keyword, RunOptions, RunResult } from './types.js';

/** The loaded engine. Get one with `loadSlowStart()`. */
export class SlowStart {
  readonly #module: Engine;

  // Not for users: get one from loadSlowStart().
  private constructor(module: EngineModule) {
    this.#module = new Engine(module);
  }

  /** @internal Use `loadSlowStart()`. */
  static fromModule(module: EngineModule): SlowStart {
    return new SlowStart(module);
  }

  /** The engine's version. */
  get version(): string {
    return this.#module.version;
  }

  /**
   * Runs a script in the command language. Same output, diagnostics and line
   * numbers as the CLI. `script` may be text or UTF-8 bytes. With the
   * timeline (the default) the result's `timeline` is always there.
   */
  run(script: string | Uint8Array, options?: RunOptions & { timeline?: true }): RunResult & { timeline: Timeline };
  run(script: string | Uint8Array, options: RunOptions): RunResult;
  run(script: string | Uint8Array, options: RunOptions = {}): RunResult {
    const length = writeInput(this.#module, script);
    return toRunResult(this.#module.run(length, options.timeline ?? true, typeof script === 'string'));
  }

  /** The language's command words, how each is written and what it does: the engine's own table. */
  get keywords(): readonly Keyword[] {
    return this.#module.keywords;
  }

  /** A new, empty imperative balancer. Dispose of it when done. */
  createBalancer(): Balancer {
    return Balancer.create(this.#module);
  }

  /** @internal The raw module, for the CLI. */
  get module(): Engine {
    return this.#module;
  }
}
