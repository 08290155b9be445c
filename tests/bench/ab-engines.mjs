#!/usr/bin/env node
// Engine modules against each other, alternating round by round in one
// process: the rule of docs/PERFORMANCE.md ("a trick stays only if it gains
// at least 3 % on the 1M-line script, median of 9 or more alternating runs")
// is measured with this. Each FOLDER holds an engine.mjs and engine.wasm,
// e.g. a variant built with
//   emcmake cmake -S <patched tree> -B <dir> -DSLOWSTART_WASM_OUT=<FOLDER>
//   cmake --build <dir> --target slowstart_wasm
//
//   node tests/bench/ab-engines.mjs SCRIPT RUNS FOLDER[:NATIVE_BENCH]...
//
// SCRIPT: the 1,000,000-line script (build/slowstart_bench --write-script=F).
// Per folder, CPU ms: the CLIs' path (64 KiB chunks into the TextRunner),
// the module's run (run_columns, timeline off), and two pick loops of the
// Balancer (pickMany(1,000,000) on 3 backends: a run of picks; 200,000
// single pick() calls on 20: one pick between other work), medians of RUNS
// rounds; then
// each folder against the first: the median of the rounds' ratios and their
// range (the order of the folders turns every round, so that none always
// runs first). A folder given as FOLDER:NATIVE_BENCH (a slowstart_bench of
// the same tree) also runs that benchmark's two script paths in each of its
// rounds, and prints the tree's WebAssembly / native ratio as bench.mjs
// does (each round's ratio; median and range), so that two trees' ratios
// are compared in one run.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { cpuMs, feedInChunks, median, runInModule } from './engine-loops.mjs';

const ROOT = new URL('../../', import.meta.url).pathname;
const [scriptPath, runsArg, ...folders] = process.argv.slice(2);
if (!scriptPath || !folders.length) {
  console.error('usage: node tests/bench/ab-engines.mjs SCRIPT RUNS FOLDER...');
  process.exit(2);
}
const RUNS = Number(runsArg);
const script = readFileSync(scriptPath);
const { Engine } = await import(`${ROOT}dist/api/engine-abi.js`);
const engines = [];
// Native CPU ms of the two paths, glibc keeping its memory as in bench.mjs.
const keepMemory = { ...process.env, GLIBC_TUNABLES: 'glibc.malloc.mmap_threshold=4294967295:glibc.malloc.trim_threshold=4294967295' };
function nativeMs(bench) {
  const json = JSON.parse(
    execFileSync(bench, ['--benchmark_format=json', '--benchmark_filter=Script_Chunked_TextSink|Script_RunColumns/timeline:0'], {
      encoding: 'utf8',
      env: keepMemory,
    }),
  );
  const unit = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 };
  const ms = (re) => {
    const b = json.benchmarks.find((x) => re.test(x.name));
    return b.cpu_time * unit[b.time_unit];
  };
  return { chunked: ms(/Script_Chunked_TextSink/), run: ms(/Script_RunColumns\/timeline:0/) };
}
for (const arg of folders) {
  const [folder, bench] = arg.split(':');
  const dir = resolve(folder);
  const { default: create } = await import(`${dir}/engine.mjs`);
  const m = await create({ wasmBinary: readFileSync(`${dir}/engine.wasm`) });
  const raw = new Engine(m);
  const balancer = (n) => {
    const b = new raw.Balancer();
    b.setPool(Array.from({ length: n }, (_, i) => `b${i}`), Array.from({ length: n }, (_, i) => String(1 + ((i * 37) % 100))));
    return b;
  };
  const b3 = balancer(3);
  const b20 = balancer(20);
  const picks = {
    many3: () => b3.pickMany(1_000_000),
    one20: () => {
      for (let i = 0; i < 200_000; i++) b20.pick();
    },
  };
  engines.push({ name: folder, bench, m, raw, picks, chunked: [], run: [], many3: [], one20: [], native: [] });
}
for (const e of engines)
  for (let i = 0; i < 2; i++) {
    // Two warm-ups each: V8 compiles the hot functions again meanwhile.
    feedInChunks(e.raw, script);
    runInModule(e.m, script);
    e.picks.many3();
    e.picks.one20();
  }
for (let r = 0; r < RUNS; r++)
  for (let k = 0; k < engines.length; k++) {
    const e = engines[(k + r) % engines.length];
    e.chunked.push(cpuMs(() => feedInChunks(e.raw, script)));
    e.run.push(cpuMs(() => runInModule(e.m, script)));
    e.many3.push(cpuMs(e.picks.many3));
    e.one20.push(cpuMs(e.picks.one20));
    if (e.bench) e.native.push(nativeMs(e.bench));
  }
const f = (x) => x.toFixed(1);
console.log(`${RUNS} alternating rounds, CPU ms (medians), and each against the first: median ratio of the rounds (range)`);
for (const e of engines) {
  const base = engines[0];
  const ratio = (p) => {
    const rs = e[p].map((v, i) => v / base[p][i]).sort((a, b) => a - b);
    return `${median(rs).toFixed(3)} (${rs[0].toFixed(3)}–${rs[rs.length - 1].toFixed(3)})`;
  };
  console.log(
    `${e.name}: CLIs' path ${f(median(e.chunked))} ms, run ${f(median(e.run))} ms, pickMany n=3 ${f(median(e.many3))} ms, pick() n=20 ${f(median(e.one20))} ms; ` +
      `vs first: ${ratio('chunked')}, ${ratio('run')}, ${ratio('many3')}, ${ratio('one20')}`,
  );
  if (e.bench) {
    const toNative = (p) => {
      const rs = e[p].map((v, i) => v / e.native[i][p]).sort((a, b) => a - b);
      return `${median(rs).toFixed(2)}× (${rs[0].toFixed(2)}–${rs[rs.length - 1].toFixed(2)})`;
    };
    const nm = (p) => f(median(e.native.map((n) => n[p])));
    console.log(
      `  WebAssembly / native (${e.bench}: ${nm('chunked')} and ${nm('run')} ms): CLIs' path ${toNative('chunked')}, run ${toNative('run')}`,
    );
  }
}
