import type { EngineOptions } from '../wasm/engine.mjs';

/**
 * A loader that shares one instance when called without options (the common
 * case: every part of a page uses the same module) and makes a fresh one
 * when given options (e.g. a wasmBinary or locateFile of the caller's own).
 */
export function sharedLoader<T>(create: (options?: EngineOptions) => Promise<T>): (options?: EngineOptions) => Promise<T> {
  let shared: Promise<T> | undefined;
  return (options) => {
    if (options) return create(options);
    shared ??= create();
    return shared;
  };
}
