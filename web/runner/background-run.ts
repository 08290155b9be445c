// Runs of big scripts, off the page's main thread. A script over
// BACKGROUND_UNITS is read from the editor a slice per task, posted to a
// worker that runs the same engine, and its result comes back as buffers
// that the page wraps without building anything per line (lazy-lines.ts).
// Progress is reported as it goes; stop() ends the worker at once (the
// engine is one synchronous call: there is nothing gentler that works), and
// a newer run replaces an older one the same way. When the worker cannot
// start (a Content-Security-Policy that forbids workers, say), the caller is
// told and runs the script on the page as before.
import type { Text } from '@codemirror/state';
import { Timeline, type RunResult } from '../api/index.js';
import { startWorker } from '../api/start-worker.js';
import { trustedTypesHint } from '../api/trusted-worker.js';
import { engineWasmUrl, labWasmUrl } from '../api/wasm-urls.js';
import { nextTask } from '../shared/big-text.js';
import { readSlices, slicesOf } from '../shared/doc-text.js';
import { lazyDiagnostics, lazyOutput } from './lazy-lines.js';
import { keepPickFacts } from './pool-facts.js';
import type { RunReply, RunRequest, WireRun } from './run-protocol.js';

/** Scripts longer than this (UTF-16 units; about 15,000 lines) run in the background. */
export const BACKGROUND_UNITS = 100_000;

export interface RunProgress {
  phase: 'reading' | 'running';
  /** Share done (0..1), or null when it cannot be known (the engine's run is one call). */
  share: number | null;
  /** Since the run began. */
  elapsedMs: number;
}

export type BackgroundOutcome =
  | { kind: 'done'; result: RunResult; script: string; ms: number }
  /** A newer run or stop() replaced it. */
  | { kind: 'dropped' }
  /** The worker could not run it (it could not start, or the engine failed). */
  | { kind: 'failed'; message: string };

export interface BackgroundRunsOptions {
  /** Progress of the current run; null when no run is going. */
  onProgress(progress: RunProgress | null): void;
  /** Makes the worker (tests may pass their own). */
  createWorker?: () => Worker;
}

// In the form bundlers rewrite; startWorker reads what it asks for (and passes it through the package's Trusted Types policy where there is one).
const defaultWorker = () => new Worker(new URL('./run-worker.ts', import.meta.url), { type: 'module' });

// How many slices go to the worker per task (each is a copy of 256 KB).
const SLICES_PER_TASK = 4;
// A worker whose engine grew past this is ended after its run: WebAssembly
// memory never shrinks, and a run of ten million output lines leaves the
// engine holding about a gigabyte. The next run starts a new worker (tens of
// milliseconds, off the page's thread).
export const KEEP_WORKER_BYTES = 256 * 1024 * 1024;

export class BackgroundRuns {
  readonly #options: BackgroundRunsOptions;
  #worker: Worker | null = null;
  #run = 0;
  #busy = false; // the worker has a run it has not answered
  #going = false; // a run is going: reading the script, or in the worker
  #pending: ((reply: RunReply | { type: 'dropped' }) => void) | null = null;
  #started = 0;
  #ticker = 0; // refreshes the seconds while the engine runs (it reports nothing meanwhile)

  constructor(options: BackgroundRunsOptions) {
    this.#options = options;
  }

  /** True when a document this long runs in the background. */
  static wanted(doc: Text): boolean {
    return doc.length > BACKGROUND_UNITS;
  }

  /** True while a run is going (also while its script is still being read). */
  get running(): boolean {
    return this.#going;
  }

  /** Runs a document (or a script kept as a string) in the worker. */
  async run(doc: Text | string): Promise<BackgroundOutcome> {
    this.stop(); // one run at a time: the newest
    const run = ++this.#run;
    this.#going = true;
    this.#started = performance.now();
    const report = (phase: RunProgress['phase'], share: number | null) =>
      run === this.#run && this.#options.onProgress({ phase, share, elapsedMs: performance.now() - this.#started });
    report('reading', 0);
    const slices = typeof doc === 'string' ? [...slicesOf(doc)] : await readSlices(doc, (share) => report('reading', share / 2));
    if (run !== this.#run) return { kind: 'dropped' };

    let worker: Worker;
    try {
      worker = this.#worker ??= this.#makeWorker();
    } catch (error) {
      this.#done(run);
      return { kind: 'failed', message: String(error) + trustedTypesHint(error) };
    }
    const reply = new Promise<RunReply | { type: 'dropped' }>((resolve) => (this.#pending = resolve));
    this.#busy = true;
    const send = (message: RunRequest) => worker.postMessage(message);
    send({ type: 'begin', run, units: doc.length });
    for (let i = 0; i < slices.length; i++) {
      send({ type: 'slice', run, text: slices[i] });
      if (i % SLICES_PER_TASK === SLICES_PER_TASK - 1) {
        await nextTask();
        if (run !== this.#run) return { kind: 'dropped' };
      }
    }
    send({ type: 'end', run });

    const answer = await reply;
    if (answer.type === 'dropped' || run !== this.#run) return { kind: 'dropped' };
    this.#done(run);
    if (answer.type === 'failed') return { kind: 'failed', message: answer.message };
    if (answer.type !== 'done') return { kind: 'dropped' };
    if (answer.memoryBytes > KEEP_WORKER_BYTES) this.#endWorker();
    // The string itself when there is one: a join of the slices is a rope, and comparing or saving a rope copies it.
    const script = typeof doc === 'string' ? doc : slices.join('');
    return { kind: 'done', result: toResult(answer.result), script, ms: performance.now() - this.#started };
  }

  /** Stops the run going (if any): its outcome is 'dropped'. */
  stop(): void {
    this.#run++;
    this.#going = false;
    clearInterval(this.#ticker);
    if (this.#busy) {
      // The engine cannot be interrupted: the worker goes, a new one comes with the next run.
      this.#endWorker();
      this.#busy = false;
    }
    this.#pending?.({ type: 'dropped' });
    this.#pending = null;
    this.#options.onProgress(null);
  }

  destroy(): void {
    this.stop();
    this.#endWorker();
  }

  #endWorker(): void {
    this.#worker?.terminate();
    this.#worker = null;
  }

  #done(run: number): void {
    if (run !== this.#run) return;
    this.#going = false;
    clearInterval(this.#ticker);
    this.#busy = false;
    this.#pending = null;
    this.#options.onProgress(null);
  }

  #makeWorker(): Worker {
    // Wherever the package is served from, with the .wasm URLs the worker needs (web/api/start-worker.ts).
    const worker = startWorker(this.#options.createWorker ?? defaultWorker, {
      file: 'element/run-worker.js',
      name: 'background run',
      wasm: { engine: engineWasmUrl(), lab: labWasmUrl() },
    });
    worker.onmessage = (event: MessageEvent<RunReply>) => {
      const reply = event.data;
      if (reply.run !== this.#run) return;
      if (reply.type === 'progress') {
        const share = reply.phase === 'reading' ? 0.5 + reply.share / 2 : null;
        const tell = () => this.#options.onProgress({ phase: reply.phase, share, elapsedMs: performance.now() - this.#started });
        tell();
        clearInterval(this.#ticker);
        if (reply.phase === 'running') this.#ticker = setInterval(tell, 250) as unknown as number;
        return;
      }
      this.#pending?.(reply);
    };
    worker.onerror = (event) => {
      event.preventDefault();
      const message = event.message || 'the background worker could not start';
      this.#endWorker();
      this.#busy = false;
      this.#pending?.({ type: 'failed', run: this.#run, message });
    };
    return worker;
  }
}

function toResult(wire: WireRun): RunResult {
  const result: RunResult = {
    output: lazyOutput(wire.output),
    diagnostics: lazyDiagnostics(wire.diagnostics, wire.diagnosticColumns),
    timeline: Timeline.fromRaw(wire.timeline),
  };
  if (wire.picks) keepPickFacts(result.timeline!, wire.picks);
  if (wire.truncated) result.truncated = true;
  return result;
}
