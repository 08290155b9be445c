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
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
});
