// The runner page's production build and dev server for the browser tests:
// the page is built once per run (once-per-run.ts) and every file serves
// that folder, read-only (they ran one at a time and built it each).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createServer, type ViteDevServer } from 'vite';
import { oncePerRun } from './once-per-run.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const SHOTS = `${ROOT}test-results/screenshots`;

// What a careful static host would send for the page. CodeMirror needs
// inline styles (style-mod) and data: images (lint markers); WASM needs
// 'wasm-unsafe-eval'. (The embeddable element needs neither: EMBEDDING.md.)
export const PAGE_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:";

/** `vite build` of the page, once per run; returns the folder (serve it, write nothing in it). */
export function buildSite(): Promise<string> {
  return oncePerRun('site', async (dir) => {
    const outDir = join(dir, 'site');
    await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir, emptyOutDir: true } });
    return outDir;
  });
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
