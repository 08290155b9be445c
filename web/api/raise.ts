/**
 * The engine returns problems as Error objects instead of throwing them
 * through WebAssembly (which would leak the module's stack); this turns them
 * back into ordinary exceptions for callers.
 */
export function raise<T>(result: T | Error): T {
  if (result instanceof Error) throw result;
  return result;
}
