#!/usr/bin/env node
// The package's sizes as a page pays them, measured from the built package
// (a tarball from `npm pack`, or a dist/ folder): each part is a file and
// every file it imports statically (import() starts another part), raw and
// gzip -9, KB = 1,000 bytes. Prints the table docs/PACKAGE.md and
// docs/EMBEDDING.md carry between `<!-- sizes -->` and `<!-- /sizes -->`;
// `--write` puts it there. tests/web/unit/package-sizes.test.ts measures
// the run's tarball and fails when the documents say otherwise.
//
//   node scripts/measure-sizes.mjs [slowstart-x.y.z.tgz | dist] [--write]
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, normalize, relative, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = resolve(import.meta.dirname, '..');
const DOCS = ['docs/PACKAGE.md', 'docs/EMBEDDING.md'];
const START = '<!-- sizes -->';
const END = '<!-- /sizes -->';

/** The dist/ folder of `source` (a tarball is unpacked into a temporary folder; `done` removes it). */
function distOf(source) {
  if (!source.endsWith('.tgz')) return { dist: resolve(source), done: () => {} };
  const dir = mkdtempSync(join(tmpdir(), 'slowstart-sizes-'));
  execFileSync('tar', ['xzf', source, '-C', dir]);
  return { dist: join(dir, 'package/dist'), done: () => rmSync(dir, { recursive: true, force: true }) };
}

/** `file` and the files it imports statically, relative to dist/ (import() is not followed). */
function closure(dist, file, seen = new Set()) {
  if (seen.has(file)) return seen;
  seen.add(file);
  if (!/\.m?js$/.test(file)) return seen;
  const code = readFileSync(join(dist, file), 'utf8');
  const statics = /(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+)["']/g;
  for (const [, spec] of code.matchAll(statics)) closure(dist, normalize(join(dirname(file), spec)), seen);
  return seen;
}

const matching = (dist, folder, pattern) => readdirSync(join(dist, folder)).filter((f) => pattern.test(f)).map((f) => `${folder}/${f}`);

function measure(dist) {
  const size = (files) => {
    let raw = 0;
    let gz = 0;
    for (const f of files) {
      const bytes = readFileSync(join(dist, f));
      raw += bytes.length;
      gz += gzipSync(bytes, { level: 9 }).length;
    }
    return { raw, gz };
  };
  const one = (folder, pattern) => {
    const found = matching(dist, folder, pattern);
    if (found.length !== 1) throw new Error(`${folder}/${pattern}: ${found.length} files`);
    return found[0];
  };
  const shell = closure(dist, 'element/slow-start-runner.js');
  const api = closure(dist, 'api/index.js');
  const without = (set, ...others) => [...set].filter((f) => !others.some((o) => o.has(f)));
  const views = closure(dist, one('element', /^slow-start-runner-mount-.*\.js$/));
  const implement = closure(dist, one('element', /^slow-start-runner-view-.*\.js$/));
  const traffic = closure(dist, one('element', /^slow-start-runner-open-view-.*\.js$/));
  const parts = [
    ['the API in a page (`loadSlowStart()`): its JavaScript, the engine’s glue and `engine.wasm`', [...api, 'wasm/engine.wasm']],
    ['the element’s shell (`slowstart/element`: defines `<slow-start-runner>`)', [...shell]],
    ['the editor and views (when the first element connects; the API above comes with them)', without(views, shell, api)],
    ['the Traffic tab’s view (when it is opened) and the lab: `lab.mjs`, `lab.wasm`', [...without(traffic, shell, api, views), 'wasm/lab.mjs', 'wasm/lab.wasm']],
    ['implement mode’s view (`mode="implement"`)', without(implement, shell, api, views)],
    ['implement mode’s worker and QuickJS (`quickjs.wasm`; the lab too, from the cache)', [...without(closure(dist, 'element/implement-worker.js'), api), 'wasm/quickjs.wasm']],
    ['the background run’s worker (scripts over 100,000 characters; the engine from the cache)', without(closure(dist, 'element/run-worker.js'), api, new Set(['wasm/lab.mjs']))],
  ];
  return parts.map(([what, files]) => ({ what, files, ...size(files) }));
}

const kb = (n) => `${(n / 1000).toFixed(1)} KB`;

/** The documents' table. */
export function sizesTable(source) {
  const { dist, done } = distOf(source);
  try {
    const rows = measure(dist).map((p) => `| ${p.what} | ${p.files.length} | ${kb(p.raw)} (${kb(p.gz)}) |`);
    return [START, '| part | files | size (gzip -9) |', '|---|---:|---:|', ...rows, END].join('\n');
  } finally {
    done();
  }
}

/** The table as a document has it (null when it has none). */
export function documentedTable(doc) {
  const text = readFileSync(join(ROOT, doc), 'utf8');
  const at = text.indexOf(START);
  return at < 0 ? null : text.slice(at, text.indexOf(END, at) + END.length);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const args = process.argv.slice(2);
  const source = args.find((a) => !a.startsWith('--')) ?? join(ROOT, 'dist');
  const table = sizesTable(source);
  if (!args.includes('--write')) console.log(table);
  else {
    for (const doc of DOCS) {
      const old = documentedTable(doc);
      if (old === null) throw new Error(`${doc} has no ${START} … ${END} block`);
      const path = join(ROOT, doc);
      writeFileSync(path, readFileSync(path, 'utf8').replace(old, table));
      console.log(`${relative(ROOT, path)}: sizes written`);
    }
  }
}
