/**
 * The engine module from a given URL, with no dynamic import(): what the
 * page's entry (index.ts) and the run worker (web/runner/run-worker.ts)
 * load it with. A worker's module graph must hold no import() (Vite up to
 * 7 builds workers as one classic script) and name no .wasm (the page's
 * build emits it).
 */
import createEngine, { type EngineOptions } from '../wasm/engine.mjs';
import { SlowStart } from './slowstart.js';
import { loadWasm } from './wasm-load.js';

/** Loads the engine with its .wasm at `url` (unless `options` say otherwise: wasm-load.ts). */
export async function loadEngineAt(url: URL | string, options?: EngineOptions): Promise<SlowStart> {
  return SlowStart.fromModule(await loadWasm(createEngine, 'engine.wasm', url, options));
}
