#!/usr/bin/env node
// `npm run bench`: WASM (Node) against native, and against the npm packages a
// web developer would otherwise pick, all measured in this one run so that
// the ratios hold on a shared, noisy machine. Prints a Markdown report.
//
// Needs build/slowstart, build/slowstart_bench and dist/ (scripts/bench.sh
// builds them).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { loadSlowStart } from '../../dist/api/node.js';

const require = createRequire(import.meta.url);
const ROOT = new URL('../../', import.meta.url).pathname;
const NATIVE_CLI = join(ROOT, 'build/slowstart');
const NATIVE_BENCH = join(ROOT, 'build/slowstart_bench');
const NODE_CLI = join(ROOT, 'dist/api/cli.js');
const REPEATS = Number(process.env.BENCH_REPEATS ?? 5);

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const fmt = (x, digits = 2) => x.toLocaleString('en-US', { maximumFractionDigits: digits });
const now = () => performance.now();

function wall(cmd, args) {
  const t = now();
  const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'] });
  if (r.error) throw r.error;
  return now() - t;
}

const slowstart = await loadSlowStart();
const dir = mkdtempSync(join(tmpdir(), 'slowstart-bench-'));
const report = [];
const line = (s = '') => report.push(s);

try {
  // ---- 1. The generated 1,000,000-line mixed script -------------------------
  const scriptPath = join(dir, 'mixed-1m.txt');
  execFileSync(NATIVE_BENCH, [`--write-script=${scriptPath}`], { stdio: 'ignore' });
  const script = readFileSync(scriptPath);
  const lines = script.toString('latin1').split('\n').length - 1;

  // Whole CLIs, alternating so that drift on the machine hits both alike.
  const native = [];
  const node = [];
  for (let i = 0; i < REPEATS; i++) {
    native.push(wall(NATIVE_CLI, [scriptPath]));
    node.push(wall(process.execPath, [NODE_CLI, scriptPath]));
  }
  const nodeStartup = median(
    Array.from({ length: REPEATS }, () => wall(process.execPath, [NODE_CLI, '--version'])),
  );

  // In process, no I/O, so the two builds of the same C++ are compared:
  //  - the CLIs' path: 64 KiB chunks into the shared TextSink (native:
  //    BM_Script_Chunked_TextSink; WASM: the Node CLI's TextRunner loop);
  //  - run_script with the timeline off (native: BM_Script_RunScript/timeline:0;
  //    WASM: the raw module's run, before any JS objects are made);
  //  - and the typed API's run(), which also builds one JS object per line.
  const raw = slowstart.module;
  const textRunner = () => {
    const r = new raw.TextRunner();
    for (let at = 0; at < script.length; at += 65536) {
      let chunk = script.subarray(at, at + 65536);
      while (chunk.length) {
        raw.inputBuffer(chunk.length).set(chunk);
        chunk = chunk.subarray(r.feed(chunk.length));
        r.takeOutput();
        r.takeDiagnostics();
      }
    }
    r.finish();
    r.delete();
  };
  const rawRun = () => {
    raw.inputBuffer(script.length).set(script);
    raw.run(script.length, false);
  };
  const apiRun = () => slowstart.run(script, { timeline: false });
  const timeIt = (fn) => {
    fn();
    const ts = [];
    for (let i = 0; i < REPEATS; i++) {
      const t = now();
      fn();
      ts.push(now() - t);
    }
    return median(ts);
  };
  const wasmChunked = timeIt(textRunner);
  const wasmRunScript = timeIt(rawRun);
  const wasmApi = timeIt(apiRun);
  const nativeJson = JSON.parse(
    execFileSync(NATIVE_BENCH, ['--benchmark_format=json', '--benchmark_filter=Script|PickMany'], {
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    }),
  );
  const nativeBench = Object.fromEntries(nativeJson.benchmarks.map((b) => [b.name, b]));
  const nativeMs = (re) => {
    const b = Object.values(nativeBench).find((x) => re.test(x.name));
    return b ? b.real_time * unitToMs(b.time_unit) : NaN;
  };
  const nativeChunked = nativeMs(/Script_Chunked_TextSink/);
  const nativeRunScript = nativeMs(/Script_RunScript\/timeline:0/);

  line(`## WASM vs native, ${fmt(lines, 0)}-line mixed script (${(script.length / 1e6).toFixed(1)} MB)`);
  line();
  line('| measure | native | WASM (Node 20) | ratio |');
  line('|---|---|---|---|');
  line(
    `| whole CLI, median of ${REPEATS} (ms) | ${fmt(median(native), 0)} | ${fmt(median(node), 0)} | ${(median(node) / median(native)).toFixed(2)}× |`,
  );
  line(
    `| whole CLI minus Node start-up (${fmt(nodeStartup, 0)} ms) | ${fmt(median(native), 0)} | ${fmt(median(node) - nodeStartup, 0)} | ${((median(node) - nodeStartup) / median(native)).toFixed(2)}× |`,
  );
  line(
    `| engine, CLI path (64 KiB chunks, text out) | ${fmt(nativeChunked, 0)} | ${fmt(wasmChunked, 0)} | ${(wasmChunked / nativeChunked).toFixed(2)}× |`,
  );
  line(
    `| engine, run_script (timeline off) | ${fmt(nativeRunScript, 0)} | ${fmt(wasmRunScript, 0)} | ${(wasmRunScript / nativeRunScript).toFixed(2)}× |`,
  );
  line(`| typed API run() (+ one JS object per line) | | ${fmt(wasmApi, 0)} | |`);
  line();

  // ---- 2. Batched picks vs native, and vs the JS peers ----------------------
  const peers = loadPeers();
  line('## Picks per second (millions), one run');
  line();
  line(`| pool size | native pick_many | WASM pickMany | WASM/native | ${peers.map((p) => p.name).join(' | ')} |`);
  line(`|---|---|---|---|${peers.map(() => '---|').join('')}`);
  for (const n of [3, 100, 1000, 10000]) {
    const weights = Array.from({ length: n }, (_, i) => 1 + ((i * 7919) % 97));
    const picks = Math.max(20_000, Math.min(2_000_000, Math.floor(2e8 / n / 10)));
    const b = slowstart.createBalancer();
    b.setPool(weights.map((w, i) => ({ name: `b${i}`, weight: w })));
    b.pickMany(Math.min(picks, 10_000)); // warm up
    const wasmRate = rate(() => b.pickMany(picks), picks);
    b.dispose();
    const nb = Object.values(nativeBench).find((x) => new RegExp(`PickMany/${n}(\\b|/|$)`).test(x.name));
    const nativeRate = nb?.items_per_second ?? NaN;
    const peerRates = peers.map((p) => {
      const next = p.make(weights);
      for (let i = 0; i < 1000; i++) next();
      return rate(() => {
        for (let i = 0; i < picks; i++) next();
      }, picks);
    });
    line(
      `| ${fmt(n, 0)} | ${(nativeRate / 1e6).toFixed(2)} | ${(wasmRate / 1e6).toFixed(2)} | ${(wasmRate / nativeRate).toFixed(2)}× | ${peerRates.map((r) => (r / 1e6).toFixed(2)).join(' | ')} |`,
    );
  }
  line();
  line('Order of the first 7 picks for weights a=5 b=1 c=1 (nginx smooth WRR: `a a b a c a a`):');
  line();
  {
    const b = slowstart.createBalancer();
    b.setPool({ a: 5, b: 1, c: 1 });
    const names = b.names();
    line(`- slowstart: \`${Array.from(b.pickMany(7), (i) => names[i]).join(' ')}\``);
    b.dispose();
    for (const p of peers) {
      const next = p.make([5, 1, 1], ['a', 'b', 'c']);
      line(`- ${p.name}: \`${Array.from({ length: 7 }, () => next()).join(' ')}\``);
    }
  }
  line();

  // ---- 3. Module size ---------------------------------------------------------
  const glue = readFileSync(join(ROOT, 'dist/wasm/engine.mjs'));
  const wasm = readFileSync(join(ROOT, 'dist/wasm/engine.wasm'));
  const gz = (b) => gzipSync(b, { level: 9 }).length;
  line('## Engine module size (as shipped in the npm package)');
  line();
  line('| file | bytes | gzip -9 |');
  line('|---|---|---|');
  line(`| engine.mjs (glue) | ${fmt(glue.length, 0)} | ${fmt(gz(glue), 0)} |`);
  line(`| engine.wasm | ${fmt(wasm.length, 0)} | ${fmt(gz(wasm), 0)} |`);
  line(`| total | ${fmt(glue.length + wasm.length, 0)} | ${fmt(gz(glue) + gz(wasm), 0)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

console.log(report.join('\n'));

function unitToMs(unit) {
  return { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 }[unit] ?? NaN;
}

function rate(fn, count) {
  const times = [];
  for (let i = 0; i < 3; i++) {
    const t = now();
    fn();
    times.push(now() - t);
  }
  return count / (median(times) / 1000);
}

// Each peer: make(weights, names?) -> next() returning a name.
function loadPeers() {
  const WRRPool = require('wrr-pool');
  const Peers = require('weighted-round-robin');
  const wrr = require('wrr');
  const label = (names, i) => (names ? names[i] : i);
  return [
    {
      name: 'wrr-pool',
      make(weights, names) {
        const pool = new WRRPool();
        weights.forEach((w, i) => pool.add(label(names, i), w));
        return () => pool.next();
      },
    },
    {
      name: 'weighted-round-robin',
      make(weights, names) {
        const peers = new Peers();
        weights.forEach((w, i) => peers.add({ server: label(names, i), weight: w }));
        return () => peers.get().server;
      },
    },
    {
      name: 'wrr (random)',
      make(weights, names) {
        return wrr(weights.map((w, i) => ({ item: label(names, i), weight: w })));
      },
    },
  ];
}
