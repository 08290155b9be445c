/**
 * The Node entry: the same API as the browser entry, but the .wasm file is
 * read from disk (Emscripten's web build fetches it, and Node's fetch cannot
 * read file: URLs).
 */
import { readFile } from 'node:fs/promises';
import createEngine, { type EngineOptions } from '../wasm/engine.mjs';
import { SlowStart } from './slowstart.js';
import { Lab } from './lab.js';
import createLab from '../wasm/lab.mjs';

export { SlowStart } from './slowstart.js';
export { Balancer } from './balancer.js';
export { Timeline } from './timeline.js';
export { Lab, Traffic } from './lab.js';
export type { Curve, ServiceModel, TrafficOptions } from './lab.js';
export type * from './types.js';
export type { EngineOptions } from '../wasm/engine.mjs';

const wasmUrl = new URL('../wasm/engine.wasm', import.meta.url);
let shared: Promise<SlowStart> | undefined;

async function create(options: EngineOptions = {}): Promise<SlowStart> {
  const wasmBinary = options.wasmBinary ?? (await readFile(wasmUrl));
  return new SlowStart(await createEngine({ ...options, wasmBinary }));
}

/** Loads the engine. With no options the instance is shared. */
export function loadSlowStart(options?: EngineOptions): Promise<SlowStart> {
  if (options) return create(options);
  shared ??= create();
  return shared;
}

const labUrl = new URL('../wasm/lab.wasm', import.meta.url);
let sharedLab: Promise<Lab> | undefined;

async function createLabInstance(options: EngineOptions = {}): Promise<Lab> {
  const wasmBinary = options.wasmBinary ?? (await readFile(labUrl));
  return new Lab(await createLab({ ...options, wasmBinary }));
}

/** Loads the lab module (traffic simulation, ramp curves). With no options the instance is shared. */
export function loadLab(options?: EngineOptions): Promise<Lab> {
  if (options) return createLabInstance(options);
  sharedLab ??= createLabInstance();
  return sharedLab;
}
