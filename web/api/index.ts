/**
 * slowstart: load-balancer slow start in WebAssembly.
 *
 * ```ts
 * import { loadSlowStart } from 'slowstart';
 * const slowstart = await loadSlowStart();
 * const { output, diagnostics } = slowstart.run('POOL a=5 b=1\nPICK\n');
 * ```
 *
 * This is the browser (and bundler) entry; Node resolves `node.ts` instead.
 * Both export exports.ts's list and their own `loadSlowStart` and `loadLab`.
 */
import type { EngineOptions } from '../wasm/engine.mjs';
import { loadEngineAt } from './engine-loader.js';
import { sharedLoader } from './shared-loader.js';
import type { SlowStart } from './slowstart.js';
import type { Lab } from './lab.js';
import { engineWasmUrl, labWasmUrl } from './wasm-urls.js';

export * from './exports.js';

/**
 * Loads the engine (about 40 KB gzipped). Its .wasm is fetched from next to
 * the package's glue (`new URL('../wasm/engine.wasm', import.meta.url)`,
 * which Vite and webpack rewrite to the file they emit), or from where
 * `options.locateFile` says, or not at all with `options.wasmBinary`. With no
 * options the module is loaded once and shared; with options you get a
 * fresh instance. A failed load rejects with a `SlowStartError` of code
 * `WASM_LOAD_FAILED` whose `url` is the URL tried, and is not kept: the next
 * call tries again.
 */
export const loadSlowStart: (options?: EngineOptions) => Promise<SlowStart> = /* @__PURE__ */ sharedLoader((options) =>
  loadEngineAt(engineWasmUrl(), options),
);

/**
 * Loads the lab module (traffic simulation, ramp curves, JavaScript rules,
 * grading): a separate download (lab.wasm), fetched only when called. Same
 * options and errors as {@link loadSlowStart}.
 */
export const loadLab: (options?: EngineOptions) => Promise<Lab> = /* @__PURE__ */ sharedLoader(async (options) => {
  const { loadLabAt } = await import('./lab-loader.js');
  return loadLabAt(labWasmUrl(), options);
});
