// The lab module as the plan (lab-plan.ts) uses it, in the worker or, where
// no worker can start, on the page: recent results kept (a change that
// leaves a section's runs as they were does not simulate them again), and a
// pause before each simulation in which a newer plan can arrive and stop the
// older one (a message is read only between tasks).
import type { Curve, Lab, Traffic, TrafficOptions } from '../api/index.js';
import { PlanCancelled, type Simulator } from './lab-plan.js';
import { scenarioEvents, type ScenarioEvent } from './scenario-events.js';

/** Results are kept while their cells (buckets × backends) stay under this. */
const CACHE_CELLS = 3_000_000;

export class CachedLab {
  readonly #lab: Lab;
  readonly #results = new Map<string, Traffic>();
  #events: { key: string; events: ScenarioEvent[] } | null = null;

  constructor(lab: Lab) {
    this.#lab = lab;
  }

  /** A Simulator for one plan; it throws PlanCancelled at its next simulation once `wanted()` is false. */
  simulator(wanted: () => boolean): Simulator {
    const check = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      if (!wanted()) throw new PlanCancelled();
    };
    return {
      defaults: this.#lab.trafficDefaults(),
      table: this.#lab.trafficOptionTable(),
      simulate: async (script: string, options: TrafficOptions) => {
        await check();
        return this.#simulate(script, options);
      },
      arguments: (options: TrafficOptions) => this.#lab.simulateArguments(options),
      size: (script: string, options: TrafficOptions) => this.#lab.simulationSize(script, options),
      events: async (script: string, curve: Curve) => {
        await check();
        return this.#scenarioEvents(script, curve);
      },
    };
  }

  #simulate(script: string, options: TrafficOptions): Traffic {
    const key = `${JSON.stringify(options)}\n${script}`;
    const results = this.#results;
    const hit = results.get(key);
    if (hit) {
      results.delete(key);
      results.set(key, hit); // (now the newest)
      return hit;
    }
    const t = this.#lab.simulate(script, options);
    results.set(key, t);
    const cells = (v: Traffic) => v.buckets * Math.max(1, v.names.length);
    let total = 0;
    for (const v of results.values()) total += cells(v);
    for (const [k, v] of results) {
      if (total <= CACHE_CELLS || k === key) break;
      total -= cells(v);
      results.delete(k);
    }
    return t;
  }

  #scenarioEvents(script: string, curve: Curve): ScenarioEvent[] {
    const key = `${JSON.stringify(curve)}\n${script}`;
    if (this.#events?.key !== key) {
      const timeline = this.#lab.run(script, curve).timeline;
      this.#events = { key, events: timeline ? scenarioEvents(script, timeline) : [] };
    }
    return this.#events.events;
  }
}
