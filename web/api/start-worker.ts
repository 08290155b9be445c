/**
 * Starting one of the package's workers so that it starts wherever the
 * package is served from, and handing it the .wasm URLs it needs.
 *
 * The caller writes the worker the one way every bundler recognises,
 * `() => new Worker(new URL('./run-worker.js', import.meta.url), { type: 'module' })`,
 * and this runs that function with a stand-in for `Worker` to learn which
 * URL and options the bundler (or none) made of it. Then:
 *
 * - a URL in Vite's pre-bundling folder (its dev server, up to Vite 7, moves
 *   the package's code there but not its workers) becomes the package's own
 *   file (package-url.ts);
 * - a URL on another origin (the package on a CDN or a course's asset
 *   host: browsers never run a worker script from another origin) is
 *   started through a same-origin `blob:` script that imports it (the
 *   worker's own imports and fetches then go to that origin, under CORS);
 * - anything else is started as it is.
 *
 * Where the page enforces Trusted Types, the URL goes through the package's
 * own policy (trusted-worker.ts).
 *
 * The worker's first message is the .wasm URLs (worker-wasm.ts): a worker's
 * module graph names no .wasm file, so a bundler emits each one once, from
 * the page's graph. A worker that fails before it says anything is reported
 * in the console with what to do, since the views only fall back (a big
 * script runs on the page) or say "failed to start".
 */
import { packageFileUrl } from './package-url.js';
import { workerScriptUrl } from './trusted-worker.js';
import type { WasmUrlsMessage } from './worker-wasm.js';

export interface WorkerStart {
  /** The worker's file in the package's dist/ (`element/run-worker.js`). */
  file: string;
  /** What the worker is, for the console (`background run`). */
  name: string;
  /** The .wasm URLs the worker needs, by name (`engine`, `lab`, `quickjs`). */
  wasm: Record<string, URL | string>;
}

interface Seen {
  url: string | URL;
  options: WorkerOptions | undefined;
}

/** Runs `create` with a stand-in `Worker` that records its arguments; what it recorded, or a worker `create` made another way. */
function whatCreateMakes(create: () => Worker): Seen | Worker {
  const scope = globalThis as { Worker: typeof Worker };
  const RealWorker = scope.Worker;
  let seen: Seen | undefined;
  const StandIn = function (this: unknown, url: string | URL, options?: WorkerOptions) {
    seen = { url, options };
  } as unknown as typeof Worker;
  let made: Worker;
  scope.Worker = StandIn;
  try {
    made = create();
  } finally {
    scope.Worker = RealWorker;
  }
  return seen ?? made;
}

/** A same-origin script that runs the worker at `url` (a module, or a classic script as a bundler may build it). */
function bootstrapUrl(url: URL, options: WorkerOptions | undefined): string {
  const source = options?.type === 'module' ? `import ${JSON.stringify(url.href)};\n` : `importScripts(${JSON.stringify(url.href)});\n`;
  return URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
}

/** Starts the worker `create` describes (see above) and sends it the .wasm URLs. Throws what `new Worker` throws (a CSP that forbids it). */
export function startWorker(create: () => Worker, start: WorkerStart): Worker {
  const made = whatCreateMakes(create);
  let worker: Worker;
  let shownUrl = '';
  let bootstrap: string | null = null;
  if ('postMessage' in made) worker = made;
  else {
    const url = packageFileUrl(new URL(String(made.url), globalThis.location?.href), start.file);
    shownUrl = url.href;
    const sameOrigin = url.origin === globalThis.location?.origin || url.protocol === 'blob:' || url.protocol === 'data:';
    if (!sameOrigin) bootstrap = bootstrapUrl(url, made.options);
    // Through the package's Trusted Types policy where the page enforces them (trusted-worker.ts).
    worker = new Worker(workerScriptUrl(bootstrap ?? url), made.options);
  }
  let heard = false;
  const heardOrFailed = (event: Event) => {
    if (bootstrap) URL.revokeObjectURL(bootstrap);
    bootstrap = null;
    if (event.type === 'error' && !heard) {
      const why = (event as ErrorEvent).message || 'its script could not be loaded';
      console.error(
        `slowstart: the ${start.name} worker did not start (${shownUrl || start.file}): ${why}. ` +
          'If your bundler does not build `new Worker(new URL(…, import.meta.url))` (Rollup, esbuild), ' +
          "serve the package's dist/ folder as it is and load the element from there (the package's docs: EMBEDDING.md).",
      );
    }
    heard = true;
  };
  worker.addEventListener('message', heardOrFailed, { once: true });
  worker.addEventListener('error', heardOrFailed, { once: true });
  const urls = Object.fromEntries(Object.entries(start.wasm).map(([name, url]) => [name, String(url)]));
  worker.postMessage({ type: 'slowstart-wasm', urls } satisfies WasmUrlsMessage);
  return worker;
}
