import { readFileSync } from 'node:fs';
import { relative, resolve, sep } from 'node:path';
import { defineConfig, type Plugin } from 'vite';

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
  'web/traffic/lab-worker.ts': 'lab-worker',
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

// Library mode inlines every asset as base64, whatever assetsInlineLimit
// says. A base64 .wasm is 33 % bigger, cannot be compiled while streaming,
// and its data: fetch is a CSP violation under `connect-src 'self'`. The
// `?no-inline` query opts out, for the one .wasm the element bundles:
// QuickJS's (the implement mode's sandbox), emscripten-module.wasm.
const QUICKJS_GLUE = /[\\/]@jitl[\\/]quickjs-wasmfile-[\w-]+[\\/]dist[\\/]emscripten-module\.browser\.mjs$/;
const wasmAsFile: Plugin = {
  name: 'slowstart-wasm-as-file',
  enforce: 'pre',
  transform(code, id) {
    if (!QUICKJS_GLUE.test(id)) return null;
    const out = code.replace(/new URL\((["'])([\w-]+\.wasm)\1,\s*import\.meta\.url\)/g, 'new URL("./$2?no-inline", import.meta.url)');
    return out === code ? null : { code: out, map: null };
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
  },
};

export default defineConfig({
  root: '.',
  base: './',
  publicDir: false,
  plugins: [packageImports, workerUrls, wasmAsFile, typings],
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
