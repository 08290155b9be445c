#!/usr/bin/env node
// `node tests/bench/grade-bench.mjs [SUBMISSIONS]`: what grading a class
// costs. SUBMISSIONS (default 200) learner programs (tests/grade/learners/
// learner.py, correct or with one mistake of the catalogue each, in turn)
// are graded one after the other on the built-in suite, as a course
// author's loop would, in each configuration of GRADE_BENCH_CONFIGS
// (cli:jobs:format; by default the native CLI at -j 1 and at the default -j,
// the Node CLI, and each report format). Prints a Markdown table of wall
// times, all from this one run (compare them as ratios: the machine may be
// shared).
//
// Needs build/slowstart and dist/ (npm test, or scripts/build-*.sh).
import { spawnSync } from 'node:child_process';
import { openSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { loadLab } from '../../dist/api/node.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const NATIVE = join(ROOT, 'build/slowstart');
const NODE_CLI = join(ROOT, 'dist/api/cli.js');
const LEARNER = join(ROOT, 'tests/grade/learners/learner.py');
const SUBMISSIONS = Number(process.argv[2] ?? 200);

const tests = spawnSync(NATIVE, ['tests'], { encoding: 'utf8' }).stdout.trim().split('\n').length;
// The correct program, then one per mistake of the catalogue, in turn.
const lab = (await loadLab()).module;
const all = ['', ...lab.mistakeCatalogue().map((m) => m.id)];

// The reports go to /dev/null opened write-only (an ignored stdout is
// /dev/null read-write, which the Node CLI takes for a closed stdout).
const devNull = openSync('/dev/null', 'w');

function gradeClass(cli, jobs, format) {
  const t0 = performance.now();
  let failed = 0;
  for (let k = 0; k < SUBMISSIONS; k++) {
    const mistake = all[k % all.length];
    const program = ['python3', '-S', LEARNER, ...(mistake ? ['--mistake', mistake] : [])];
    const args = ['grade', '--format', format, ...(jobs ? ['-j', String(jobs)] : []), '--', ...program];
    const [cmd, argv] = cli === 'native' ? [NATIVE, args] : [process.execPath, [NODE_CLI, ...args]];
    const r = spawnSync(cmd, argv, { stdio: ['ignore', devNull, 'inherit'] });
    if (r.status === 1) failed++;
    else if (r.status !== 0) throw new Error(`${cli} ${args.join(' ')}: exit ${r.status}`);
  }
  return { seconds: (performance.now() - t0) / 1000, failed };
}

const cpus = availableParallelism();
// cli:jobs:format, jobs 0 for the default (the CPU count).
const CONFIGS = (
  process.env.GRADE_BENCH_CONFIGS ??
  'native:1:text,native:0:text,node:0:text,native:0:json,native:0:gradescope,native:0:junit'
).split(',');
console.log(`## Grading ${SUBMISSIONS} submissions (${tests} built-in tests each, Python learners, ${cpus} CPUs)\n`);
console.log('| CLI | -j | format | wall time | per submission | per test run | submissions failing |');
console.log('|---|---|---|---|---|---|---|');
for (const config of CONFIGS) {
  const [cli, j, format] = config.split(':');
  const jobs = Number(j);
  const { seconds, failed } = gradeClass(cli, jobs, format);
  const ms = (seconds * 1000) / SUBMISSIONS;
  console.log(
    `| ${cli} | ${jobs || `${cpus} (default)`} | ${format} | ${seconds.toFixed(1)} s | ${ms.toFixed(0)} ms | ${(ms / tests).toFixed(1)} ms | ${failed} |`,
  );
}
