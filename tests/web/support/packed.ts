// The npm package as `npm pack` makes it from a clean clone of this
// repository (git clone: what is committed, nothing built, so packing must
// build: scripts/prepack.sh), made once per Vitest run (once-per-run.ts)
// for the test files that need it (package.test.ts,
// e2e/consumer-matrix.test.ts). Packing a clone leaves this tree alone
// (packing here would rebuild dist/ and swap README.md under the files
// running beside it). The clone's WebAssembly compiles go through ccache
// when it is installed (scripts/build-wasm.sh, keyed on paths relative to the
// tree): what this tree compiled, the clone does not compile again (on the
// loaded 2-core VM the compiles were 82 of the clone build's 110 s of CPU).
// The link (LTO, wasm-opt) is a copy of this tree's when its inputs (the
// objects, archives, flags, emcc) are the same (scripts/wasm-link-cache.sh);
// the package build runs in the clone.
import { spawn } from 'node:child_process';
import { readFileSync, symlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { oncePerRun } from './once-per-run.js';

export const ROOT = resolve(import.meta.dirname, '../../..');

export interface Packed {
  /** The tarball's path. */
  tarball: string;
  /** The paths in it, sorted. */
  files: string[];
  /** The clone it was packed from (its dist/ is what was packed). */
  clone: string;
  /** The clone's README.md before packing (prepack swaps in the npm README; postpack puts it back). */
  readmeBefore: string;
}

export interface Run {
  code: number | null;
  /** stdout and stderr as they came. */
  out: string;
  stdout: string;
  stderr: string;
}

/** Runs a command without a shell; quiet npm, no update check. */
export function exec(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((ok, fail) => {
    const child = spawn(cmd, args, {
      cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...env },
    });
    let out = '';
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => ((out += b), (stdout += b)));
    child.stderr.on('data', (b: Buffer) => ((out += b), (stderr += b)));
    child.on('error', fail);
    child.on('close', (code) => ok({ code, out, stdout, stderr }));
  });
}

/** Runs it and returns its stdout; throws with the output when it fails. */
export async function mustExec(cmd: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<string> {
  const r = await exec(cmd, args, cwd, env);
  if (r.code !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${r.code}:\n${r.out.slice(-4000)}`);
  return r.stdout;
}

async function pack(dir: string): Promise<Packed> {
  // A clean clone: what is committed, nothing built. Its build tools are this tree's.
  const clone = join(dir, 'clone');
  await mustExec('git', ['clone', '--quiet', '--no-hardlinks', ROOT, clone], dir);
  symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
  const readmeBefore = readFileSync(join(clone, 'README.md'), 'utf8');
  const stdout = await mustExec('npm', ['pack', '--json', '--pack-destination', dir], clone);
  const [info] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
  return { tarball: join(dir, info.filename), files: info.files.map((f) => f.path).sort(), clone, readmeBefore };
}

/** The package packed from a clean clone, once per run (the first caller packs; the others wait). */
export function packed(): Promise<Packed> {
  return oncePerRun('pack', pack);
}
