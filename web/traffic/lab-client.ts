// The Traffic view's side of its worker (lab-worker.ts): every plan of
// simulations goes there, so typing in the editor while the lab is open
// costs the page only the drawing. A newer plan replaces the one going: the
// worker drops the older at its next simulation, and when the worker has
// been silent for STUCK_MS (one simulation running long), the page ends it
// and starts another (the engine is one synchronous call: there is nothing
// gentler that stops it). The worker is started as every worker of the
// package is (web/api/start-worker.ts, as the runner's background run does):
// written `new Worker(new URL(..., import.meta.url), { type: 'module' })` for
// the bundlers (or a host's `createWorker`), started from wherever the
// package is served, and told the lab's .wasm URL first. Where no worker can
// start (a policy that forbids them, say), the plans run on the page with
// the same code, as the Traffic tab did before.
import type { Lab, TrafficDefaults, TrafficOptionInfo } from '../api/index.js';
import { startWorker } from '../api/start-worker.js';
import { labWasmUrl } from '../api/wasm-urls.js';
import { CachedLab } from './cached-lab.js';
import { PlanCancelled, runPlan, type Section } from './lab-plan.js';
import type { PlanReply, PlanRequest } from './lab-protocol.js';
import type { TrafficSettings } from './lab-settings.js';
import { sectionOf } from './traffic-wire.js';

/**
 * A worker silent this long in a simulation while a newer plan waits is
 * ended and replaced. (Not while it loads the lab module: a new worker would
 * have to load it again.)
 */
export const STUCK_MS = 400;

export interface LabRunsOptions {
  onDefaults(defaults: TrafficDefaults, table: readonly TrafficOptionInfo[]): void;
  /** A section of plan `id` (only of the newest plan). */
  onSection(id: number, section: Section): void;
  /** Plan `id` sent all its sections. */
  onDone(id: number): void;
  /** Plan `id` failed as a whole (the lab module could not load). */
  onFailed(id: number, message: string): void;
  /** The lab module on the page, for when no worker can start. */
  lab: () => Promise<Lab>;
  createWorker?: () => Worker;
}

const defaultWorker = () => new Worker(new URL('./lab-worker.ts', import.meta.url), { type: 'module' });

export class LabRuns {
  readonly #options: LabRunsOptions;
  #worker: Worker | null = null;
  #id = 0;
  #busy = false; // the worker has a plan it has not finished
  #loaded = false; // the worker has its lab module (it said the defaults)
  #lastHeard = 0;
  #onPage: Promise<CachedLab> | null = null; // set once the worker could not start
  #told = false; // defaults given

  constructor(options: LabRunsOptions) {
    this.#options = options;
  }

  /** True when plans run on the page (no worker could start). */
  get onPage(): boolean {
    return this.#onPage !== null;
  }

  /** Starts a plan, replacing any still going; returns its id. */
  plan(script: string, settings: TrafficSettings): number {
    const id = ++this.#id;
    if (this.#onPage) {
      void this.#planOnPage(id, script, settings);
      return id;
    }
    const now = performance.now();
    if (this.#busy && this.#loaded && now - this.#lastHeard > STUCK_MS) this.#endWorker();
    try {
      this.#worker ??= this.#makeWorker();
    } catch {
      this.#fallBack(id, script, settings);
      return id;
    }
    if (!this.#busy) this.#lastHeard = now;
    this.#busy = true;
    this.#pending = { id, script, settings };
    const request: PlanRequest = { type: 'plan', id, script, settings };
    this.#worker.postMessage(request);
    return id;
  }

  destroy(): void {
    this.#id++;
    this.#endWorker();
  }

  #pending: { id: number; script: string; settings: TrafficSettings } | null = null;

  #makeWorker(): Worker {
    const worker = startWorker(this.#options.createWorker ?? defaultWorker, { file: 'element/lab-worker.js', name: 'Traffic lab', wasm: { lab: labWasmUrl() } });
    worker.onmessage = (event: MessageEvent<PlanReply>) => {
      this.#lastHeard = performance.now();
      const reply = event.data;
      if (reply.type === 'defaults') {
        this.#loaded = true;
        return this.#defaults(reply.defaults, reply.table);
      }
      if (reply.id !== this.#id) return;
      if (reply.type === 'section') this.#options.onSection(reply.id, sectionOf(reply.section));
      else {
        this.#busy = false;
        this.#pending = null;
        if (reply.type === 'done') this.#options.onDone(reply.id);
        else this.#options.onFailed(reply.id, reply.message);
      }
    };
    worker.onerror = (event) => {
      // The worker could not start (or its script failed to load): the page runs the plan itself.
      event.preventDefault();
      const pending = this.#pending;
      this.#endWorker();
      if (pending && pending.id === this.#id) this.#fallBack(pending.id, pending.script, pending.settings);
      else this.#onPage ??= this.#options.lab().then((l) => new CachedLab(l));
    };
    return worker;
  }

  #endWorker(): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#busy = false;
    this.#loaded = false;
    this.#pending = null;
  }

  #defaults(defaults: TrafficDefaults, table: readonly TrafficOptionInfo[]): void {
    if (this.#told) return;
    this.#told = true;
    this.#options.onDefaults(defaults, table);
  }

  #fallBack(id: number, script: string, settings: TrafficSettings): void {
    this.#onPage ??= this.#options.lab().then((l) => new CachedLab(l));
    void this.#planOnPage(id, script, settings);
  }

  async #planOnPage(id: number, script: string, settings: TrafficSettings): Promise<void> {
    const wanted = () => id === this.#id;
    try {
      const lab = await this.#onPage!;
      const sim = lab.simulator(wanted);
      this.#defaults(sim.defaults, sim.table);
      await runPlan(script, settings, sim, (section) => wanted() && this.#options.onSection(id, section));
      if (wanted()) this.#options.onDone(id);
    } catch (error) {
      if (error instanceof PlanCancelled || !wanted()) return;
      this.#options.onFailed(id, error instanceof Error ? error.message : String(error));
    }
  }
}
