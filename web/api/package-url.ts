/**
 * Where a file of the package is, for code that computed its URL next to
 * its own module (`new URL('../wasm/engine.wasm', import.meta.url)`).
 *
 * One case needs help: Vite's dev server (up to Vite 7) pre-bundles a
 * dependency's code into `node_modules/.vite/deps/` and leaves its other
 * files behind, so a URL computed there names a file that does not exist
 * (and the dev server answers with the app's HTML). The file is then taken
 * from the package's own folder, which the same dev server serves:
 * `<base>node_modules/slowstart/dist/<file>`. Vite 8 rewrites the URL
 * itself, and no production build leaves one under `.vite/`.
 */

/** The package's name, as installed in node_modules. */
export const PACKAGE_NAME = 'slowstart';

const PRE_BUNDLED = '/node_modules/.vite/';

/** `url`, or the package's own copy of `file` (a path in its dist/: `wasm/engine.wasm`) when `url` points into Vite's pre-bundling folder. */
export function packageFileUrl(url: URL, file: string): URL {
  const at = url.pathname.indexOf(PRE_BUNDLED);
  if (at < 0) return url;
  return new URL(`${url.pathname.slice(0, at)}/node_modules/${PACKAGE_NAME}/dist/${file}`, url);
}

/** For an error about `url`: the one setting that helps when the dev server's pre-bundling moved the package (empty otherwise). */
export function preBundlingHint(url: string): string {
  return url.includes(`/node_modules/${PACKAGE_NAME}/dist/`) && /^https?:/.test(url) && typeof document !== 'undefined'
    ? `; if this is Vite's dev server and the package is not in the app's own node_modules (a monorepo), add optimizeDeps: { exclude: ['${PACKAGE_NAME}'] } to vite.config`
    : '';
}
