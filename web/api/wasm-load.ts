/**
 * Loading an Emscripten module with its .wasm at a URL the caller can
 * override, and a failure that names the URL tried (Emscripten's own says
 * only "both async and sync fetching of the wasm failed").
 *
 * The entries pass the default URL as `new URL('../wasm/engine.wasm',
 * import.meta.url)`, written in their own source: that is the form bundlers
 * (Vite, webpack) rewrite, emitting the file and giving its final URL.
 */
import type { EngineOptions } from '../wasm/engine.mjs';
import { SlowStartError } from './errors.js';

/**
 * Creates the module with `create`. The .wasm comes from, in order:
 * `options.wasmBinary` (bytes you already have), `options.locateFile(file, prefix)`
 * (your URL for it), or `defaultUrl` (next to the package's glue).
 */
export async function loadWasm<M>(
  create: (options: EngineOptions) => Promise<M>,
  file: string,
  defaultUrl: URL,
  options: EngineOptions = {},
): Promise<M> {
  let tried = options.wasmBinary ? `${file} (the wasmBinary given)` : defaultUrl.href;
  const locateFile = (path: string, prefix: string): string =>
    (tried = options.locateFile ? options.locateFile(path, prefix) : defaultUrl.href);
  try {
    return await create({ ...options, locateFile });
  } catch (error) {
    throw SlowStartError.wasmLoadFailed(tried, error);
  }
}
