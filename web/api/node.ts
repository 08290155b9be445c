/**
 * The Node entry: exports.ts's list, like the browser entry, with loaders
 * that read the .wasm from disk (Emscripten's web build fetches it, and
 * Node's fetch cannot read file: URLs).
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import createEngine, { type EngineOptions } from '../wasm/engine.mjs';
import createLab from '../wasm/lab.mjs';
import { SlowStartError } from './errors.js';
import { sharedLoader } from './shared-loader.js';
import { SlowStart } from './slowstart.js';
import { Lab } from './lab.js';
import { loadWasm } from './wasm-load.js';

export * from './exports.js';

/** Options with the module's .wasm read from disk unless the caller gave the bytes or a locateFile. */
async function withBinary(file: string, options: EngineOptions = {}): Promise<EngineOptions> {
  if (options.wasmBinary || options.locateFile) return options;
  const path = fileURLToPath(new URL(`../wasm/${file}`, import.meta.url));
  try {
    return { ...options, wasmBinary: await readFile(path) };
  } catch (error) {
    throw SlowStartError.wasmLoadFailed(path, error);
  }
}

/**
 * Loads the engine, its .wasm read from the package's `dist/wasm/` (or given
 * as `options.wasmBinary`). With no options the instance is shared. A failed
 * load rejects with a `SlowStartError` of code `WASM_LOAD_FAILED` naming the file.
 */
export const loadSlowStart: (options?: EngineOptions) => Promise<SlowStart> = sharedLoader(async (options) => {
  const withBytes = await withBinary('engine.wasm', options);
  return SlowStart.fromModule(await loadWasm(createEngine, 'engine.wasm', new URL('../wasm/engine.wasm', import.meta.url), withBytes));
});

/** Loads the lab module (traffic simulation, ramp curves, grading). Same options and errors as {@link loadSlowStart}. */
export const loadLab: (options?: EngineOptions) => Promise<Lab> = sharedLoader(async (options) => {
  const withBytes = await withBinary('lab.wasm', options);
  return Lab.fromModule(await loadWasm(createLab, 'lab.wasm', new URL('../wasm/lab.wasm', import.meta.url), withBytes));
});
