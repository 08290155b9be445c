/**
 * The Node entry: the same API as the browser entry, but the .wasm file is
 * read from disk (Emscripten's web build fetches it, and Node's fetch cannot
 * read file: URLs).
 */
import { readFile } from 'node:fs/promises';
import createEngine, { type EngineOptions } from '../wasm/engine.mjs';
import { sharedLoader } from './shared-loader.js';
import { SlowStart } from './slowstart.js';
import { Lab } from './lab.js';
import createLab from '../wasm/lab.mjs';

export { SlowStart } from './slowstart.js';
export { Balancer } from './balancer.js';
export { Timeline } from './timeline.js';
export { NO_WINNER, NOT_A_PICK } from './winners.js';
export { BackendState, Lab, Traffic } from './lab.js';
export type { Curve, HealthCheck, Policy, ServiceModel, TrafficDefaults, TrafficOptions } from './lab.js';
export type { BuiltInTest, Mistake, MistakeScope, RunDiagnosis, TestEvidence } from './grading.js';
export type * from './types.js';
export type { EngineOptions } from '../wasm/engine.mjs';

/** Options with the module's .wasm read from disk unless the caller gave the bytes. */
async function withBinary(file: string, options: EngineOptions = {}): Promise<EngineOptions> {
  return { ...options, wasmBinary: options.wasmBinary ?? (await readFile(new URL(`../wasm/${file}`, import.meta.url))) };
}

/** Loads the engine. With no options the instance is shared. */
export const loadSlowStart = sharedLoader(
  async (options) => new SlowStart(await createEngine(await withBinary('engine.wasm', options))),
);

/** Loads the lab module (traffic simulation, ramp curves). With no options the instance is shared. */
export const loadLab = sharedLoader(async (options) => new Lab(await createLab(await withBinary('lab.wasm', options))));
