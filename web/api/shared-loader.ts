import type { EngineOptions } from '../wasm/engine.mjs';

/**
 * A loader that shares one instance when called without options (the common
 * case: every part of a page uses the same module) and makes a fresh one
 * when given options (e.g. a wasmBinary or locateFile of the caller's own).
 * A load that failed is not kept: the next call (the next element on the
 * page, a Run after the network came back) tries again.
 */
export function sharedLoader<T>(create: (options?: EngineOptions) => Promise<T>): (options?: EngineOptions) => Promise<T> {
  let shared: Promise<T> | undefined;
  return (options) => {
    if (options) return create(options);
    if (!shared) {
      const attempt = create();
      shared = attempt;
      attempt.catch(() => {
        if (shared === attempt) shared = undefined;
      });
    }
    return shared;
  };
}
