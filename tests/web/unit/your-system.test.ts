// Your own system through the API and the Node CLI (docs/YOUR-SYSTEM.md):
// lab.importConfig and lab.fitCanary give what the engine's readers and fit
// give (the C++ tests work the values out by hand; here they must arrive
// intact, typed, with FILE_REJECTED's line and column), and `slowstart fit`,
// `simulate --from` (--explain, --emit) and `recommend` are byte for byte the
// native CLI's, on the recorded canaries, every format's config and bad input.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coldLatency } from '../../../dist/api/node.js';
import { lab } from '../support/lab.js';
import { rejection } from '../support/rejection.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const CONFIGS = join(ROOT, 'tests/cpp/system_configs');
const CANARY = join(ROOT, 'tests/cpp/system_canary');
// The chain checked by a real run (tests/cpp/system_recommend/README.md).
const RECORDED = join(ROOT, 'tests/cpp/system_recommend');

describe('lab.importConfig', () => {
  it('reads an NGINX Plus upstream and the location that uses it', async () => {
    const c = lab.importConfig(await readFile(join(CONFIGS, 'nginx-plus.conf'), 'utf8'));
    expect(c.format).toBe('nginx');
    expect(c.pool).toBe('checkout');
    expect(c.servers.map((s) => `${s.name}=${s.weight}`)).toEqual(['10.1.0.11:8080=3', '10.1.0.12:8080=3', '10.1.0.13:8080=1']);
    expect(c.script).toBe('POOL 10.1.0.11:8080=3 10.1.0.12:8080=3 10.1.0.13:8080=1\n');
    const byOption = Object.fromEntries(c.settings.map((s) => [s.option, `${s.value}@${s.line}`]));
    expect(byOption).toMatchObject({ policy: 'nginx-least-conn@27', 'slow-start': '45@28', 'timeout-ms': '1500@52', retries: '2@53' });
    expect(c.ignored).toContainEqual({ line: 26, text: '`zone checkout 64k` (not modelled)' });
    // The settings as simulate's arguments, in the file's order.
    expect(c.args.slice(c.args.indexOf('--timeout-ms'), c.args.indexOf('--timeout-ms') + 2)).toEqual(['--timeout-ms', '1500']);
  });

  it('takes bytes, a named format and pool', async () => {
    const bytes = new Uint8Array(await readFile(join(CONFIGS, 'haproxy.cfg')));
    const c = lab.importConfig(bytes, { format: 'haproxy', pool: 'api' });
    expect(c.servers.filter((s) => s.down).map((s) => s.name)).toEqual(['api3']);
    expect(c.settings.find((s) => s.option === 'on-error')).toEqual({
      option: 'on-error', value: 'fastinter', line: 40,
      source: 'default-server on-error fastinter',
    });
  });

  it('says where a file cannot be read', () => {
    expect(() => lab.importConfig('upstream u {\n  server a weight=0;\n}\n', { format: 'nginx' })).toThrow(
      rejection('FILE_REJECTED', "invalid weight '0'"),
    );
    try {
      lab.importConfig('clusters:\n- name: c\n\tlb_policy: RANDOM\n', { format: 'envoy' });
    } catch (e) {
      expect(e).toMatchObject({ code: 'FILE_REJECTED', line: 3, column: 1 });
    }
    expect(() => lab.importConfig('hello\n')).toThrow(rejection('FILE_REJECTED', /cannot tell the file's format/));
    expect(() => lab.importConfig('a', { format: 'iis' as never })).toThrow(rejection('INVALID_ARGUMENT', /format must be/));
    expect(() => lab.importConfig(42 as never)).toThrow(rejection('WRONG_TYPE', /configuration must be a string/));
  });
});

describe('lab.command', () => {
  it('runs simulate, fit and recommend on files given by name, as the CLIs print them', async () => {
    const config = await readFile(join(CONFIGS, 'nginx-plus.conf'), 'utf8');
    const script = 'NOW 2\nDOWN 10.1.0.13:8080\nNOW 4\nUP 10.1.0.13:8080 0\n';
    const r = lab.command(['simulate', '--from', 'my.conf', '--emit', 'haproxy', 'restart.txt'], { 'my.conf': config, 'restart.txt': script });
    expect(r.status).toBe(0);
    expect(r.out).toContain('    balance leastconn\n');
    expect(r.out).toContain('slowstart 45s'); // the file's slow_start=45s
    // The emitted text read back: the same pool.
    expect(lab.importConfig(r.out, { format: 'haproxy' }).script).toBe('POOL 10.1.0.11:8080=3 10.1.0.12:8080=3 10.1.0.13:8080=1\n');
    const fit = lab.command(['fit', '--json', '--log-format', 'nginx', 'canary.log'], {
      'canary.log': await readFile(join(CANARY, 'nginx-access.log')),
    });
    expect(JSON.parse(fit.out)).toMatchObject({ warm_by: 'time', cold_start: true });
  });

  it('reads nothing but the files given; bad arguments come back as the CLIs say them', () => {
    const r = lab.command(['simulate', '--from', '/etc/passwd', 'x.txt'], { 'x.txt': 'POOL a=1\n' });
    expect(r.status).toBe(2);
    expect(r.err).toContain("cannot open '/etc/passwd'");
    expect(lab.command(['recommend', '--emit', 'iis', 'x.txt'], { 'x.txt': 'POOL a=1\n' }).status).toBe(2);
    expect(() => lab.command(['grade', 'x'])).toThrow(rejection('INVALID_ARGUMENT', /command must be simulate, fit or recommend/));
    expect(() => lab.command('fit' as never)).toThrow(rejection('WRONG_TYPE', /array of strings/));
    expect(() => lab.command(['fit', 'a'], { a: 42 as never })).toThrow(rejection('WRONG_TYPE', /must be a string or a Uint8Array/));
  });
});

describe('lab.fitCanary', () => {
  it('fits the recorded nginx canary as the CLI does', async () => {
    const f = lab.fitCanary(await readFile(join(CANARY, 'nginx-access.log')), { logFormat: 'nginx' });
    expect(f.refused).toBeUndefined();
    expect(f).toMatchObject({ rows: 700, serviceMs: 42.4, coldFactor: 4.3, warmBy: 'time', warmup: 6.9, better: 'time' });
    expect(f.options).toBe('--service-ms 42.4 --cold-factor 4.30 --warm-by time --warmup 6.9');
    expect(f.t.length).toBe(700);
    expect(f.summary).toContain('warm service time');
    // The fitted curve: cold at the start, warm from the warm-up on.
    expect(coldLatency(f, 0)).toBeCloseTo(42.4 * 4.3, 6);
    expect(coldLatency(f, 10)).toBe(42.4);
  });

  it('refuses data that cannot decide, and rejects a log it cannot read', () => {
    const f = lab.fitCanary('t,latency_ms\n1,100\n2,90\n');
    expect(f.refused).toMatch(/^too few rows \(2\)/);
    expect(() => lab.fitCanary('t,latency_ms\n1,x\n')).toThrow(
      rejection('FILE_REJECTED', "latency_ms must be a number of milliseconds above 0, got 'x'"),
    );
    expect(() => lab.fitCanary('a\n', { logFormat: 'iis' as never })).toThrow(rejection('INVALID_ARGUMENT', /log format must be/));
  });
});

// ---- the Node CLI against the native one ----------------------------------------

function run(cli: 'native' | 'node', args: string[]): Promise<{ code: number | null; out: Buffer; err: Buffer }> {
  const [cmd, argv] = cli === 'native' ? [join(ROOT, 'build/slowstart'), args] : [process.execPath, [join(ROOT, 'dist/api/cli.js'), ...args]];
  return new Promise((ok, fail) => {
    const child = spawn(cmd, argv, { stdio: ['ignore', 'pipe', 'pipe'], cwd: ROOT });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) => ok({ code, out: Buffer.concat(out), err: Buffer.concat(err) }));
  });
}

describe('slowstart fit: both CLIs, byte for byte', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slowstart-fit-'));
    await writeFile(join(dir, 'few.csv'), 't,latency_ms\n1,100\n');
    await writeFile(join(dir, 'bad.csv'), 't,latency_ms\n1,100\n2,-3\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const cases: [string, () => string[]][] = [
    ['the nginx canary', () => ['fit', '--log-format', 'nginx', join(CANARY, 'nginx-access.log')]],
    ['the HAProxy canary, JSON', () => ['fit', '--json', '--log-format', 'haproxy', join(CANARY, 'haproxy.log')]],
    ['as CSV', () => ['fit', '--convert', '--log-format', 'haproxy', join(CANARY, 'haproxy.log')]],
    ['too few rows', () => ['fit', '--json', join(dir, 'few.csv')]],
    ['a bad row', () => ['fit', join(dir, 'bad.csv')]],
    ['no such file', () => ['fit', join(dir, 'none.csv')]],
    ['a bad option', () => ['fit', '--log-format', 'iis', 'x']],
    ['help', () => ['fit', '--help']],
  ];
  for (const [name, args] of cases)
    it(name, async () => {
      const [native, node] = await Promise.all([run('native', args()), run('node', args())]);
      expect(node.code).toBe(native.code);
      expect(node.err.toString()).toBe(native.err.toString());
      expect(node.out.equals(native.out)).toBe(true);
    });

  it('exit statuses: 0 fitted, 1 cannot decide, 2 unreadable', async () => {
    expect((await run('node', ['fit', '--log-format', 'nginx', join(CANARY, 'nginx-access.log')])).code).toBe(0);
    expect((await run('node', ['fit', join(dir, 'few.csv')])).code).toBe(1);
    expect((await run('node', ['fit', join(dir, 'bad.csv')])).code).toBe(2);
  });
});

describe('simulate --from, --emit and recommend: both CLIs, byte for byte', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'slowstart-from-'));
    await writeFile(join(dir, 'restart.txt'), 'NOW 2\nDOWN 10.1.0.13:8080\nNOW 4\nUP 10.1.0.13:8080 0\n');
    await writeFile(join(dir, 'pool.txt'), 'POOL a=1 b=1 c=1\nNOW 2\nDOWN c\nNOW 4\nUP c 0\n');
    await writeFile(join(dir, 'broken.conf'), 'upstream u {\n  server a weight=2\n}\n');
    await writeFile(join(dir, 'bytes.yaml'), Buffer.from([0x63, 0x3a, 0x0a, 0x09, 0xff, 0x00, 0x0a]));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const plus = () => join(CONFIGS, 'nginx-plus.conf');
  const cases: [string, () => string[]][] = [
    ['--explain', () => ['simulate', '--from', plus(), '--explain', join(dir, 'restart.txt')]],
    ['a run from the file', () => ['simulate', '--from', plus(), '--service', '--rps', '50', join(dir, 'restart.txt')]],
    ['--emit envoy with overrides', () => ['simulate', '--from', plus(), '--timeout-ms', '900', '--emit', 'envoy', join(dir, 'restart.txt')]],
    ['--emit haproxy from HAProxy', () => ['simulate', '--from', join(CONFIGS, 'haproxy.cfg'), '--from-pool', 'api', '--emit', 'haproxy', join(dir, 'pool.txt')]],
    ['--emit alb from a Caddyfile', () => ['simulate', '--from', join(CONFIGS, 'Caddyfile'), '--emit', 'alb', join(dir, 'pool.txt')]],
    ['a file that does not parse', () => ['simulate', '--from', join(dir, 'broken.conf'), join(dir, 'pool.txt')]],
    ['odd bytes', () => ['simulate', '--from', join(dir, 'bytes.yaml'), '--from-format', 'envoy', join(dir, 'pool.txt')]],
    ['a bad --emit', () => ['simulate', '--emit', 'iis', join(dir, 'pool.txt')]],
    ['simulate --help', () => ['simulate', '--help']],
    ['recommend --help', () => ['recommend', '--help']],
    ['recommend --emit nginx-plus', () => ['recommend', '--service-ms', '100', '--cold-factor', '8', '--warmup', '10', '--timeout-ms', '500', '--rps', '60', '--health', 'haproxy', '--max-window', '120', '--emit', 'nginx-plus', join(dir, 'pool.txt')]],
    ['recommend on the recorded HAProxy pool and canary fit (warm-up in requests)', () => ['recommend', '--from', join(RECORDED, 'haproxy.cfg'), '--fit', join(RECORDED, 'fit.json'), '--rps', '75', '--workers', '4', join(RECORDED, 'restart.txt')]],
    ['recommend --json --emit caddy', () => ['recommend', '--json', '--service-ms', '100', '--cold-factor', '8', '--warmup', '10', '--timeout-ms', '500', '--rps', '60', '--max-window', '120', '--emit', 'caddy', join(dir, 'pool.txt')]],
  ];
  for (const [name, args] of cases)
    it(name, async () => {
      const [native, node] = await Promise.all([run('native', args()), run('node', args())]);
      expect(node.code).toBe(native.code);
      expect(node.err.toString()).toBe(native.err.toString());
      expect(node.out.equals(native.out)).toBe(true);
    });

  it('a parse error names the file, line and column; nothing runs', async () => {
    const r = await run('node', ['simulate', '--from', join(dir, 'broken.conf'), join(dir, 'pool.txt')]);
    expect(r.code).toBe(2);
    expect(r.out.length).toBe(0);
    expect(r.err.toString()).toMatch(/broken\.conf:3:1: /);
  });
});
