import { readFileSync } from 'node:fs';
import { defineConfig, type Plugin } from 'vite';

// The embeddable <slow-start-runner> as one ES module a plain HTML page
// loads with <script type="module" src=".../slow-start-runner.js">, built to
// dist/element/: the element (CodeMirror and the runner bundled in), the
// engine's .wasm next to it, and the Traffic tab's simulation as a chunk and
// a .wasm that load only when the tab is opened. Every URL is relative to
// the element file (base './' and `new URL(..., import.meta.url)`), so the
// folder works copied anywhere.

// Library mode inlines every asset as base64, whatever assetsInlineLimit
// says. A base64 .wasm is 33 % bigger, cannot be compiled while streaming,
// and its data: fetch is a CSP violation under `connect-src 'self'`. The
// `?no-inline` query opts out, so the Emscripten glue's
// `new URL("engine.wasm", import.meta.url)` gets it before Vite's asset
// plugin sees the URL. The same for QuickJS's glue (the implement mode's
// sandbox), whose .wasm becomes emscripten-module.wasm beside the element.
const EMSCRIPTEN_GLUE = [
  /[\\/]web[\\/]wasm[\\/][\w-]+\.mjs$/,
  /[\\/]@jitl[\\/]quickjs-wasmfile-[\w-]+[\\/]dist[\\/]emscripten-module\.browser\.mjs$/,
];
const wasmAsFile: Plugin = {
  name: 'slowstart-wasm-as-file',
  enforce: 'pre',
  transform(code, id) {
    if (!EMSCRIPTEN_GLUE.some((glue) => glue.test(id))) return null;
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
  plugins: [wasmAsFile, typings],
  // mode="implement" grades the learner's code in a module worker (its own
  // chunk, which loads the lab module and QuickJS, each with its .wasm next to it).
  worker: {
    format: 'es',
    plugins: () => [wasmAsFile],
    // Flat, next to the element like everything else (the default is assets/),
    // with plain names (QuickJS's glue is emscripten-module.browser.mjs).
    rolldownOptions: {
      output: {
        entryFileNames: 'slow-start-runner-[name]-[hash].js',
        chunkFileNames: (chunk) => `slow-start-runner-${chunk.name.replace(/[^\w-]/g, '-')}-[hash].js`,
        assetFileNames: '[name][extname]',
      },
    },
  },
  build: {
    outDir: 'dist/element',
    emptyOutDir: true,
    target: 'es2022',
    assetsInlineLimit: 0,
    sourcemap: false,
    lib: {
      entry: 'web/element/slow-start-runner.ts',
      formats: ['es'],
      fileName: () => 'slow-start-runner.js',
    },
    rolldownOptions: {
      // Library mode keeps the entry's exports exactly as written ('strict'),
      // so code shared with the lazy implement chunk would go to a third,
      // eagerly loaded chunk. Letting the entry export it keeps the element
      // one file; lazy chunks import what they share from it.
      preserveEntrySignatures: 'allow-extension',
      output: {
        // Fully minified: this is a file for pages, not a library for a
        // bundler to tree-shake (library mode keeps whitespace by default).
        minify: true,
        chunkFileNames: 'slow-start-runner-[name]-[hash].js',
        assetFileNames: '[name][extname]',
      },
    },
  },
});
