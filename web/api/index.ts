/**
 * slowstart: load-balancer slow start in WebAssembly.
 *
 * ```ts
 * import { loadSlowStart } from 'slowstart';
 * const slowstart = await loadSlowStart();
 * const { output, diagnostics } = slowstart.run('POOL a=5 b=1\nPICK\n');
 * ```
 *
 * This is the browser (and bundler) entry; Node resolves `node.ts` instead,
 * which has the same exports.
 */
import createEngine from '../wasm/engine.mjs';
import { sharedLoader } from './shared-loader.js';
import { SlowStart } from './slowstart.js';
import { Lab } from './lab.js';

export { SlowStart } from './slowstart.js';
export { Balancer } from './balancer.js';
export { Timeline } from './timeline.js';
export { NO_WINNER, NOT_A_PICK } from './winners.js';
export { BackendState, Lab, Traffic } from './lab.js';
export type { Curve, HealthCheck, Policy, ServiceModel, TrafficDefaults, TrafficOptions } from './lab.js';
export type { BuiltInTest, Mistake, MistakeScope, RunDiagnosis, TestEvidence, WeightProblem } from './grading.js';
export type * from './types.js';
export type { EngineOptions } from '../wasm/engine.mjs';

/**
 * Loads the engine (about 40 KB gzipped, fetched next to this module). With
 * no options the module is loaded once and shared; with options (e.g.
 * `wasmBinary` or `locateFile`) you get a fresh instance.
 */
export const loadSlowStart = sharedLoader(async (options) => new SlowStart(await createEngine(options)));

/**
 * Loads the lab module (traffic simulation, ramp curves, JavaScript rules):
 * a separate download, fetched only when a page needs it.
 */
export const loadLab = sharedLoader(async (options) => {
  const { default: createLab } = await import('../wasm/lab.mjs');
  return new Lab(await createLab(options));
});
