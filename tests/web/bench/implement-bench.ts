// Benchmark of the implement mode in Chromium (not a timed test: it only
// measures and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts tests/web/bench/implement-bench.ts
// It builds the production site (or takes a built one from
// SLOWSTART_BENCH_SITE, to compare two builds in one sitting), serves it
// without a Content-Security-Policy (so an older build that evaluates the
// learner's code with `new Function` runs too), and measures
//   1. a correct solution on every built-in test: Run tests to the last
//      result, each run as the page makes it (first run, with the worker loading, and
//      the following ones);
//   2. what the tests' worker loads: its scripts and WebAssembly, gzipped.
// Figures are printed and written to test-results/implement-bench.json;
// docs/IMPLEMENT.md records one run.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { expect, it } from 'vitest';
import { CORRECT } from '../fixtures/learner-solutions.js';
import { launchChromium } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const RUNS = 15;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), min: s[0], max: s[s.length - 1] };
};
const ms = (v: number) => Math.round(v * 10) / 10;

it('measures the implement mode', async () => {
  let site = process.env.SLOWSTART_BENCH_SITE;
  if (!site) {
    site = `${ROOT}test-results/bench-implement-site`;
    await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir: site, emptyOutDir: true } });
  }
  const server = await serveStatic(site);
  const browser = await launchChromium();
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    site,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    chromium: browser.version(),
  };
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    await page.goto(`${server.url}/#implement`);
    await page.locator('.ss-impl-test').first().waitFor();
    await page.waitForLoadState('networkidle');
    await page.evaluate((c) => window.slowstartImplement!.setCode(c), CORRECT);

    // What the worker fetches: everything requested after the page settled
    // (sized from the built files: a terminated worker's responses cannot be read).
    const paths = new Set<string>();
    page.on('request', (r) => paths.add(new URL(r.url()).pathname));
    const times = await page.evaluate(async (runs) => {
      const out: { total: number; passed: number }[] = [];
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const run = await window.slowstartImplement!.run();
        out.push({ total: performance.now() - t0, passed: run?.results.filter((r) => r?.pass).length ?? 0 });
      }
      return out;
    }, RUNS);
    const files = await Promise.all(
      [...paths].map(async (url) => {
        const b = await readFile(`${site}${url}`);
        return { url, raw: b.length, gzip: gzipSync(b, { level: 9 }).length };
      }),
    );
    expect(times.every((t) => t.passed === times[0].passed && t.passed > 0)).toBe(true);
    results.suite = { tests: times[0].passed, firstRunMs: times[0].total, laterRunsMs: stats(times.slice(1).map((t) => t.total)) };
    results.worker = { files, raw: files.reduce((a, f) => a + f.raw, 0), gzip: files.reduce((a, f) => a + f.gzip, 0) };
    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }

  const r = results as {
    suite: { tests: number; firstRunMs: number; laterRunsMs: ReturnType<typeof stats> };
    worker: { raw: number; gzip: number; files: { url: string; raw: number; gzip: number }[] };
  };
  console.log(
    [
      `Chromium ${results.chromium}, ${results.cores} cores (${results.cpu}); site ${site}`,
      `Correct solution, all ${r.suite.tests} built-in tests (Run tests to the last result, each run as the page makes it):`,
      `  first run ${ms(r.suite.firstRunMs)} ms; next ${r.suite.laterRunsMs.n}: median ${ms(r.suite.laterRunsMs.median)} ms · ` +
        `p95 ${ms(r.suite.laterRunsMs.p95)} ms · min ${ms(r.suite.laterRunsMs.min)} ms · max ${ms(r.suite.laterRunsMs.max)} ms`,
      `What the worker loads: ${r.worker.raw} B raw, ${r.worker.gzip} B gzipped (-9)`,
      ...r.worker.files.map((f) => `  ${f.url.padEnd(48)} ${String(f.raw).padStart(8)} B  ${String(f.gzip).padStart(7)} B gz`),
    ].join('\n'),
  );
  await mkdir(`${ROOT}test-results`, { recursive: true });
  await writeFile(`${ROOT}test-results/implement-bench.json`, JSON.stringify(results, null, 2));
});
