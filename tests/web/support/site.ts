// The runner page's production build and dev server for the browser tests:
// the page is built once per run (once-per-run.ts) and every file serves
// that folder, read-only (they ran one at a time and built it each).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, createLogger, createServer, type LogErrorOptions, type ViteDevServer } from 'vite';
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

export interface DevServer {
  server: ViteDevServer;
  url: string;
  /** What the server warned of or reported as an error (a failed dependency scan, say). */
  warnings: string[];
}

/**
 * The dev server (what `npm start` serves) on a free port, as a fresh clone starts it: with a
 * dependency cache of its own, empty (two files running at once must not share one, and a cache
 * left by an earlier run would hide what a first start does). Close it when done.
 */
export async function startDevServer(): Promise<DevServer> {
  const cacheDir = await mkdtemp(join(tmpdir(), 'slowstart-vite-cache-'));
  const warnings: string[] = [];
  const logger = createLogger('warn');
  const keep = (log: (msg: string, options?: LogErrorOptions) => void) => (msg: string, options?: LogErrorOptions) => {
    warnings.push(msg);
    log(msg, options);
  };
  logger.warn = keep(logger.warn);
  logger.warnOnce = keep(logger.warnOnce);
  logger.error = keep(logger.error);
  const server = await createServer({
    root: ROOT,
    configFile: `${ROOT}vite.config.ts`,
    cacheDir,
    customLogger: logger,
    server: { port: 0, host: '127.0.0.1', hmr: false },
  });
  const close = server.close.bind(server);
  server.close = async () => {
    await close();
    await rm(cacheDir, { recursive: true, force: true });
  };
  await server.listen();
  return { server, url: server.resolvedUrls!.local[0], warnings };
}
