// A tiny static file server for browser tests, so each test sets its own
// headers (a strict Content-Security-Policy above all).
import { createServer, type Server } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.wasm': 'application/wasm',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
};

export interface StaticServer {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `root` on 127.0.0.1 (a free port). `pages` maps paths to inline
 * HTML (a path with its query, `/view.php?id=2`, before the path alone);
 * `headers` are added to every response, `headersFor(path)` to some.
 */
export async function serveStatic(
  root: string,
  options: {
    headers?: Record<string, string>;
    pages?: Record<string, string>;
    /** Headers for one path, set after (and over) `headers`: e.g. a worker's own CSP. */
    headersFor?: (path: string) => Record<string, string> | undefined;
  } = {},
): Promise<StaticServer> {
  const base = resolve(root);
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const path = decodeURIComponent(url.pathname);
    for (const [k, v] of Object.entries(options.headers ?? {})) res.setHeader(k, v);
    for (const [k, v] of Object.entries(options.headersFor?.(path) ?? {})) res.setHeader(k, v);
    const page = options.pages?.[path + url.search] ?? options.pages?.[path];
    if (page !== undefined) {
      res.setHeader('content-type', TYPES['.html']);
      res.end(page);
      return;
    }
    let file = normalize(join(base, path));
    if (!file.startsWith(base)) {
      res.statusCode = 403;
      res.end();
      return;
    }
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      const body = await readFile(file);
      res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
      res.end(body);
    } catch {
      res.statusCode = 404;
      res.end('not found');
    }
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    // Every connection is ended first: a response still streaming to a tab that a warm
    // browser keeps (support/warm-tabs.ts) kept close() waiting past a hook's 180 s
    // (cut-output's afterAll, in a fresh clone at 17:10).
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        server.closeAllConnections();
      }),
  };
}
