// The runner page's production build and dev server for the browser tests:
// each test file builds into its own folder (test-results/<name>) so files
// never delete each other's site.
import { fileURLToPath } from 'node:url';
import { build, createServer, type ViteDevServer } from 'vite';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SHOTS = `${ROOT}test-results/screenshots`;

// What a careful static host would send for the page. CodeMirror needs
// inline styles (style-mod) and data: images (lint markers); WASM needs
// 'wasm-unsafe-eval'. (The embeddable element needs neither: EMBEDDING.md.)
export const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/** `vite build` of the page into test-results/<name>; returns the folder. */
export async function buildSite(name: string): Promise<string> {
  const outDir = `${ROOT}test-results/${name}`;
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  return outDir;
}

/** The dev server (what `npm start` serves) on a free port; close it when done. */
export async function startDevServer(): Promise<{ server: ViteDevServer; url: string }> {
  const server = await createServer({
    root: ROOT,
    configFile: `${ROOT}vite.config.ts`,
    logLevel: 'warn',
    server: { port: 0, host: '127.0.0.1', hmr: false },
  });
  await server.listen();
  return { server, url: server.resolvedUrls!.local[0] };
}
