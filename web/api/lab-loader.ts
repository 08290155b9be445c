/**
 * The lab module from a given URL, with no dynamic import(): the page's
 * entry loads this file with import() (the lab is a download of its own),
 * workers import it statically (engine-loader.ts says why).
 */
import createLab from '../wasm/lab.mjs';
import type { EngineOptions } from '../wasm/engine.mjs';
import { Lab } from './lab.js';
import { loadWasm } from './wasm-load.js';

/** Loads the lab with its .wasm at `url` (unless `options` say otherwise: wasm-load.ts). */
export async function loadLabAt(url: URL | string, options?: EngineOptions): Promise<Lab> {
  return Lab.fromModule(await loadWasm(createLab, 'lab.wasm', url, options));
}
