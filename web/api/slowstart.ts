import type { EngineModule } from '../wasm/engine.mjs';
import { Balancer } from './balancer.js';
import { Timeline } from './timeline.js';
import type { Diagnostic, OutputLine, RunOptions, RunResult } from './types.js';

function lines<T>(text: string, numbers: Uint32Array, make: (line: number, text: string) => T): T[] {
  if (numbers.length === 0) return [];
  // The engine joins with '\n', which no output line or message contains.
  const parts = text.split('\n');
  const out = new Array<T>(numbers.length);
  for (let i = 0; i < numbers.length; i++) out[i] = make(numbers[i], parts[i]);
  return out;
}

/** The loaded engine. Get one with `loadSlowStart()`. */
export class SlowStart {
  readonly #module: EngineModule;

  /** @internal */
  constructor(module: EngineModule) {
    this.#module = module;
  }

  /** The engine's version. */
  get version(): string {
    return this.#module.version;
  }

  /**
   * Runs a script in the command language. Same output, diagnostics and line
   * numbers as the CLI. `script` may be text or UTF-8 bytes.
   */
  run(script: string | Uint8Array, options: RunOptions = {}): RunResult {
    const withTimeline = options.timeline ?? true;
    const raw = this.#module.run(script, withTimeline);
    const output: OutputLine[] = lines(raw.outputText, raw.outputLines, (line, text) => ({ line, text }));
    const diagnostics: Diagnostic[] = lines(raw.diagnosticText, raw.diagnosticLines, (line, message) => ({
      line,
      message,
    }));
    const result: RunResult = { output, diagnostics };
    if (raw.timeline) result.timeline = new Timeline(raw.timeline);
    return result;
  }

  /** A new, empty imperative balancer. Dispose of it when done. */
  createBalancer(): Balancer {
    return new Balancer(this.#module);
  }

  /** @internal The raw module, for the CLI. */
  get module(): EngineModule {
    return this.#module;
  }
}
