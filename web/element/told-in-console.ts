// What the element loads, with a failure said in the console too.

/**
 * `loading`, with its failure also said in the console (the element shows
 * it too, but an author looks in the console first): the URL tried and
 * why, Emscripten's own words included (the API keeps them out of the
 * console unless loading fails). A later element or Run tries again.
 */
export function toldInConsole<T>(loading: Promise<T>): Promise<T> {
  loading.catch((error: unknown) => console.error(`slowstart: ${error instanceof Error ? error.message : String(error)}`));
  return loading;
}
