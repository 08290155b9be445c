// The npm package as a user gets it: `npm pack` (of a clean clone, made
// once per run: support/packed.ts), install the tarball into an empty
// folder, then use it the three ways a Node user would (ESM import, the
// `slowstart` bin through npx, TypeScript types). The Vite + Chromium half is
// tests/web/e2e/package-consumers.test.ts.
//
// Needs build/slowstart (for the byte comparison). The tarball has no
// dependencies, so the install needs no network.
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exec as run, mustExec, packed as packedOnce, ROOT } from '../support/packed.js';

// The SPEC's worked example.
const SCRIPT = 'POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick\n';
const OUTPUT = 'a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\nc\n';
const DIAGNOSTICS = "line 11: unknown command 'pick' (use PICK)\n";

interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell, stdout and stderr apart. */
async function exec(cmd: string, args: string[], cwd: string): Promise<Result> {
  const r = await run(cmd, args, cwd);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

let work: string;
let tarball: string;
let packed: string[];
let clone: string; // what was packed: a clean clone, built by prepack
let readmeBefore: string;
let app: string; // the consumer folder

beforeAll(async () => {
  ({ tarball, files: packed, clone, readmeBefore } = await packedOnce());
  work = await mkdtemp(join(tmpdir(), 'slowstart-package-'));
  app = join(work, 'app');
  await mkdir(app);
  await writeFile(join(app, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true, type: 'module' }));
  await mustExec('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], app);
  await writeFile(join(app, 'spec.txt'), SCRIPT);
}, 300_000);

afterAll(async () => {
  if (work) await rm(work, { recursive: true, force: true });
});

describe('the tarball', () => {
  it('holds only what `files` names (the built API, the WASM modules, README) and package.json, and all of it', async () => {
    const pkg = JSON.parse(await readFile(join(clone, 'package.json'), 'utf8')) as { files: string[] };
    // `files` itself may name only built output and the README.
    expect(pkg.files.filter((f) => !/^(dist\/.+|README\.md|LICENSE|CHANGELOG\.md)$/.test(f))).toEqual([]);

    const named = (p: string) => pkg.files.some((f) => p === f || p.startsWith(`${f.replace(/\/$/, '')}/`));
    const alwaysIncluded = /^(package\.json|README\.md|LICENSE(\.md|\.txt)?)$/i; // npm adds these by itself
    const stray = packed.filter((p) => !alwaysIncluded.test(p) && !named(p));
    expect(stray, `files in ${tarball} that \`files\` does not name`).toEqual([]);
    // What dist/ may hold: compiled modules with their typings, the WASM glue, binary and typings,
    // and the <slow-start-runner> element (one module, its lazy chunk, .wasm files and typings).
    const odd = packed.filter(
      (p) =>
        p.startsWith('dist/') &&
        !/^dist\/(api\/[\w-]+\.(js|d\.ts)|wasm\/[\w-]+\.(mjs|wasm|d\.mts)|element\/[\w.-]+\.(js|wasm|d\.ts))$/.test(p),
    );
    expect(odd, 'unexpected kinds of file under dist/').toEqual([]);

    // Everything `files` names is in it: each file, and each module of a named folder.
    const required = ['package.json'];
    for (const f of pkg.files) {
      const path = join(clone, f);
      if (!existsSync(path)) {
        required.push(f); // a missing file would be silently left out
        continue;
      }
      if (f === 'dist/api') {
        for (const m of await readdir(path)) if (m.endsWith('.js') || m.endsWith('.d.ts')) required.push(`${f}/${m}`);
      } else if (f === 'dist/element' || f === 'dist/wasm') {
        for (const m of await readdir(path)) required.push(`${f}/${m}`);
      } else {
        required.push(f);
      }
    }
    if (existsSync(join(clone, 'README.md'))) required.push('README.md');
    for (const f of required) expect(packed, `${f} missing from the tarball`).toContain(f);
    for (const f of ['engine.mjs', 'engine.wasm', 'engine.d.mts']) expect(packed).toContain(`dist/wasm/${f}`);
    for (const entry of ['index', 'node', 'cli', 'slowstart', 'balancer', 'timeline', 'types'])
      expect(packed).toContain(`dist/api/${entry}.js`);
  });

  it('is a package a web developer trusts on sight: LICENSE, CHANGELOG, the npm README, repository links', async () => {
    const pkg = JSON.parse(await readFile(join(app, 'node_modules/slowstart/package.json'), 'utf8'));
    for (const f of ['LICENSE', 'CHANGELOG.md', 'README.md']) expect(packed).toContain(f);
    expect(await readFile(join(app, 'node_modules/slowstart/LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.bugs.url).toMatch(/^https:\/\//);
    // The npm page shows the tarball's README: the package's own (docs/PACKAGE.md), not the repository's.
    const readme = await readFile(join(app, 'node_modules/slowstart/README.md'), 'utf8');
    expect(readme).toBe(await readFile(join(clone, 'docs/PACKAGE.md'), 'utf8'));
    expect(readme).toContain('npm install ./slowstart-'); // from the package file: the registry name is not the project's (docs/PACKAGE.md, issue 35)
    // Every link works from the npm page: absolute (docs/ is not shipped).
    const links = [...readme.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((l) => !/^https:\/\//.test(l))).toEqual([]);
    // Packing put the repository's README back.
    expect(readmeBefore).not.toBe(readme);
    expect(await readFile(join(clone, 'README.md'), 'utf8')).toBe(readmeBefore);
    // Importing the API pulls in no element code: only element files have side effects.
    expect(pkg.sideEffects).toEqual(['./dist/element/*.js']);
  });

  it('has no sources, tests, build trees or maps', () => {
    expect(packed.filter((p) => /(^|\/)(cpp|web|tests|build|node_modules|scripts|docs)\//.test(p))).toEqual([]);
    expect(packed.filter((p) => /\.(ts|cpp|hpp|map|tsbuildinfo)$/.test(p) && !p.endsWith('.d.ts'))).toEqual([]);
  });

  it('every path package.json points at is in it', async () => {
    const pkg = JSON.parse(await readFile(join(app, 'node_modules/slowstart/package.json'), 'utf8'));
    const targets: string[] = [pkg.types, ...Object.values(pkg.bin as Record<string, string>)];
    const walk = (v: unknown) => {
      if (typeof v === 'string') targets.push(v);
      else if (v && typeof v === 'object') Object.values(v).forEach(walk);
    };
    walk(pkg.exports);
    for (const t of targets) expect(packed, `package.json points at ${t}`).toContain(t.replace(/^\.\//, ''));
  });

  it('declares no runtime dependency its code does not import (so it installs offline)', async () => {
    const pkg = JSON.parse(await readFile(join(app, 'node_modules/slowstart/package.json'), 'utf8'));
    const code = (
      await Promise.all(
        packed.filter((p) => /\.(m?js)$/.test(p)).map((p) => readFile(join(app, 'node_modules/slowstart', p), 'utf8')),
      )
    ).join('\n');
    const unused = Object.keys({ ...pkg.dependencies, ...pkg.peerDependencies }).filter(
      (dep) => !code.includes(`'${dep}'`) && !code.includes(`"${dep}"`) && !code.includes(`'${dep}/`) && !code.includes(`"${dep}/`),
    );
    expect(unused, 'runtime dependencies of the package that nothing in it imports (devDependencies?)').toEqual([]);
  });
});

describe('installed into an empty folder', () => {
  it("a plain Node .mjs script: import { loadSlowStart } from 'slowstart' runs the SPEC's worked example", async () => {
    await writeFile(
      join(app, 'main.mjs'),
      `import { readFile } from 'node:fs/promises';
import { loadSlowStart, Balancer } from 'slowstart';

const slowstart = await loadSlowStart();
const { output, diagnostics } = slowstart.run(await readFile('spec.txt', 'utf8'));
for (const o of output) process.stdout.write(o.text + '\\n');
for (const d of diagnostics) process.stderr.write('line ' + d.line + ': ' + d.message + '\\n');
const b = slowstart.createBalancer();
if (!(b instanceof Balancer)) throw new Error('not a Balancer');
b.dispose();
console.error('resolved ' + import.meta.resolve('slowstart'));
`,
    );
    const r = await exec(process.execPath, ['main.mjs'], app);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe(OUTPUT);
    // Node picks the "node" export (which reads the .wasm from disk) from the installed copy.
    expect(r.stderr).toBe(`${DIAGNOSTICS}resolved file://${app}/node_modules/slowstart/dist/api/node.js\n`);
  });

  it('`npx slowstart FILE` works from that folder, byte for byte the native CLI', async () => {
    const r = await exec('npx', ['--no', 'slowstart', 'spec.txt'], app);
    expect({ code: r.code, stdout: r.stdout, stderr: r.stderr }).toEqual({ code: 1, stdout: OUTPUT, stderr: DIAGNOSTICS });
    if (existsSync(join(ROOT, 'build/slowstart'))) {
      const native = await exec(join(ROOT, 'build/slowstart'), [join(app, 'spec.txt')], app);
      expect(r).toEqual(native);
    }
    const version = await exec('npx', ['--no', '--', 'slowstart', '--version'], app);
    expect(version.stdout).toBe(`slowstart ${JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')).version}\n`);
  });

  it('its types work for a TypeScript user (moduleResolution nodenext and bundler)', async () => {
    await writeFile(
      join(app, 'typed.ts'),
      `import { loadSlowStart, type RunResult, type Diagnostic, Balancer, Timeline } from 'slowstart';

const slowstart = await loadSlowStart();
const result: RunResult = slowstart.run('POOL a=1\\nPICK\\n');
const first: Diagnostic | undefined = result.diagnostics[0];
const line: number = result.output[0].line;
const timeline: Timeline | undefined = result.timeline;
const b: Balancer = slowstart.createBalancer().setPool({ a: 5, b: 1 }).setNow(10n);
const picks: Int32Array = b.pickMany(3);
const winner: string | null = b.pick();
// @ts-expect-error run() takes text or bytes
slowstart.run(42);
export { first, line, timeline, picks, winner };
`,
    );
    const tsc = join(ROOT, 'node_modules/.bin/tsc');
    for (const resolution of ['nodenext', 'bundler']) {
      const config = {
        compilerOptions: {
          target: 'ES2022',
          module: resolution === 'nodenext' ? 'nodenext' : 'esnext',
          moduleResolution: resolution,
          lib: ['ES2022', 'DOM'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['typed.ts'],
      };
      await writeFile(join(app, `tsconfig.${resolution}.json`), JSON.stringify(config));
      const r = await exec(tsc, ['-p', `tsconfig.${resolution}.json`], app);
      expect(r.stdout + r.stderr, `tsc with moduleResolution ${resolution}`).toBe('');
      expect(r.code).toBe(0);
    }
    // A Node-only project: no DOM lib, @types/node, no skipLibCheck; and no public constructor type-checks.
    await writeFile(
      join(app, 'node-only.ts'),
      `import { loadSlowStart, Balancer, SlowStart, SlowStartError, Timeline, type SlowStartErrorCode, type WeightProblem } from 'slowstart';

const slowstart = await loadSlowStart({ locateFile: (path) => path });
try {
  slowstart.createBalancer().setPool({ a: -1 });
} catch (e) {
  if (e instanceof SlowStartError) {
    const code: SlowStartErrorCode = e.code;
    console.log(code, e.line, e.column, e.url);
  }
}
// @ts-expect-error not constructible: loadSlowStart() makes one
new SlowStart();
// @ts-expect-error not constructible: createBalancer() makes one
new Balancer();
// @ts-expect-error not constructible: errors come from the API
new SlowStartError('WRONG_TYPE', 'x', {});
// @ts-expect-error not constructible: a run's result carries one
new Timeline();
export type { WeightProblem };
`,
    );
    const nodeOnly = {
      compilerOptions: {
        target: 'ES2022',
        module: 'nodenext',
        moduleResolution: 'nodenext',
        lib: ['es2022'],
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules/@types')],
        strict: true,
        noEmit: true,
        skipLibCheck: false,
      },
      files: ['node-only.ts'],
    };
    await writeFile(join(app, 'tsconfig.node-only.json'), JSON.stringify(nodeOnly));
    const r = await exec(tsc, ['-p', 'tsconfig.node-only.json'], app);
    expect(r.stdout + r.stderr, 'tsc for a Node-only project (lib es2022, types node, no skipLibCheck)').toBe('');
    expect(r.code).toBe(0);
  }, 180_000); // three tsc runs: a minute when the machine is busy
});
