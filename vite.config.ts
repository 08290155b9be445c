import { defineConfig } from 'vite';
import { quickjsGlueUrl } from './vite.plugins.js';

// The web runner page: index.html at the repo root, built to dist/site with
// relative URLs so the folder works from any static host or sub-path.
export default defineConfig({
  root: '.',
  base: './',
  publicDir: 'public',
  // QuickJS's .wasm is emitted once, from the page's graph (vite.plugins.ts).
  plugins: [quickjsGlueUrl],
  build: {
    outDir: 'dist/site',
    emptyOutDir: true,
    // The engine's .wasm is fetched by URL; never inline it as base64.
    assetsInlineLimit: 0,
    target: 'es2022',
    rolldownOptions: {
      output: {
        // What the page and its lazy views (implement, Traffic) share goes
        // in one chunk: left to itself, the bundler splits it by which chunks
        // use each module, into several small files the page fetches first.
        codeSplitting: { groups: [{ name: 'shared', minShareCount: 2 }] },
      },
    },
  },
  // The implement mode's worker (web/implement/worker.ts) is created with
  // { type: 'module' } and imports the lab module's glue, whose .wasm URL
  // comes from import.meta.url: build it as an ES module too.
  worker: { format: 'es', plugins: () => [quickjsGlueUrl] },
  // The dev server's dependency scan starts from the page alone. Left to
  // itself it crawls every .html under the root, the test fixtures and the
  // consumer apps of tests/consumers/ too, whose imports (placeholders,
  // other apps' packages) do not resolve here: the scan fails, nothing is
  // pre-bundled, and the page's first visit finds its dependencies one by
  // one, stalls on a re-optimisation (a fresh clone's `npm start`) and can
  // end up holding two copies of @codemirror/state (page.test.ts, implement.test.ts).
  optimizeDeps: { entries: ['index.html'] },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
