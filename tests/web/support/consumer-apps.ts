// The consumer apps of tests/consumers/ (its README): how each is given the
// package, built and served, for tests/web/e2e/consumer-matrix.test.ts.
// Each is built once per run, for production, under a sub-path (SUB_PATH).
//
// Two kinds: the apps of the npm workspace (tests/consumers/package.json:
// one lock file, one install) are built in their folders; the apps built
// with the repository's own tools (Vite 8, webpack, esbuild: devDependencies)
// and the static page are built in a copy under the run's work folder, so
// that nothing resolves into the workspace's node_modules (its Vite is 5).
import { spawn, type ChildProcess } from 'node:child_process';
import { access, cp, mkdir, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { mustExec } from './packed.js';
import { serveStatic } from './static-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
export const CONSUMERS = join(ROOT, 'tests/consumers');
/** Where every app is served in production. */
export const SUB_PATH = '/course/';
/**
 * A strict policy for the apps whose pages have no inline script: scripts,
 * workers and .wasm from the page's origin only (img-src data: is the
 * course page's own blank icon, `<link rel="icon" href="data:,">`).
 */
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:";

export interface Served {
  url: string;
  close(): Promise<void>;
}

/** Where an app is built: its folder (`dir`), and the run's work folder (copies, the unpacked package). */
export interface BuildPlace {
  dir: string;
  work: string;
  /** The package's dist/ as the tarball has it. */
  tarballDist: string;
  /** Runs a build command in `dir` (mustExec's way), adding its CPU time to the place's. */
  exec(cmd: string, args: string[], env?: Record<string, string>): Promise<void>;
}

/** A BuildPlace whose `exec` counts the CPU time (user + sys) of all it runs, as bash's `times` reports its children's. */
export function buildPlace(dir: string, work: string, tarballDist: string): BuildPlace & { cpuSeconds(): number } {
  let cpu = 0;
  let n = 0;
  return {
    dir,
    work,
    tarballDist,
    cpuSeconds: () => cpu,
    async exec(cmd, args, env = {}) {
      const times = join(work, `times-${process.pid}-${Date.now()}-${n++}`);
      await mustExec('bash', ['-c', '"$@"; s=$?; times >"$0"; exit $s', times, cmd, ...args], dir, { ...quiet, ...env });
      // Two lines, "0m0.01s 0m0.00s" (the shell) then its children's user and sys.
      const children = (await readFile(times, 'utf8')).trim().split('\n')[1] ?? '';
      for (const [, m, sec] of children.matchAll(/(\d+)m([\d.]+)s/g)) cpu += Number(m) * 60 + Number(sec);
      await rm(times, { force: true });
    },
  };
}

export interface ConsumerApp {
  /** The row's name in docs/TESTING.md's matrix. */
  name: string;
  /** Its folder in tests/consumers/ (null: the static page, course-page.html). */
  folder: string | null;
  /** Built in its folder (a workspace app) rather than in a copy. */
  inPlace: boolean;
  /** What it is, for the matrix. */
  setup: string;
  /** What the page's `#api-output` shows once the API answered (null: the page does not call it). */
  api: string | null;
  /** Served with STRICT_CSP. */
  csp: boolean;
  /** Files the app needs before a build or its dev server (after it was given the package). */
  prepare?(dir: string): Promise<void>;
  /** Builds it; resolves to the folder whose files are the site's (counted for .wasm files). */
  build(place: BuildPlace): Promise<string>;
  /** Serves the built app; the page is at `url`. */
  serve(dir: string, output: string): Promise<Served>;
  /** The script the page loads first, for apps that bundle the element's code: it must not hold the editor (that loads with the first element). */
  entry?(output: string): Promise<string>;
}

const quiet = { NEXT_TELEMETRY_DISABLED: '1', ASTRO_TELEMETRY_DISABLED: '1', DO_NOT_TRACK: '1', CI: '1' };

/** A tool's command: the app's own node_modules/.bin, else the workspace's (npm hoists most), else the repository's. */
export async function bin(dir: string, name: string): Promise<string> {
  for (const base of [dir, CONSUMERS, ROOT]) {
    const path = join(base, 'node_modules/.bin', name);
    if (await access(path).then(() => true, () => false)) return path;
  }
  throw new Error(`no ${name} in ${dir}, ${CONSUMERS} or ${ROOT} (node_modules/.bin): run tests/consumers/install.sh`);
}

/** The course page with an app's script tags. */
export async function coursePage(scripts: string): Promise<string> {
  return (await readFile(join(CONSUMERS, 'course-page.html'), 'utf8')).replace('<!--SCRIPTS-->', scripts);
}

/** Serves `output` at SUB_PATH. */
async function serveUnder(output: string, headers: Record<string, string> = {}): Promise<Served> {
  const site = join(output, '..', `.site-${Date.now()}-${Math.random().toString(36).slice(2)}`);
  await mkdir(site, { recursive: true });
  await symlink(output, join(site, SUB_PATH.replace(/\/$/, '')));
  const server = await serveStatic(site, { headers });
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
  const exited = new Promise<void>((ok) => child.on('exit', () => ok()));
  const close = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
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

/** The package's tarball, unpacked into the app's own node_modules as `npm install <tarball>` would (it has no dependencies). */
export async function givePackage(dir: string, tarball: string): Promise<void> {
  const target = join(dir, 'node_modules/slowstart');
  await rm(target, { recursive: true, force: true });
  await mkdir(target, { recursive: true });
  await mustExec('tar', ['xzf', tarball, '-C', target, '--strip-components=1'], dir);
}

/** A copy of the app's folder in the work folder, with a copy of show-api.js in it (inside the app: Vite's dev server serves nothing above its root). */
export async function copyApp(folder: string, work: string): Promise<string> {
  const dir = join(work, 'apps', folder);
  await rm(dir, { recursive: true, force: true });
  await cp(join(CONSUMERS, folder), dir, { recursive: true, filter: (src) => !/\/(node_modules|dist)$/.test(src) });
  await cp(join(CONSUMERS, 'show-api.js'), join(dir, 'show-api.js'));
  return dir;
}

const API_PAGE = 'a a b; true SlowStartError INVALID_ARGUMENT';
const PICKS = 'a a b';

const viteApp = (name: string, setup: string): ConsumerApp => ({
  name,
  folder: name,
  inPlace: true,
  setup,
  api: PICKS,
  csp: false,
  async build({ dir, exec }) {
    // The user's command with Vite's defaults but the sub-path.
    await exec(await bin(dir, 'vite'), ['build', '--base', SUB_PATH, '--logLevel', 'warn', '--outDir', 'dist']);
    return join(dir, 'dist');
  },
  serve: (_dir, output) => serveUnder(output),
});

/** The script of index.html (Vite names it by hash). */
async function viteEntry(output: string): Promise<string> {
  const html = await readFile(join(output, 'index.html'), 'utf8');
  const src = /<script type="module" crossorigin src="([^"]+)"/.exec(html)?.[1];
  if (!src) throw new Error(`no module script in ${output}/index.html`);
  return join(output, src.slice(SUB_PATH.length));
}

const nextApp = (bundler: 'turbopack' | 'webpack'): ConsumerApp => {
  // The webpack build without webpack's minifier (next.config.mjs says why); Turbopack's is
  // minified. Neither writes its persistent build cache (no build here reads one: next.config.mjs).
  const env = {
    SITE_BASE: SUB_PATH.replace(/\/$/, ''),
    NEXT_DIST_DIR: `.next-${bundler}`,
    NEXT_NO_BUILD_CACHE: '1',
    ...(bundler === 'webpack' && { NEXT_WEBPACK_NO_MINIFY: '1' }),
  };
  return {
    name: `next-${bundler}`,
    folder: 'next',
    inPlace: true,
    setup: `Next.js 16, App Router, ${bundler === 'turbopack' ? 'Turbopack' : 'webpack, its minifier off'} (React 19): a client component with the elements, a server component calling loadSlowStart()`,
    api: PICKS,
    csp: false,
    async build({ dir, exec }) {
      // webpack's cache, as Docusaurus's below: it served the .wasm of an earlier run's slowstart 0.2.0.
      if (bundler === 'webpack') await rm(join(dir, env.NEXT_DIST_DIR, 'cache'), { recursive: true, force: true });
      await exec(await bin(dir, 'next'), ['build', ...(bundler === 'webpack' ? ['--webpack'] : [])], env);
      return join(dir, env.NEXT_DIST_DIR, 'static');
    },
    async serve(dir) {
      const port = await freePort();
      return startServer(await bin(dir, 'next'), ['start', '--port', String(port), '--hostname', '127.0.0.1'], dir, `http://127.0.0.1:${port}${SUB_PATH}`, env);
    },
  };
};

/** A site generator's app: `args` build it into `out` (relative to its folder), under SUB_PATH; `env` is the build's. */
const generator = (
  name: string,
  setup: string,
  command: string,
  args: string[],
  out: string,
  prepare?: (dir: string) => Promise<void>,
  env: Record<string, string> = {},
): ConsumerApp => ({
  name,
  folder: name,
  inPlace: true,
  setup,
  api: null,
  csp: false,
  prepare,
  async build({ dir, exec }) {
    await exec(await bin(dir, command), args, { SITE_BASE: SUB_PATH, ...env });
    return join(dir, out);
  },
  serve: (_dir, output) => serveUnder(output),
});

export const APPS: ConsumerApp[] = [
  {
    name: 'static',
    folder: null,
    inPlace: false,
    setup: "a static page (MkDocs, Quarto, Jupyter Book output): the package's dist/ copied beside it, script tags",
    api: API_PAGE,
    csp: false,
    async build({ work, tarballDist }) {
      const out = join(work, 'static-site');
      await rm(out, { recursive: true, force: true });
      await cp(tarballDist, join(out, 'slowstart'), { recursive: true });
      await cp(join(CONSUMERS, 'show-api.js'), join(out, 'show-api.js'));
      await writeFile(join(out, 'index.html'), await staticScripts('./slowstart/'));
      return out;
    },
    serve: (_dir, output) => serveUnder(output),
  },
  {
    name: 'rollup',
    folder: 'rollup',
    inPlace: true,
    setup: 'Rollup 4 with the documented recipe (the package external, its dist/ copied)',
    api: API_PAGE,
    csp: true,
    async build({ dir, exec }) {
      await exec(await bin(dir, 'rollup'), ['-c', '--silent']);
      await writeFile(join(dir, 'dist/index.html'), await coursePage('<script type="module" src="./main.js"></script>'));
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output, { 'content-security-policy': STRICT_CSP }),
  },
  viteApp('vite5-svelte', 'Vite 5 + Svelte 5, defaults (workers built as iife)'),
  viteApp('vite6-vue', 'Vite 6 + Vue 3 (isCustomElement), defaults'),
  viteApp('vite7-react', "Vite 7 + React 19 (props, events, JSX typings under the template's strict tsconfig), defaults"),
  {
    name: 'vite8',
    folder: 'vite8',
    inPlace: false,
    setup: 'Vite 8, no config file',
    api: API_PAGE,
    csp: true,
    async prepare(dir) {
      await writeFile(join(dir, 'index.html'), await coursePage('<script type="module" src="./main.js"></script>'));
    },
    async build({ dir, exec }) {
      await exec(await bin(dir, 'vite'), ['build', '--base', SUB_PATH, '--logLevel', 'warn']);
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output, { 'content-security-policy': STRICT_CSP }),
    entry: viteEntry,
  },
  {
    name: 'webpack',
    folder: 'webpack',
    inPlace: false,
    setup: 'webpack 5, production mode',
    api: API_PAGE,
    csp: true,
    async build({ dir, exec }) {
      await exec(await bin(dir, 'webpack'), ['--config', 'webpack.config.js']);
      await writeFile(join(dir, 'dist/index.html'), await coursePage('<script defer src="main.js"></script>'));
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output, { 'content-security-policy': STRICT_CSP }),
    entry: async (output) => join(output, 'main.js'),
  },
  {
    name: 'esbuild',
    folder: 'esbuild',
    inPlace: false,
    setup: "esbuild with the documented set-up (the package's dist/ copied, locateFile)",
    api: API_PAGE,
    csp: true,
    async build({ dir, exec }) {
      await exec(await bin(dir, 'esbuild'), ['main.js', '--bundle', '--format=esm', '--minify', '--outfile=dist/main.js']);
      await cp(join(dir, 'node_modules/slowstart/dist'), join(dir, 'dist/slowstart'), { recursive: true });
      await writeFile(
        join(dir, 'dist/index.html'),
        await coursePage('<script type="module" src="main.js"></script>\n<script type="module" src="slowstart/element/slow-start-runner.js"></script>'),
      );
      return join(dir, 'dist');
    },
    serve: (_dir, output) => serveUnder(output, { 'content-security-policy': STRICT_CSP }),
  },
  generator('vitepress', 'VitePress 1.6 (Vite 5, Vue): a Markdown page', 'vitepress', ['build', 'docs'], 'docs/.vitepress/dist'),
  generator('astro', 'Astro 5 + Starlight 0.37: an MDX page', 'astro', ['build', '--silent'], 'dist'),
  // Not minified (Docusaurus' own --no-minify): 52 s of CPU instead of 91 s (measured one
  // after the other, caches emptied), and a minifier does not touch what is tested (the URLs
  // webpack rewrote; no webpack build here is minified: the webpack app's config and the Next
  // app's webpack build (next.config.mjs) leave it off too; its Turbopack build, the Vite apps
  // and esbuild's are minified).
  //
  // No persistent cache (Docusaurus' own DOCUSAURUS_NO_PERSISTENT_CACHE): webpack's cache
  // (node_modules/.cache) trusts a package in node_modules by its name and version, which stay
  // slowstart 0.2.0 from commit to commit: a build after an earlier run's resolved the
  // element's old chunk names ("Can't resolve './slow-start-runner-format-….js'"; Next's
  // webpack build emitted the old .wasm). So the build never reads one (a fresh clone has
  // none, and one left by a run before this setting is removed), and writing it was waste:
  // 57 s of CPU with it, 31-34 s without (two pairs, one after the other; PL-40).
  generator(
    'docusaurus',
    'Docusaurus 3.10 (React 19, webpack; --no-minify): an MDX page',
    'docusaurus',
    ['build', '--out-dir', 'build', '--no-minify'],
    'build',
    async (dir) => {
      await rm(join(dir, 'node_modules/.cache'), { recursive: true, force: true });
    },
    { DOCUSAURUS_NO_PERSISTENT_CACHE: '1' },
  ),
  nextApp('turbopack'),
  nextApp('webpack'),
];

/** The static page with the package at `pkg` (a folder beside it, or another origin). */
export function staticScripts(pkg: string): Promise<string> {
  return coursePage(`<script type="module" src="${pkg}element/slow-start-runner.js"></script>
<script type="module">
  import * as slowstart from '${pkg}api/index.js';
  import { showApi } from './show-api.js';
  showApi(slowstart);
</script>`);
}

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
