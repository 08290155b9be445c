// The consumer apps of tests/consumers/ (its README): how each is
// installed, given the package, built and served, for
// tests/web/e2e/consumer-matrix.test.ts. Each is built once per run, for
// production, under a sub-path (SUB_PATH); the Vite apps are also run by
// their dev server, at / (Vite 5, 7) and under the sub-path (Vite 6).
import { spawn, type ChildProcess } from 'node:child_process';
import { cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { mustExec } from './packed.js';
import { serveStatic } from './static-server.js';

export const CONSUMERS = resolve(import.meta.dirname, '../../consumers');
/** Where every app is served in production. */
export const SUB_PATH = '/course/';

export interface Served {
  url: string;
  close(): Promise<void>;
}

export interface ConsumerApp {
  /** The row's name in docs/TESTING.md's matrix. */
  name: string;
  /** Its folder in tests/consumers/ (null: none to install, the tarball's dist/ is the site). */
  folder: string | null;
  /** What it is, for the matrix. */
  setup: string;
  /** The page calls the API (its `#api-output` shows the picks). */
  api: boolean;
  /** Builds it (in its folder); resolves to the folder whose files are the site's (counted for .wasm files). */
  build(dir: string, tarballDist: string): Promise<string>;
  /** Serves the built app; the page is at `url`. */
  serve(dir: string, output: string): Promise<Served>;
}

const bin = (dir: string, name: string) => join(dir, 'node_modules/.bin', name);
const quiet = { NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', CI: '1' };

/** Serves `output` at SUB_PATH. */
async function serveUnder(output: string): Promise<Served> {
  const site = join(output, '..', `.site-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await mkdir(site, { recursive: true });
  await symlink(output, join(site, SUB_PATH.replace(/\/$/, '')));
  const server = await serveStatic(site);
  return { url: `${server.url}${SUB_PATH}`, close: async () => (await server.close(), await rm(site, { recursive: true, force: true })) };
}

/** A free port on 127.0.0.1 (for servers that cannot be told port 0). */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.on('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

/** Starts a server process and resolves once `ready` answers 200 (its output, on failure). */
export async function startServer(cmd: string, args: string[], cwd: string, url: string, env: Record<string, string> = {}): Promise<Served> {
  const child: ChildProcess = spawn(cmd, args, { cwd, env: { ...process.env, ...quiet, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (b: Buffer) => (out += b));
  child.stderr!.on('data', (b: Buffer) => (out += b));
  const close = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGTERM');
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited ${child.exitCode}:\n${out.slice(-3000)}`);
    try {
      if ((await fetch(url)).ok) return { url, close };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await close();
  throw new Error(`${cmd} did not answer at ${url}:\n${out.slice(-3000)}`);
}

/** The package's tarball, unpacked as `npm install <tarball>` would (it has no dependencies). */
export async function givePackage(dir: string, tarball: string): Promise<void> {
  const target = join(dir, 'node_modules/slowstart');
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  await mustExec('tar', ['xzf', tarball, '-C', target, '--strip-components=1'], dir);
}

const viteApp = (name: string, setup: string): ConsumerApp => ({
  name,
  folder: name,
  setup,
  api: true,
  async build(dir) {
    // The user's command with Vite's defaults but the sub-path.
    await mustExec(bin(dir, 'vite'), ['build', '--base', SUB_PATH, '--logLevel', 'warn', '--outDir', 'dist'], dir, quiet);
    return join(dir, 'dist');
  },
  serve: (_dir, output) => serveUnder(output),
});

const nextApp = (bundler: 'turbopack' | 'webpack'): ConsumerApp => {
  const env = { SITE_BASE: SUB_PATH.replace(/\/$/, ''), NEXT_DIST_DIR: `.next-${bundler}` };
  return {
    name: `next-${bundler}`,
    folder: 'next',
    setup: `Next.js 16, App Router, ${bundler === 'turbopack' ? 'Turbopack' : 'webpack'} (React 19): a client component with the elements, a server component calling loadSlowStart()`,
    api: true,
    async build(dir) {
      await mustExec(bin(dir, 'next'), ['build', ...(bundler === 'webpack' ? ['--webpack'] : [])], dir, { ...quiet, ...env });
      return join(dir, env.NEXT_DIST_DIR, 'static');
    },
    async serve(dir) {
      const port = await freePort();
      return startServer(bin(dir, 'next'), ['start', '--port', String(port), '--hostname', '127.0.0.1'], dir, `http://127.0.0.1:${port}${SUB_PATH}`, env);
    },
  };
};

export const APPS: ConsumerApp[] = [
  {
    name: 'static',
    folder: null,
    setup: "a static page (MkDocs, Quarto, Jupyter Book output): the package's dist/ copied beside it, one <script type=\"module\">",
    api: true,
    async build(dir, tarballDist) {
      const out = join(dir, 'static-site');
      await rm(out, { recursive: true, force: true });
      await cp(tarballDist, join(out, 'slowstart'), { recursive: true });
      const html = await readFile(join(CONSUMERS, 'static/index.html'), 'utf8');
      await writeFile(join(out, 'index.html'), html.replaceAll('__PKG__', './slowstart/'));
      return out;
    },
    serve: (_dir, output) => serveUnder(output),
  },
  {
    name: 'rollup',
    folder: 'rollup',
    setup: 'Rollup 4 with the documented recipe (the package external, its dist/ copied)',
    api: true,
    async build(dir) {
      await mustExec(bin(dir, 'rollup'), ['-c', '--silent'], dir, quiet);
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output),
  },
  viteApp('vite5-svelte', 'Vite 5 + Svelte 5, defaults (workers built as iife)'),
  viteApp('vite6-vue', 'Vite 6 + Vue 3 (isCustomElement), defaults'),
  viteApp('vite7-react', 'Vite 7 + React 19 (props, events, JSX typings under the template\'s strict tsconfig), defaults'),
  {
    name: 'vitepress',
    folder: 'vitepress',
    setup: 'VitePress 1.6 (Vite 5, Vue): a Markdown page',
    api: false,
    async build(dir) {
      await mustExec(bin(dir, 'vitepress'), ['build', 'docs'], dir, { ...quiet, SITE_BASE: SUB_PATH });
      return join(dir, 'docs/.vitepress/dist');
    },
    serve: (_dir, output) => serveUnder(output),
  },
  {
    name: 'astro',
    folder: 'astro',
    setup: 'Astro 5 + Starlight 0.37: an MDX page',
    api: false,
    async build(dir) {
      await mustExec(bin(dir, 'astro'), ['build', '--silent'], dir, { ...quiet, SITE_BASE: SUB_PATH });
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output),
  },
  {
    name: 'docusaurus',
    folder: 'docusaurus',
    setup: 'Docusaurus 3.10 (React 19, webpack): an MDX page',
    api: false,
    async build(dir) {
      await mustExec(bin(dir, 'docusaurus'), ['build', '--out-dir', 'build'], dir, { ...quiet, SITE_BASE: SUB_PATH });
      return join(dir, 'build');
    },
    serve: (_dir, output) => serveUnder(output),
  },
  nextApp('turbopack'),
  nextApp('webpack'),
];

/**
 * The .wasm files under `dir`, named by which of the package's they are
 * (compared byte for byte with `reference`, the tarball's dist/: bundlers
 * rename them, Docusaurus to a bare hash): { engine: 1, lab: 1, quickjs: 1 }
 * when each was emitted once.
 */
export async function wasmCounts(dir: string, reference: string): Promise<Record<string, number>> {
  const known = await Promise.all(['engine', 'lab', 'quickjs'].map(async (name) => ({ name, bytes: await readFile(join(reference, 'wasm', `${name}.wasm`)) })));
  const counts: Record<string, number> = {};
  const walk = async (d: string): Promise<void> => {
    for (const entry of await readdir(d)) {
      const path = join(d, entry);
      if ((await stat(path)).isDirectory()) await walk(path);
      else if (entry.endsWith('.wasm')) {
        const bytes = await readFile(path);
        const name = known.find((k) => k.bytes.equals(bytes))?.name ?? entry;
        counts[name] = (counts[name] ?? 0) + 1;
      }
    }
  };
  await walk(dir);
  return counts;
}
