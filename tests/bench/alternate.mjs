#!/usr/bin/env node
// Two builds against each other, alternating in one process so that the
// machine's drift hits both alike: this tree's (dist/, build/) and an
// earlier one, copied aside before a change. docs/PERFORMANCE.md's rows of
// "the build with the change vs the one without" come from here.
//
//   node tests/bench/alternate.mjs OLD_DIST OLD_BUILD [RUNS] [KIND...]
//
// OLD_DIST: the earlier build's dist/ folder; OLD_BUILD: a folder with its
// slowstart and slowstart_bench. RUNS (default 11): repetitions, medians
// printed. KIND: which scripts (default all): mixed (the 1,000,000-line
// script, tests/bench/gen_script.hpp), and one kind of line each: pick,
// now, downup, comments, rejected (1,000,000 lines), weights (200,000).
//
// Per script, CPU ms (medians): the native CLI (user + system: it includes
// start-up and I/O), the WASM CLI path (the Node CLI's TextRunner loop, 64
// KiB chunks, as bench.mjs runs it) and the raw module's run(); for
// the mixed script also the native benchmark's two engine paths
// (BM_Script_Chunked_TextSink, BM_Script_RunColumns/timeline:0, or
// BM_Script_RunScript/timeline:0 in a build before run_columns), so that
// the ratios are bench.mjs's.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { cpuMs, cpuOf, feedInChunks, median, runScript } from './engine-loops.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const [oldDist, oldBuild, runsArg = '11', ...kindsArg] = process.argv.slice(2);
if (!oldDist || !oldBuild) {
  console.error('usage: node tests/bench/alternate.mjs OLD_DIST OLD_BUILD [RUNS] [KIND...]');
  process.exit(2);
}
const RUNS = Number(runsArg);
const builds = {
  new: { dist: join(ROOT, 'dist'), cli: join(ROOT, 'build/slowstart'), bench: join(ROOT, 'build/slowstart_bench') },
  old: { dist: resolve(oldDist), cli: join(resolve(oldBuild), 'slowstart'), bench: join(resolve(oldBuild), 'slowstart_bench') },
};
for (const b of Object.values(builds))
  b.engine = await (await import(join(b.dist, 'api/node.js'))).loadSlowStart();

function nativeBenchMs(bench) {
  const out = execFileSync(
    bench,
    ['--benchmark_format=json', '--benchmark_filter=Script_Chunked_TextSink|Script_Run(Columns|Script)/timeline:0'],
    { encoding: 'utf8', maxBuffer: 1 << 26 },
  );
  const r = {};
  const runs = {};
  for (const b of JSON.parse(out).benchmarks)
    if (b.name.includes('Chunked')) r.chunked = b.cpu_time;
    else runs[b.name.includes('Columns') ? 'columns' : 'script'] = b.cpu_time;
  r.run_script = runs.columns ?? runs.script;  // what the module's run() does
  return r;
}

// The scripts: one kind of line each, after a pool of 20 backends.
const pool = 'POOL ' + Array.from({ length: 20 }, (_, i) => `s${String(i).padStart(2, '0')}=${1 + ((i * 37) % 100)}`).join(' ');
const bad = [
  'pick', 'PICK extra', 'NOW -1', 'NOW 1000000000001', 'NOW', 'ADD x 5', 'ADD =5 1', 'ADD a==1 2',
  'ADD big=1000001 0', 'DOWN ghost', 'UP ghost 5', 'UP s00 1.5', 'WEIGHTS x', 'POOL a=1 a=2', 'FROB s00',
  '\x01\xff\xfe garbage',
];
const kinds = {
  pick: () => [pool, ...Array(999_999).fill('PICK')],
  now: () => [
    pool,
    ...Array.from({ length: 10 }, (_, i) => `ADD r${i}=100 5000000`),
    ...Array.from({ length: 999_989 }, (_, i) => `NOW ${i + 1}`),
  ],
  downup: () => [
    pool,
    ...Array.from({ length: 999_999 }, (_, i) =>
      i % 2 === 0 ? `DOWN s${String(i % 20).padStart(2, '0')}` : `UP s${String((i - 1) % 20).padStart(2, '0')} 60`,
    ),
  ],
  comments: () => Array(1_000_000).fill('# a comment line with some words in it'),
  rejected: () => ['POOL s00=1 s01=2', ...Array.from({ length: 999_999 }, (_, i) => bad[i % bad.length])],
  weights: () => [pool, ...Array(200_000).fill('WEIGHTS')],
};
const dir = mkdtempSync(join(tmpdir(), 'slowstart-alternate-'));
try {
  const chosen = kindsArg.length ? kindsArg : ['mixed', ...Object.keys(kinds)];
  console.log(`| script | native CLI new / old | WASM CLI path new / old | WASM run() new / old |`);
  console.log('|---|---:|---:|---:|');
  const notes = [];
  for (const kind of chosen) {
    const path = join(dir, `${kind}.txt`);
    if (kind === 'mixed') execFileSync(builds.new.bench, [`--write-script=${path}`], { stdio: 'ignore' });
    else writeFileSync(path, Buffer.from(kinds[kind]().join('\n') + '\n', 'latin1'));
    const script = readFileSync(path);
    const t = {};
    const fns = {};
    for (const [name, b] of Object.entries(builds)) {
      const raw = b.engine.module;
      fns[`${name} chunked`] = () => feedInChunks(raw, script);
      fns[`${name} run_script`] = () => runScript(raw, script);
      fns[`${name} cli`] = () => cpuOf(b.cli, [path]);
      if (kind === 'mixed') fns[`${name} bench`] = () => nativeBenchMs(b.bench);
    }
    for (const [k, f] of Object.entries(fns)) if (!k.endsWith('cli') && !k.endsWith('bench')) f();  // warm-up
    for (let i = 0; i < RUNS; i++)
      for (const [k, f] of Object.entries(fns)) {
        const v = k.endsWith('cli') || k.endsWith('bench') ? f() : cpuMs(f);
        (t[k] ??= []).push(v);
      }
    const m = (k) => median(t[k]);
    const pair = (k) => `${m(`new ${k}`).toFixed(1)} / ${m(`old ${k}`).toFixed(1)} ms (${((m(`new ${k}`) / m(`old ${k}`) - 1) * 100).toFixed(1)} %)`;
    console.log(`| ${kind} | ${pair('cli')} | ${pair('chunked')} | ${pair('run_script')} |`);
    const ratio = (w, n) => (w / n).toFixed(2) + '×';
    notes.push(
      `${kind}: WASM CLI path / native CLI: new ${ratio(m('new chunked'), m('new cli'))}, old ${ratio(m('old chunked'), m('old cli'))}`,
    );
    if (kind === 'mixed') {
      const nb = (name, p) => median(t[`${name} bench`].map((r) => r[p]));
      for (const p of ['chunked', 'run_script'])
        notes.push(
          `mixed, native benchmark ${p}: new ${nb('new', p).toFixed(1)} ms, old ${nb('old', p).toFixed(1)} ms; ` +
            `WASM/native: new ${ratio(m(`new ${p}`), nb('new', p))}, old ${ratio(m(`old ${p}`), nb('old', p))}`,
        );
    }
  }
  console.log();
  for (const n of notes) console.log(`- ${n}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
