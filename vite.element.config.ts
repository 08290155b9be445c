import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { defineConfig, type Plugin } from 'vite';
import { quickjsGlueUrl } from './vite.plugins.js';

// The embeddable <slow-start-runner>, built to dist/element/ as ES modules
// that work two ways:
//
// - Copied with the rest of dist/ (a CDN, a static folder): a page loads
//   `dist/element/slow-start-runner.js` with <script type="module">; every
//   URL is relative to the file that uses it.
// - Imported from the npm package by a bundler (`import 'slowstart/element'`):
//   the consumer's bundler must see the workers and the .wasm files as
//   `new Worker(new URL('./run-worker.js', import.meta.url), { type: 'module' })`
//   and `new URL('./engine.wasm', import.meta.url)`, so that it bundles each
//   worker with its imports and emits each binary (a prebuilt worker copied as
//   a renamed asset loses its relative imports).
//
// So the element is not self-contained: it imports the package's own API and
// WebAssembly glue (`../api/*.js`, `../wasm/*.mjs`, built by tsc and copied by
// scripts/build-package.sh) rather than bundling a copy of them (each .wasm is
// shipped once), and the workers are entries of their own whose URLs are
// written back as plain literals after minification. The main module is a
// small shell: it defines the element and loads the editor and views with
// import() when the first element connects (web/element/element.ts).

const ROOT = resolve(import.meta.dirname);
const SHARED_FOLDERS = ['api', 'wasm'].map((folder) => resolve(ROOT, 'web', folder) + sep);

/** The package's API and glue stay outside the bundle, as relative imports of the built files. */
const packageImports: Plugin = {
  name: 'slowstart-package-imports',
  enforce: 'pre',
  async resolveId(source, importer, options) {
    if (!importer || !source.startsWith('.')) return null;
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true });
    if (!resolved || resolved.external) return resolved;
    const file = resolved.id.split('?')[0];
    const folder = SHARED_FOLDERS.find((f) => file.startsWith(f));
    if (!folder) return null;
    // web/api/x.ts -> ../api/x.js, web/wasm/x.mjs -> ../wasm/x.mjs (every chunk is in dist/element/).
    const path = relative(resolve(ROOT, 'web'), file).split(sep).join('/').replace(/\.ts$/, '.js');
    return { id: `../${path}`, external: true };
  },
};

// The workers: `new URL('./run-worker.ts', import.meta.url)` in the sources
// (which Vite's dev server and the page's build handle) becomes a marker that
// no plugin or minifier touches, and after minification the literal URL of
// the worker's entry in dist/element/.
const WORKERS: Record<string, string> = {
  'web/runner/run-worker.ts': 'run-worker',
  'web/implement/worker.ts': 'implement-worker',
};
const MARKER = '__slowstartWorkerUrl__';
const workerUrls: Plugin = {
  name: 'slowstart-worker-urls',
  enforce: 'pre',
  transform(code, id) {
    if (!/new Worker\(new URL\(/.test(code)) return null;
    const out = code.replace(/new URL\((['"])(\.\/[\w-]+)\.ts\1,\s*import\.meta\.url\)/g, (_whole, _q, path: string) => {
      const source = relative(ROOT, resolve(id, '..', `${path}.ts`)).split(sep).join('/');
      const name = WORKERS[source];
      if (!name) throw new Error(`${id}: the worker ${source} is not an entry of vite.element.config.ts`);
      return `${MARKER}(${JSON.stringify(name)})`;
    });
    return out === code ? null : { code: out, map: null };
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      chunk.code = chunk.code
        .replace(new RegExp(`${MARKER}\\((["'\`])([\\w-]+)\\1\\)`, 'g'), (_m, _q, name: string) => `new URL("./${name}.js",import.meta.url)`)
        // Written as bundlers look for them: string literals, not template literals.
        .replace(/new URL\(`(?:\.\/)?([\w.-]+\.(?:wasm|js))`,import\.meta\.url\)/g, 'new URL("./$1",import.meta.url)')
        .replace(/\{type:`module`\}/g, '{type:"module"}');
      if (chunk.code.includes(MARKER)) throw new Error(`${chunk.fileName}: a worker URL was not written back`);
    }
  },
};

// QuickJS's .wasm: the page's side names it with a `?url` import
// (web/implement/sandbox/quickjs-wasm-url.ts), written here as the package's
// copy, `new URL("../wasm/quickjs.wasm", import.meta.url)` (copied there by
// scripts/build-package.sh), so that a consumer's bundler emits it like the
// engine's. (Library mode would inline it as base64: 33 % bigger, no
// streaming compile, and a CSP violation under `connect-src 'self'`.)
const QUICKJS_WASM_URL = '@jitl/quickjs-wasmfile-release-sync/wasm?url';
const PACKAGE_FILE = '__slowstartPackageFile__';
const quickjsWasmUrl: Plugin = {
  name: 'slowstart-quickjs-wasm-url',
  enforce: 'pre',
  resolveId(source) {
    return source === QUICKJS_WASM_URL ? '\0slowstart-quickjs-wasm-url' : null;
  },
  load(id) {
    return id === '\0slowstart-quickjs-wasm-url' ? `export default ${PACKAGE_FILE}("../wasm/quickjs.wasm");` : null;
  },
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type !== 'chunk') continue;
      chunk.code = chunk.code.replace(
        new RegExp(`${PACKAGE_FILE}\\((["'\`])([\\w./-]+)\\1\\)`, 'g'),
        (_m, _q, path: string) => `new URL("${path}",import.meta.url).href`,
      );
      if (chunk.code.includes(PACKAGE_FILE)) throw new Error(`${chunk.fileName}: the QuickJS .wasm URL was not written back`);
    }
  },
};

// The element's public types are hand-written and standalone (the bundle's
// dependencies are not the package's): shipped next to the file they describe.
const typings: Plugin = {
  name: 'slowstart-element-typings',
  generateBundle() {
    this.emitFile({
      type: 'asset',
      fileName: 'slow-start-runner.d.ts',
      source: readFileSync(new URL('./web/element/element-types.d.ts', import.meta.url), 'utf8'),
    });
    // React 19's JSX typings (`slowstart/element/react`), beside them.
    this.emitFile({
      type: 'asset',
      fileName: 'react.d.ts',
      source: readFileSync(new URL('./web/element/react-types.d.ts', import.meta.url), 'utf8'),
    });
  },
};

export default defineConfig({
  root: '.',
  base: './',
  publicDir: false,
  plugins: [packageImports, workerUrls, quickjsWasmUrl, quickjsGlueUrl, typings],
  build: {
    outDir: 'dist/element',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    sourcemap: false,
    lib: {
      entry: {
        'slow-start-runner': 'web/element/slow-start-runner.ts',
        ...Object.fromEntries(Object.entries(WORKERS).map(([source, name]) => [name, source])),
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rolldownOptions: {
      output: {
        // Fully minified (library mode keeps whitespace by default).
        minify: true,
        chunkFileNames: 'slow-start-runner-[name]-[hash].js',
        assetFileNames: '[name][extname]',
      },
    },
  },
});
