/**
 * The Node entry: exports.ts's list, like the browser entry, with loaders
 * that read the .wasm from disk (Emscripten's web build fetches it, and
 * Node's fetch cannot read file: URLs).
 *
 * Under a server bundler (Next.js with webpack or Turbopack, a Vite SSR
 * build) this file may not sit next to dist/wasm/ any more, and
 * `import.meta.url` may be anything: the .wasm is looked for in several
 * places (wasmCandidates), and a load that finds none rejects with a
 * `SlowStartError` of code `WASM_LOAD_FAILED` naming every place tried.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { EngineOptions } from '../wasm/engine.mjs';
import { loadEngineAt } from './engine-loader.js';
import { loadLabAt } from './lab-loader.js';
import { SlowStartError } from './errors.js';
import { PACKAGE_NAME } from './package-url.js';
import { sharedLoader } from './shared-loader.js';
import type { SlowStart } from './slowstart.js';
import type { Lab } from './lab.js';

export * from './exports.js';

type WasmFile = 'engine.wasm' | 'lab.wasm';

/**
 * Where the .wasm may be, in order: the URL next to this file (as written,
 * or as a bundler rewrote it), the package's export `slowstart/wasm/<file>`
 * as Node resolves it, and the package in the working directory's
 * node_modules. Each is a function: computing one may itself throw.
 */
function wasmCandidates(file: WasmFile, nextToThis: () => URL): (() => string | URL)[] {
  return [
    nextToThis,
    () => moduleRequire(import.meta.url).resolve(`${PACKAGE_NAME}/wasm/${file}`),
    () => moduleRequire(join(process.cwd(), 'package.json')).resolve(`${PACKAGE_NAME}/wasm/${file}`),
    () => join(process.cwd(), 'node_modules', PACKAGE_NAME, 'dist', 'wasm', file),
  ];
}

// node:module's createRequire, taken so that no bundler rewrites the require it makes.
function moduleRequire(from: string): NodeJS.Require {
  const getBuiltin = (process as { getBuiltinModule?: (id: string) => unknown }).getBuiltinModule;
  const nodeModule = getBuiltin?.('node:module') as typeof import('node:module') | undefined;
  if (!nodeModule) throw new Error('process.getBuiltinModule is missing (Node before 20.16)');
  return nodeModule.createRequire(from);
}

async function readCandidate(where: string | URL): Promise<Uint8Array> {
  const url = typeof where === 'string' ? null : where;
  if (url && /^https?:$/.test(url.protocol)) {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    return new Uint8Array(await response.arrayBuffer());
  }
  if (url && url.protocol !== 'file:') throw new Error(`not a file: URL`);
  return readFile(url ? fileURLToPath(url) : where);
}

/** Options with the module's .wasm read from disk unless the caller gave the bytes or a locateFile. */
async function withBinary(file: WasmFile, nextToThis: () => URL, options: EngineOptions = {}): Promise<EngineOptions> {
  if (options.wasmBinary || options.locateFile) return options;
  const tried: string[] = [];
  const problems: string[] = [];
  for (const candidate of wasmCandidates(file, nextToThis)) {
    let where: string | URL;
    try {
      where = candidate();
    } catch (error) {
      problems.push(String(error instanceof Error ? error.message : error));
      continue;
    }
    const shown = where instanceof URL && where.protocol === 'file:' ? fileURLToPath(where) : String(where);
    if (tried.includes(shown)) continue;
    tried.push(shown);
    try {
      const bytes = await readCandidate(where);
      if (isWasm(bytes)) return { ...options, wasmBinary: bytes };
      problems.push(`${shown} is not WebAssembly`);
    } catch (error) {
      problems.push(`${shown}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  throw SlowStartError.wasmLoadFailed(tried.join(', ') || file, new Error(`${file} was not found (${problems.join('; ')})`));
}

function isWasm(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x00 && bytes[1] === 0x61 && bytes[2] === 0x73 && bytes[3] === 0x6d;
}

/**
 * Loads the engine, its .wasm read from the package's `dist/wasm/` (or given
 * as `options.wasmBinary`). With no options the instance is shared. A failed
 * load rejects with a `SlowStartError` of code `WASM_LOAD_FAILED` naming what
 * was tried, and is not kept: the next call tries again.
 */
export const loadSlowStart: (options?: EngineOptions) => Promise<SlowStart> = sharedLoader(async (options) => {
  const nextToThis = () => new URL('../wasm/engine.wasm', import.meta.url);
  return loadEngineAt('engine.wasm', await withBinary('engine.wasm', nextToThis, options));
});

/** Loads the lab module (traffic simulation, ramp curves, grading). Same options and errors as {@link loadSlowStart}. */
export const loadLab: (options?: EngineOptions) => Promise<Lab> = sharedLoader(async (options) => {
  const nextToThis = () => new URL('../wasm/lab.wasm', import.meta.url);
  return loadLabAt('lab.wasm', await withBinary('lab.wasm', nextToThis, options));
});
