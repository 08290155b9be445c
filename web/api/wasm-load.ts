/**
 * Loading an Emscripten module with its .wasm at a URL the caller can
 * override, and a failure that names the URL tried (Emscripten's own says
 * only "both async and sync fetching of the wasm failed").
 *
 * The default URL is always given by the caller: the page's entry writes it
 * as `new URL('../wasm/engine.wasm', import.meta.url)` in its own source
 * (the form bundlers rewrite, emitting the file), and a worker gets it from
 * the page (worker-wasm.ts), so that no worker's module graph names a .wasm
 * file and a bundler emits each one once. The glue's own default is removed
 * from the package's copy (scripts/build-package.sh).
 *
 * What Emscripten prints while it loads (a failed streaming compile, the
 * fallback it takes, an abort) is kept out of the console: on success it is
 * dropped, on failure it is part of the error's message.
 */
import type { EngineOptions } from '../wasm/engine.mjs';
import { SlowStartError } from './errors.js';
import { preBundlingHint } from './package-url.js';

/**
 * Creates the module with `create`. The .wasm comes from, in order:
 * `options.wasmBinary` (bytes you already have), `options.locateFile(file, prefix)`
 * (your URL for it), or `defaultUrl`.
 */
export async function loadWasm<M>(
  create: (options: EngineOptions) => Promise<M>,
  file: string,
  defaultUrl: URL | string,
  options: EngineOptions = {},
): Promise<M> {
  const href = String(defaultUrl);
  let tried = options.wasmBinary ? `${file} (the wasmBinary given)` : href;
  const locateFile = (path: string, prefix: string): string => (tried = options.locateFile ? options.locateFile(path, prefix) : href);
  // Emscripten's messages while loading: shown only if the load fails.
  const said: string[] = [];
  let loaded = false;
  const keep = (own: ((text: string) => void) | undefined) => (text: string) => {
    if (own) own(text);
    else if (!loaded) said.push(text);
    else console.warn(`slowstart (${file}): ${text}`); // after loading, only an abort prints: that is news
  };
  try {
    const module = await create({ ...options, locateFile, print: keep(options.print), printErr: keep(options.printErr) });
    loaded = true;
    return module;
  } catch (error) {
    throw SlowStartError.wasmLoadFailed(tried, error, said, preBundlingHint(tried));
  }
}
