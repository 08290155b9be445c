// Running both CLIs' `slowstart grade` on the learner programs of
// tests/grade/learners, and reading back every report format, for
// tests/web/unit/grade-*.test.ts.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { expect } from 'vitest';
import type { LabModule, RawOutcome } from '../../../web/wasm/lab.mjs';
import { lab } from './lab.js';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const NATIVE = join(ROOT, 'build/slowstart');
export const NODE_CLI = join(ROOT, 'dist/api/cli.js');
export const LEARNERS = join(ROOT, 'tests/grade/learners');
/**
 * A Python every user can run, that starts at once: the system's (the one
 * scripts/setup.sh installs), where the first python3 on PATH is a version
 * manager's shim (pyenv: a shell script under root's home, closed to other
 * users, that costs 0.35 s of CPU per start here against 0.03 s for the
 * interpreter itself; the grading tests start Python thousands of times).
 */
export const PYTHON_BIN = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';
// -S: no site packages (the program needs none), which halves Python's start.
export const PYTHON = [PYTHON_BIN, '-S', join(LEARNERS, 'learner.py')];
export const JAVASCRIPT = [process.execPath, join(LEARNERS, 'learner.mjs')];
export const LANGUAGES = { Python: PYTHON, JavaScript: JAVASCRIPT } as const;
/** Reports are reproducible byte for byte with SOURCE_DATE_EPOCH (2023-11-14T22:13:20 UTC). */
export const EPOCH = { SOURCE_DATE_EPOCH: '1700000000' };
export const SUITE = lab.builtInTests();
export const N = SUITE.length;
export const JOBS = String(Math.max(2, availableParallelism()));
/** A time limit no test of a correct program comes near, even on a loaded machine (later options win). */
export const PATIENT = ['--timeout', '120'];
/**
 * A test's own time limit: each grades the whole suite several times, one
 * process per test, and the machine running them may be busy (measured: up
 * to a minute for 8 runs of the suite on 2 loaded cores).
 */
export const SLOW = 600_000;

export type Cli = 'native' | 'node';
export const CLIS: Cli[] = ['native', 'node'];

/** The command that runs a CLI (the Node CLI through this Node). */
export const CLI_COMMAND: Record<Cli, string[]> = { native: [NATIVE], node: [process.execPath, NODE_CLI] };

/**
 * The prefix of the users and groups the grading tests make and use
 * (SLOWSTART_TEST_USER_PREFIX, default "slowstart"): each test file has a
 * user of its own, since a user that one run is using is refused by another
 * (and every process of it is killed after each round), and checkouts that
 * test on one machine at once give each a prefix of its own.
 */
export const USER_PREFIX = process.env.SLOWSTART_TEST_USER_PREFIX || 'slowstart';

/** Whether the tests run as root (--user needs it). */
export const AS_ROOT = process.getuid?.() === 0;

/** A system group `${USER_PREFIX}-NAME`, made when missing; its name. */
export function testGroup(name: string): string {
  const group = `${USER_PREFIX}-${name}`;
  if (spawnSync('getent', ['group', group]).status !== 0) execFileSync('groupadd', ['-r', group]);
  return group;
}

/** An unprivileged user `${USER_PREFIX}-NAME` (no home, no login), in `groups` too; made when missing; its name. */
export function testUser(name: string, groups: string[] = []): string {
  const user = `${USER_PREFIX}-${name}`;
  if (spawnSync('id', [user]).status !== 0) execFileSync('useradd', ['-M', '-r', '-s', '/usr/sbin/nologin', user]);
  if (groups.length) execFileSync('usermod', ['-a', '-G', groups.join(','), user]);
  return user;
}


export const FORMATS = ['json', 'text', 'gradescope', 'junit'] as const;
export type Format = (typeof FORMATS)[number];

/**
 * A learner program's outcomes on the built-in suite, from one process for
 * all of it (the learners' `--batch`: the same code as one run per script).
 */
export function outcomes(program: string[], mistake = 'none'): RawOutcome[] {
  const input = JSON.stringify(SUITE.map((t) => Buffer.from(t.script).toString('base64')));
  const run = spawnSync(program[0], [...program.slice(1), '--mistake', mistake, '--batch'], { input, maxBuffer: 1 << 28 });
  expect(run.status, run.stderr.toString()).toBe(0);
  return (JSON.parse(run.stdout.toString()) as { out: string; err: string; status: number }[]).map((r) => ({
    started: true,
    startError: '',
    out: Buffer.from(r.out, 'base64'),
    outOver: false,
    err: Buffer.from(r.err),
    errCut: false,
    exitCode: r.status,
    signal: '',
    timedOut: false,
    ms: 0,
  }));
}

/**
 * The report of the built-in suite for these outcomes, in `format`, from the
 * GradeRun both CLIs use (the lab module's GradeSession), without processes.
 */
export function gradeInProcess(format: Format, runs: RawOutcome[], command = ['learner']): { status: number; bytes: Buffer } {
  const session = new (lab as unknown as { module: LabModule }).module.GradeSession();
  try {
    const started = session.start(['--format', format, '--', ...command], {
      cpus: 1,
      hostname: 'grader',
      now: 0,
      sourceDateEpoch: Number(EPOCH.SOURCE_DATE_EPOCH),
      listTxt: () => [],
      read: () => null,
      listFiles: () => ({ files: [] }),
      readAt: () => new Uint8Array(0),
    });
    expect(started.ok).toBe(true);
    runs.forEach((o, i) => session.setOutcome(i, o));
    const { out, status } = session.finish(0);
    return { status, bytes: Buffer.from(out) };
  } finally {
    session.delete();
  }
}

export interface Run {
  code: number | null;
  stdout: Buffer;
  stderr: string;
  ms: number;
}

export function cli(which: Cli, args: string[], env: Record<string, string> = {}): Promise<Run> {
  const [cmd, argv] = which === 'native' ? [NATIVE, args] : [process.execPath, [NODE_CLI, ...args]];
  return new Promise((ok, fail) => {
    const t0 = performance.now();
    const child = spawn(cmd, argv, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (b: Buffer) => out.push(b));
    child.stderr.on('data', (b: Buffer) => err.push(b));
    child.on('error', fail);
    child.on('close', (code) =>
      ok({ code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString(), ms: performance.now() - t0 }),
    );
  });
}

/** Grades through both CLIs; they must agree byte for byte. */
export async function both(args: string[]): Promise<Run> {
  const [native, node] = await Promise.all([cli('native', args, EPOCH), cli('node', args, EPOCH)]);
  expect(node.stderr, 'stderr of both CLIs').toBe(native.stderr);
  expect(node.stdout.toString(), 'stdout of both CLIs').toBe(native.stdout.toString());
  expect(node.code, 'exit status of both CLIs').toBe(native.code);
  return native;
}

export interface JsonResult {
  id: string;
  title: string;
  source: string;
  status: string;
  passed: boolean;
  summary: string;
  difference: null | {
    output_line: number;
    script_line: number | null;
    script: string | null;
    expected: string | null;
    actual: string | null;
    newline_at_end: boolean;
  };
  exit_code: number | null;
  expected_exit_code: number;
  signal: string | null;
  stdout_bytes: number;
  stderr: string;
  stderr_truncated: boolean;
  problem: string | null;
  looks_like: string[];
  seconds: number;
  /** The test's script as the report shows it (null when it passed). */
  script: string | null;
}

export interface JsonReport {
  format: string;
  version: number;
  command: string[];
  could_not_grade: string | null;
  engine_copies: { file: string; what: string; encoding: string }[];
  alike: { summary: string; tests: string[]; stderr: string }[];
  tests: number;
  passed: number;
  failed: number;
  problems: number;
  seconds: number;
  looks_like: { id: string; title: string; why: string; tests: string[] }[];
  results: JsonResult[];
}

export const json = (run: Run) => JSON.parse(run.stdout.toString()) as JsonReport;

export interface XmlNode {
  tag: string;
  attrib: Record<string, string>;
  text: string;
  children: XmlNode[];
}

/** Parses XML with Python's xml.etree (a real parser: it rejects malformed XML). */
export function parseXml(xml: Buffer): XmlNode {
  const py = [
    'import sys, json, xml.etree.ElementTree as ET',
    "def walk(e): return {'tag': e.tag, 'attrib': e.attrib, 'text': e.text or '', 'children': [walk(c) for c in e]}",
    'print(json.dumps(walk(ET.fromstring(sys.stdin.buffer.read()))))',
  ].join('\n');
  const r = spawnSync(PYTHON_BIN, ['-c', py], { input: xml });
  if (r.status !== 0) throw new Error(`not XML: ${r.stderr.toString()}`);
  return JSON.parse(r.stdout.toString()) as XmlNode;
}

/** Checks a JUnit report against the Apache Ant JUnit schema's rules, and returns its test cases. */
export function checkJunit(xml: Buffer, expect_: { tests: number; failures: number; errors: number }): XmlNode[] {
  expect(xml.toString().startsWith('<?xml version="1.0" encoding="UTF-8"?>\n')).toBe(true);
  const root = parseXml(xml);
  expect(root.tag).toBe('testsuites');
  expect(root.attrib).toEqual({}); // the Ant schema has no attributes on <testsuites>
  expect(root.children.map((c) => c.tag)).toEqual(['testsuite']);
  const suite = root.children[0];
  expect(Object.keys(suite.attrib).sort()).toEqual(
    ['errors', 'failures', 'hostname', 'id', 'name', 'package', 'tests', 'time', 'timestamp'].sort(),
  );
  expect(suite.attrib.id).toBe('0');
  expect(suite.attrib.timestamp).toBe('2023-11-14T22:13:20');
  expect(suite.attrib.hostname.length).toBeGreaterThan(0);
  expect(suite.attrib.time).toBe('0.000');
  expect(Number(suite.attrib.tests)).toBe(expect_.tests);
  expect(Number(suite.attrib.failures)).toBe(expect_.failures);
  expect(Number(suite.attrib.errors)).toBe(expect_.errors);
  // <properties>, the test cases, <system-out>, <system-err>: in that order, all there.
  const tags = suite.children.map((c) => c.tag);
  expect(tags[0]).toBe('properties');
  expect(tags.slice(-2)).toEqual(['system-out', 'system-err']);
  const cases = suite.children.slice(1, -2);
  expect(cases.every((c) => c.tag === 'testcase')).toBe(true);
  expect(cases.length).toBe(expect_.tests);
  for (const c of cases) {
    expect(Object.keys(c.attrib).sort()).toEqual(['classname', 'name', 'time']);
    expect(c.attrib.time).toMatch(/^\d+\.\d{3}$/);
    expect(c.children.length).toBeLessThanOrEqual(1);
    for (const verdict of c.children) {
      expect(['failure', 'error']).toContain(verdict.tag);
      expect(verdict.attrib.type.length).toBeGreaterThan(0);
      expect(verdict.attrib.message.length).toBeGreaterThan(0);
    }
  }
  expect(cases.filter((c) => c.children[0]?.tag === 'failure').length).toBe(expect_.failures);
  expect(cases.filter((c) => c.children[0]?.tag === 'error').length).toBe(expect_.errors);
  return cases;
}

export interface Gradescope {
  execution_time: number;
  output: string;
  output_format: string;
  test_output_format: string;
  test_name_format: string;
  tests: { name: string; number: string; score: number; max_score: number; status: string; output: string; tags: string[] }[];
}

