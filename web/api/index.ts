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
import createEngine, { type EngineOptions } from '../wasm/engine.mjs';
import { SlowStart } from './slowstart.js';
import { Lab } from './lab.js';

export { SlowStart } from './slowstart.js';
export { Balancer } from './balancer.js';
export { Timeline } from './timeline.js';
export { Lab, Traffic } from './lab.js';
export type { Curve, ServiceModel, TrafficOptions } from './lab.js';
export type * from './types.js';
export type { EngineOptions } from '../wasm/engine.mjs';

let shared: Promise<SlowStart> | undefined;

/**
 * Loads the engine (about 40 KB gzipped, fetched next to this module). With
 * no options the module is loaded once and shared; with options (e.g.
 * `wasmBinary` or `locateFile`) you get a fresh instance.
 */
export function loadSlowStart(options?: EngineOptions): Promise<SlowStart> {
  if (options) return createEngine(options).then((m) => new SlowStart(m));
  shared ??= createEngine().then((m) => new SlowStart(m));
  return shared;
}

let sharedLab: Promise<Lab> | undefined;

/**
 * Loads the lab module (traffic simulation, ramp curves): a separate ~58 KB
 * gzipped download, fetched only when a page needs it.
 */
export function loadLab(options?: EngineOptions): Promise<Lab> {
  const load = () => import('../wasm/lab.mjs').then((m) => m.default(options)).then((m) => new Lab(m));
  if (options) return load();
  sharedLab ??= load();
  return sharedLab;
}
