// Parity: the Node CLI (`node dist/api/cli.js`, the engine in WASM) must be
// byte for byte the native CLI (`build/slowstart`): same stdout bytes, same
// stderr bytes, same exit status, whether the script comes as a FILE argument
// or on stdin. And the typed API's run() must report the same output lines and
// diagnostics, with the same line numbers.
//
// Inputs: every golden case in tests/cases/*.txt, plus a few hundred randomly
// generated scripts (a seeded PRNG; the seed is printed on failure and the
// failing scripts are kept on disk). Reproduce with
//   PARITY_SEED=<seed> npx vitest run --project unit tests/web/unit/cli-parity.test.ts
// More scripts with PARITY_COUNT=<n>.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slowstart } from '../support/engine.js';
import { prng } from '../support/prng.mjs';

const ROOT = resolve(import.meta.dirname, '../../..');
const NATIVE = join(ROOT, 'build/slowstart');
const NODE_CLI = process.env.PARITY_NODE_CLI ?? join(ROOT, 'dist/api/cli.js');
const CASES = join(ROOT, 'tests/cases');

const SEED = process.env.PARITY_SEED ? Number(process.env.PARITY_SEED) >>> 0 : (Math.random() * 2 ** 32) >>> 0;
const COUNT = Number(process.env.PARITY_COUNT ?? 200);
// Node processes are CPU-bound for ~0.1 s each: a few more than the cores.
const PARALLEL = Math.max(2, Math.min(8, availableParallelism() + 1));

// ---------------------------------------------------------------------------
// Running the CLIs

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: Buffer;
}

type Cli = 'native' | 'node';

/** Runs a CLI with raw byte capture; `stdin` undefined means /dev/null. */
function runCli(cli: Cli, args: string[], stdin?: Buffer): Promise<Run> {
  const [cmd, argv] = cli === 'native' ? [NATIVE, args] : [process.execPath, [NODE_CLI, ...args]];
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, { stdio: [stdin ? 'pipe' : 'ignore', 'pipe', 'pipe'], cwd: ROOT });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on('data', (b: Buffer) => out.push(b));
    child.stderr!.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    if (stdin) {
      child.stdin!.on('error', () => {}); // EPIPE if the CLI stops reading: the result shows it
      child.stdin!.end(stdin);
    }
    child.on('close', (code, signal) =>
      ok({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }),
    );
  });
}

/** Runs async jobs, at most `limit` at a time, keeping their order. */
async function pool<T, R>(items: readonly T[], limit: number, job: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await job(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

// ---------------------------------------------------------------------------
// Showing bytes in failure messages

/** Bytes as readable text: printable ASCII and valid UTF-8 as is, the rest as \xNN, \r, \t, \n. */
function show(bytes: Buffer, max = 4000): string {
  const text = bytes.subarray(0, max).toString('latin1');
  let s = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a) s += '\\n\n';
    else if (c === 0x0d) s += '\\r';
    else if (c === 0x09) s += '\\t';
    else if (c === 0x5c) s += '\\\\';
    else if (c >= 0x20 && c < 0x7f) s += text[i];
    else s += `\\x${c.toString(16).padStart(2, '0')}`;
  }
  return bytes.length > max ? `${s}… (${bytes.length} bytes)` : s;
}

function firstDifference(a: Buffer, b: Buffer): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i;
  return a.length === b.length ? -1 : n;
}

/** '' when the runs agree, else a description of every difference. */
function compareRuns(want: Run, got: Run, wantLabel: string, gotLabel: string): string {
  const parts: string[] = [];
  if (want.code !== got.code || want.signal !== got.signal)
    parts.push(`exit: ${wantLabel} ${want.code ?? want.signal}, ${gotLabel} ${got.code ?? got.signal}`);
  for (const stream of ['stdout', 'stderr'] as const) {
    const a = want[stream];
    const b = got[stream];
    if (a.equals(b)) continue;
    const at = firstDifference(a, b);
    const from = Math.max(0, a.lastIndexOf(0x0a, at - 1) + 1);
    parts.push(
      `${stream} differs at byte ${at} (${wantLabel} ${a.length} bytes, ${gotLabel} ${b.length} bytes):\n` +
        `  ${wantLabel}: ${show(a.subarray(from, at + 200), 400)}\n` +
        `  ${gotLabel}: ${show(b.subarray(from, at + 200), 400)}`,
    );
  }
  return parts.join('\n');
}

// ---------------------------------------------------------------------------
// The typed API, formatted the way the CLI prints

/** What the API's run() says, as the CLI's stdout/stderr bytes, plus an independent line-number check. */
function apiAsCli(script: Buffer): { stdout: Buffer; stderr: Buffer; code: number; problems: string[] } {
  const r = slowstart.run(new Uint8Array(script.buffer, script.byteOffset, script.length), { timeline: false });
  const stdout = Buffer.from(r.output.map((o) => `${o.text}\n`).join(''), 'utf8');
  const stderr = Buffer.from(r.diagnostics.map((d) => `line ${d.line}: ${d.message}\n`).join(''), 'utf8');
  const problems: string[] = [];

  // Independently of the engine: every accepted PICK/WEIGHTS line prints exactly
  // one output line, tagged with its own line number.
  const rejected = new Set(r.diagnostics.map((d) => d.line));
  // SPEC: a UTF-8 byte-order mark at the very start of a script is ignored (nowhere else).
  const lines = script.toString('latin1').replace(/^\xef\xbb\xbf/, '').split('\n');
  if (lines.at(-1) === '') lines.pop(); // the text after the last '\n' is a line only if non-empty
  const printing: number[] = [];
  lines.forEach((line, i) => {
    const tokens = line.replace(/\r$/, '').split(/[ \t]+/).filter(Boolean);
    if ((tokens[0] === 'PICK' || tokens[0] === 'WEIGHTS') && !rejected.has(i + 1)) printing.push(i + 1);
  });
  const outLines = r.output.map((o) => o.line);
  if (JSON.stringify(outLines) !== JSON.stringify(printing))
    problems.push(`API output line numbers ${JSON.stringify(outLines)}, expected ${JSON.stringify(printing)}`);
  const diagLines = r.diagnostics.map((d) => d.line);
  if (diagLines.some((n, i) => n < 1 || n > lines.length || (i > 0 && n <= diagLines[i - 1])))
    problems.push(`API diagnostic line numbers not increasing within 1..${lines.length}: ${JSON.stringify(diagLines)}`);
  for (const d of r.diagnostics) if (!d.message || /[\n\r]/.test(d.message)) problems.push(`bad message ${JSON.stringify(d)}`);
  return { stdout, stderr, code: r.diagnostics.length > 0 ? 1 : 0, problems };
}

function compareApi(script: Buffer, cli: Run): string {
  const api = apiAsCli(script);
  const parts = [...api.problems];
  const d = compareRuns(cli, { code: api.code, signal: null, stdout: api.stdout, stderr: api.stderr }, 'CLI', 'API run()');
  if (d) parts.push(d);
  return parts.join('\n');
}

// ---------------------------------------------------------------------------
// Random scripts

type Piece = string | Buffer;
const b = (...bytes: number[]) => Buffer.from(bytes);

class ScriptGen {
  readonly rand: () => number;
  names: string[] = []; // roughly the pool, so DOWN/UP/ADD often hit real names
  now = 0;

  constructor(seed: number) {
    this.rand = prng(seed);
  }

  int(n: number): number {
    return Math.floor(this.rand() * n);
  }
  chance(p: number): boolean {
    return this.rand() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)];
  }

  static readonly GOOD_NAMES = ['a', 'b', 'c', 'd', 'e', 'web1', 'web-2', 'x_y', 'A', 'café', 'ü', '日本', '🚀', 'a#b', 'n.1:80', 'Ω'];
  static readonly BAD_NAME_BYTES: Buffer[] = [
    b(0xff), // never valid
    b(0x63, 0xc3), // truncated 2-byte sequence
    b(0xc0, 0xaf), // overlong '/'
    b(0xed, 0xa0, 0x80), // UTF-16 surrogate
    b(0xf4, 0x90, 0x80, 0x80), // above U+10FFFF
    b(0x78, 0x01), // control character
    b(0x78, 0x7f), // DEL
    b(0x78, 0x00, 0x79), // NUL
    b(0x78, 0x0b), // vertical tab: not a separator, a control character
    b(0xe2, 0x82), // truncated 3-byte sequence
  ];

  name(): Piece {
    const r = this.rand();
    if (r < 0.55 && this.names.length) return this.pick(this.names);
    if (r < 0.85) return this.pick(ScriptGen.GOOD_NAMES);
    if (r < 0.93) return this.pick(ScriptGen.BAD_NAME_BYTES);
    if (r < 0.96) return 'x'.repeat(40) + 'é'.repeat(20 + this.int(30)); // quoted, cut at 60 bytes
    return this.pick(['web9', 'nope', 'B', 'a=1', '=', '']);
  }

  number(kind: 'weight' | 'time' | 'ramp'): string {
    const r = this.rand();
    if (r < 0.8) {
      if (kind === 'weight') return String(this.pick([0, 1, 1, 2, 3, 5, 10, 10, 100, 7]));
      if (kind === 'ramp') return String(this.pick([0, 0, 1, 5, 10, 20, 30, 100]));
      this.now = this.chance(0.85) ? this.now + this.int(15) : this.int(Math.max(1, this.now)); // sometimes backwards
      return String(this.now);
    }
    if (r < 0.88) {
      // limits and just over them
      return this.pick(
        kind === 'weight'
          ? ['1000000', '999999', '1000001', '0000000000000000001', '1000000000000']
          : ['1000000000000', '999999999999', '1000000000001', '00000000000000000000000007'],
      );
    }
    return this.pick([
      '-1', '+1', '1.5', '1e3', '0x10', '', '99x', '99999999999999999999999', '99999999999999999999999x',
      '٣', '１', '1\x01', '5_0', '１0', '-0', ' ', '18446744073709551617', '9223372036854775808',
    ]);
  }

  entry(): Piece[] {
    const r = this.rand();
    if (r < 0.9) return [this.name(), '=', this.number('weight')];
    return [this.pick(['a', '=5', 'a=1=2', 'a==1', '=', 'x=', '==', 'b=2=', '=\xff'])];
  }

  sep(): string {
    const r = this.rand();
    if (r < 0.75) return ' ';
    if (r < 0.85) return '\t';
    return this.pick(['  ', ' \t ', '\t\t', '   \t']);
  }

  keyword(word: string): string {
    const r = this.rand();
    if (r < 0.93) return word;
    if (r < 0.96) return word.toLowerCase();
    return this.pick([word[0] + word.slice(1).toLowerCase(), word + 'S', 'FOO', 'ＰＩＣＫ', 'PICK\v', 'P1CK']);
  }

  /** One command's tokens (before the arity fuzz). */
  command(): Piece[][] {
    const r = this.rand();
    if (r < 0.1) {
      const n = this.chance(0.05) ? 30 + this.int(40) : this.int(6);
      const entries = Array.from({ length: n }, () => this.entry());
      if (n > 1 && this.chance(0.1)) entries.push(entries[this.int(n)]); // duplicate name
      const names = entries.map((e) => (e.length === 3 ? e[0] : null)).filter((x): x is string => typeof x === 'string');
      if (names.length) this.names = [...new Set(names)];
      return [[this.keyword('POOL')], ...entries];
    }
    if (r < 0.2) return [[this.keyword('NOW')], [this.number('time')]];
    if (r < 0.32) {
      const e = this.entry();
      if (e.length === 3 && typeof e[0] === 'string' && !this.names.includes(e[0])) this.names.push(e[0]);
      return [[this.keyword('ADD')], e, [this.number('ramp')]];
    }
    if (r < 0.4) return [[this.keyword('DOWN')], [this.name()]];
    if (r < 0.48) return [[this.keyword('UP')], [this.name()], [this.number('ramp')]];
    if (r < 0.6) return [[this.keyword('WEIGHTS')]];
    return [[this.keyword('PICK')]];
  }

  line(): Piece[] {
    const r = this.rand();
    if (r < 0.04) return [];
    if (r < 0.06) return [this.pick([' ', '\t', ' \t  ', '\r'])];
    if (r < 0.1) {
      const body = this.pick<Piece>(['# comment', '#PICK', '#', '# café ü', b(0x23, 0xff, 0x00, 0x01), 'ADD x=1 0']);
      return [this.chance(0.3) ? this.sep() : '', this.chance(0.2) ? '#' : '', ...(body === 'ADD x=1 0' ? ['#', body] : [body])];
    }
    if (r < 0.12) {
      // binary garbage (no '\n': that would just be two lines)
      return [Buffer.from(Array.from({ length: 1 + this.int(40) }, () => { const x = this.int(256); return x === 10 ? 0 : x; }))];
    }
    if (r < 0.13) {
      // a long token: quoting cuts it at 60 bytes
      const unit = this.pick(['9', 'é', '日', 'x']);
      return [this.pick(['NOW ', 'FOO', 'POOL a=', 'DOWN ', 'UP a ']), unit.repeat(50 + this.int(3000))];
    }
    // ...but a byte-order mark anywhere else is part of its token.
    if (r < 0.135) return [b(0xef, 0xbb, 0xbf), this.pick(['PICK', 'POOL a=1', '# comment'])];
    const tokens = this.command();
    const a = this.rand();
    if (a < 0.05 && tokens.length > 1) tokens.pop(); // missing argument
    else if (a < 0.1) tokens.push([this.pick(['x', '#', '0', 'a=1', 'PICK'])]); // extra argument
    const out: Piece[] = [];
    if (this.chance(0.08)) out.push(this.sep());
    tokens.forEach((t, i) => {
      if (i > 0) out.push(this.sep());
      out.push(...t);
    });
    if (this.chance(0.08)) out.push(this.sep());
    if (this.chance(0.03)) out.push(this.pick(['\r', '\x00', '\xa0', '\x0c'])); // junk glued to the last token
    if (this.chance(0.02)) out.push(' # trailing comment');
    return out;
  }

  eol(crlf: boolean): string {
    const r = this.rand();
    if (r < 0.03) return '\r\r\n';
    if (r < 0.05) return '\r'; // a lone CR is not a line end: it joins the next line
    if (r < 0.15) return crlf ? '\n' : '\r\n'; // mixed endings
    return crlf ? '\r\n' : '\n';
  }

  script(): Buffer {
    const big = this.chance(0.03);
    const lines = big ? 2000 + this.int(3000) : 1 + this.int(this.chance(0.2) ? 200 : 40);
    const crlf = this.chance(0.3);
    const parts: Piece[] = [];
    if (this.chance(0.02)) parts.push(b(0xef, 0xbb, 0xbf)); // ignored at the very start...
    for (let i = 0; i < lines; i++) {
      parts.push(...this.line());
      if (i < lines - 1 || this.chance(0.5)) parts.push(this.eol(crlf)); // half end without a newline
    }
    return Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : p)));
  }
}

/** Fixed corner cases first, then random scripts from the seed. */
/** One random script in this many goes through the Node CLI's process too (the random test). */
const NODE_CLI_EVERY = 4;

/** The corner cases, then `count` random scripts. */
function makeScripts(seed: number, count: number): { label: string; bytes: Buffer; random: boolean }[] {
  const fixed: [string, Piece][] = [
    ['empty', ''],
    ['only LF', '\n'],
    ['only CRLF', '\r\n'],
    ['only CR', '\r'],
    ['no newline', 'POOL a=1 b=2\nPICK'],
    ['CR at the end, no LF', 'POOL a=1\nPICK\r'],
    ['NUL bytes', b(0x50, 0x49, 0x43, 0x4b, 0x00, 0x0a, 0x00, 0x0a, 0x50, 0x4f, 0x4f, 0x4c, 0x20, 0x61, 0x00, 0x3d, 0x31, 0x0a)],
    ['BOM', '\ufeffPOOL a=1\nPICK\n'],
    ['spec example', 'POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\npick\n'],
    ['long line across 64 KiB chunks', `POOL a=1\nNOW ${'1'.repeat(200_000)}\nPICK\nFOO${'é'.repeat(70_000)}\nPICK\n`],
    ['many lines across chunks', 'POOL a=3 b=2 c=1\n' + 'PICK\r\nWEIGHTS\nnow 1\n'.repeat(8000)],
    [
      'megabytes of output',
      `POOL ${Array.from({ length: 3000 }, (_, k) => `backend-${k}=${k % 10}`).join(' ')}\n` +
        'WEIGHTS\n'.repeat(40) +
        'PICK\n'.repeat(20_000),
    ],
    ['megabytes of diagnostics', `${'pick\nDOWN nope\n'.repeat(15_000)}PICK`],
  ];
  const scripts = fixed.map(([label, p]) => ({ label, bytes: typeof p === 'string' ? Buffer.from(p, 'utf8') : p, random: false }));
  for (let i = 0; i < count; i++) {
    const s = (seed + i * 0x9e3779b9) >>> 0;
    scripts.push({ label: `random #${i} (script seed ${s})`, bytes: new ScriptGen(s).script(), random: true });
  }
  return scripts;
}

// ---------------------------------------------------------------------------

let work: string;
let keepWork = false;

beforeAll(async () => {
  for (const f of [NATIVE, NODE_CLI])
    if (!existsSync(f)) throw new Error(`${f} is missing: run scripts/build-native.sh, build-wasm.sh and build-package.sh`);
  work = await mkdtemp(join(tmpdir(), 'slowstart-parity-'));
});

afterAll(async () => {
  if (work && !keepWork) await rm(work, { recursive: true, force: true });
});

describe('CLI arguments', () => {
  const cases: [string, string[]][] = [
    ['--help', ['--help']],
    ['-h', ['-h']],
    ['--version', ['--version']],
    ['a missing file (exit 2)', ['tests/cases/no-such-case.txt']],
    ['a missing absolute path', ['/nonexistent/dir/script.txt']],
    ['a missing UTF-8 path', ['/nonexistent/café/日本.txt']],
    ['a directory', ['tests/cases']],
    ['an unknown option', ['--frobnicate']],
    ['a lone dash option', ['-x']],
    ['two files', ['tests/cases/spec_example.txt', 'tests/cases/ramp_table.txt']],
    ['a file then --help', ['tests/cases/spec_example.txt', '--help']],
    ['- (stdin, here empty)', ['-']],
    ['no arguments (stdin, here empty)', []],
  ];
  it.each(cases)('%s: identical bytes and exit status', async (_label, args) => {
    const [native, node] = await Promise.all([runCli('native', args), runCli('node', args)]);
    expect(compareRuns(native, node, 'native', 'node'), `args ${JSON.stringify(args)}`).toBe('');
    if (args[0]?.includes('no-such') || args[0]?.startsWith('/nonexistent')) {
      expect(native.code).toBe(2);
      expect(native.stdout.length).toBe(0);
      expect(native.stderr.toString()).toMatch(/^slowstart: cannot open '.*': No such file or directory\n$/);
    }
    if (args[0] === '--help' || args[0] === '--version') {
      expect(native.code).toBe(0);
      expect(native.stderr.length).toBe(0);
    }
  });

  it('--version prints the package version', async () => {
    const { version } = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const node = await runCli('node', ['--version']);
    expect(node.stdout.toString()).toBe(`slowstart ${version}\n`);
    expect(slowstart.version).toBe(version);
  });

  // Node decodes argv as UTF-8, so a file whose name is not valid UTF-8 cannot
  // be named to the Node CLI: it opens a different (U+FFFD) path. The native
  // CLI opens it. The parity check is marked as a known failure; see the report.
  const nonUtf8Name = async () => {
    const file = Buffer.concat([Buffer.from(join(work, 'bad-')), b(0xff), Buffer.from('.txt')]);
    await writeFile(file, 'POOL a=1\nPICK\n');
    // spawn() cannot pass non-UTF-8 argv either, so let the shell's printf make the name.
    const viaShell = (cli: string) =>
      new Promise<Run>((ok) => {
        const c = spawn('/bin/sh', ['-c', `${cli} "$(printf '%s/bad-\\377.txt' "$W")"`], { env: { ...process.env, W: work } });
        const out: Buffer[] = [];
        const err: Buffer[] = [];
        c.stdout.on('data', (x: Buffer) => out.push(x));
        c.stderr.on('data', (x: Buffer) => err.push(x));
        c.on('close', (code, signal) => ok({ code, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err) }));
      });
    return Promise.all([viaShell(`'${NATIVE}'`), viaShell(`'${process.execPath}' '${NODE_CLI}'`)]);
  };
  it('a file whose name is not valid UTF-8: the native CLI runs it', async () => {
    const [native] = await nonUtf8Name();
    expect({ code: native.code, stdout: native.stdout.toString(), stderr: native.stderr.toString() }).toEqual({
      code: 0,
      stdout: 'a\n',
      stderr: '',
    });
  });
  it('a file whose name is not valid UTF-8: the Node CLI does the same', async () => {
    const [native, node] = await nonUtf8Name();
    expect(compareRuns(native, node, 'native', 'node')).toBe('');
  });
});

const goldenNames = (await readdir(CASES)).filter((f) => f.endsWith('.txt')).sort();

describe('golden cases (tests/cases/*.txt)', () => {
  const names = goldenNames;

  it('there are golden cases', () => {
    expect(names.length).toBeGreaterThanOrEqual(10);
  });

  it.each(names)('%s: native and Node CLI agree (FILE and stdin), with the .out/.err files and with run()', async (name) => {
    const path = join(CASES, name);
    const bytes = await readFile(path);
    const [nativeFile, nativeStdin, nodeFile, nodeStdin] = await Promise.all([
      runCli('native', [path]),
      runCli('native', [], bytes),
      runCli('node', [path]),
      runCli('node', ['-'], bytes),
    ]);
    const base = path.slice(0, -'.txt'.length);
    const wantErr = existsSync(`${base}.err`) ? await readFile(`${base}.err`) : Buffer.alloc(0);
    const golden: Run = { code: wantErr.length ? 1 : 0, signal: null, stdout: await readFile(`${base}.out`), stderr: wantErr };
    const problems = [
      compareRuns(golden, nativeFile, 'golden', 'native FILE'),
      compareRuns(nativeFile, nativeStdin, 'native FILE', 'native stdin'),
      compareRuns(nativeFile, nodeFile, 'native FILE', 'node FILE'),
      compareRuns(nativeFile, nodeStdin, 'native FILE', 'node stdin'),
      compareApi(bytes, nativeFile),
    ].filter(Boolean);
    expect(problems.join('\n\n')).toBe('');

    // The string form of run() (the file is UTF-8) says the same as the byte form, with or without a timeline.
    const fromBytes = slowstart.run(bytes, { timeline: false });
    const fromText = slowstart.run(bytes.toString('utf8'));
    expect(fromText.output).toEqual(fromBytes.output);
    const without = (ds: typeof fromText.diagnostics) => ds.map(({ line, message }) => ({ line, message }));
    expect(without(fromText.diagnostics)).toEqual(without(fromBytes.diagnostics));
    // Columns come in the script's units (UTF-16 for text, bytes for bytes), so both cover the same token.
    const textLines = bytes.toString('utf8').split('\n');
    const byteLines = bytes.toString('latin1').split('\n').map((l) => Buffer.from(l, 'latin1'));
    expect(fromText.diagnostics.map((d) => textLines[d.line - 1].slice(d.from, d.to))).toEqual(
      fromBytes.diagnostics.map((d) => byteLines[d.line - 1].subarray(d.from, d.to).toString('utf8')),
    );
    // Diagnostic line numbers, as the CLI printed them.
    const cliLines = [...nativeFile.stderr.toString('utf8').matchAll(/^line (\d+): /gm)].map((m) => Number(m[1]));
    expect(fromBytes.diagnostics.map((d) => d.line)).toEqual(cliLines);
  });
});

describe('random scripts', () => {
  it(`${COUNT} random scripts + corner cases: native = Node CLI (FILE and stdin) = run() (seed ${SEED})`, async () => {
    const scripts = makeScripts(SEED, COUNT);
    const firstRandom = scripts.findIndex((s) => s.random);
    const started = performance.now();
    const failures = await pool(scripts, PARALLEL, async ({ label, bytes, random }, i) => {
      const file = join(work, `script-${i}.txt`);
      await writeFile(file, bytes);
      const [nativeFile, nativeStdin] = await Promise.all([runCli('native', [file]), runCli('native', [], bytes)]);
      // The bytes the Node CLI prints are the engine's (its TextRunner is the
      // native CLI's sink; cli.ts only moves them): compareApi checks those
      // of every script against the native CLI in this process. A Node
      // process costs ~0.1 s of CPU, so the Node CLI itself (reading, writing,
      // the exit status) gets the corner cases both ways, and every
      // NODE_CLI_EVERY-th random script, as a FILE or on stdin by turns.
      const k = i - firstRandom;
      const viaFile = !random || k % (2 * NODE_CLI_EVERY) === 0;
      const viaStdin = !random || k % (2 * NODE_CLI_EVERY) === NODE_CLI_EVERY;
      const nodeFile = viaFile ? await runCli('node', [file]) : undefined;
      const nodeStdin = viaStdin ? await runCli('node', [], bytes) : undefined;
      const problems = [
        compareRuns(nativeFile, nativeStdin, 'native FILE', 'native stdin'),
        nodeFile ? compareRuns(nativeFile, nodeFile, 'native FILE', 'node FILE') : '',
        nodeStdin ? compareRuns(nativeFile, nodeStdin, 'native FILE', 'node stdin') : '',
        compareApi(bytes, nativeFile),
        nativeFile.signal || (nativeFile.code !== 0 && nativeFile.code !== 1) ? `native exit ${nativeFile.code ?? nativeFile.signal}` : '',
      ].filter(Boolean);
      if (problems.length === 0) return null;
      return `${label}, saved as ${file}\n${problems.join('\n')}\n--- script:\n${show(bytes, 3000)}`;
    });
    const failed = failures.filter((f): f is string => f !== null);
    if (failed.length) {
      keepWork = true;
      const report =
        `${failed.length} of ${scripts.length} scripts differ. PARITY_SEED=${SEED} reproduces this run; the scripts are kept in ${work}\n\n` +
        failed.slice(0, 5).join('\n\n========\n\n');
      console.error(report);
      expect.fail(report);
    }
    // Keep an eye on the runtime budget (informational).
    console.log(`cli-parity: ${scripts.length} scripts, the native CLI twice and run() on each, the Node CLI on the corner cases and one random script in ${NODE_CLI_EVERY}, ${((performance.now() - started) / 1000).toFixed(1)} s, seed ${SEED}`);
  }, 300_000); // ~15-25 s; more when the machine is busy
});
