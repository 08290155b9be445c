// Benchmark of the web runner page's loading in Chromium (not a timed test:
// it only measures and prints). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts page
// It builds the production site, serves it, and measures
//   1. the page's total transfer size, gzipped (goal <= 250 KB),
//   2. the first output on a cold load: navigation start to the first
//      output row drawn, seven loads in fresh contexts (goal <= 500 ms).
// Typing (keystroke to painted output, edit -> re-render) is typing-bench.ts,
// frames while the chart plays frames-bench.ts. Figures are printed and
// written to test-results/page-bench.json; copy them into
// docs/PERFORMANCE.md ("Web page").
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import { expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SITE = `${ROOT}test-results/bench-site`;

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: q(0.5), p95: q(0.95), max: s[s.length - 1] };
};
const ms = (v: number) => Math.round(v * 100) / 100;

it('measures the web page', async () => {
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir: SITE, emptyOutDir: true } });
  const server = await serveStatic(SITE);
  const browser = await launchChromium();
  const results: Record<string, unknown> = {
    date: new Date().toISOString(),
    cpu: cpus()[0]?.model,
    cores: cpus().length,
    chromium: browser.version(),
  };
  try {
    // 3. Transfer size: every response of a cold load, gzipped as a static host would.
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
    const bodies: Promise<{ url: string; raw: number; gzip: number }>[] = [];
    page.on('response', (r) => {
      bodies.push(
        r.body().then((b) => ({ url: new URL(r.url()).pathname, raw: b.length, gzip: gzipSync(b, { level: 9 }).length })),
      );
    });
    await page.goto(`${server.url}/`);
    await page.locator('.ss-out-row').first().waitFor();
    await page.waitForLoadState('networkidle');
    const files = await Promise.all(bodies);
    results.transfer = {
      files,
      raw: files.reduce((a, f) => a + f.raw, 0),
      gzip: files.reduce((a, f) => a + f.gzip, 0),
    };

    // 4. First output, cold: each load in a fresh context (no cache), timed by
    // the page's own clock (zero at navigation start) once the row is there;
    // the evaluate's round trip makes each figure a little late, never early.
    const firstOutput: number[] = [];
    for (let i = 0; i < 7; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const cold = await context.newPage();
      await cold.goto(`${server.url}/`, { waitUntil: 'commit' });
      await cold.locator('.ss-out-row').first().waitFor();
      firstOutput.push(await cold.evaluate(() => performance.now()));
      await context.close();
    }
    results.firstOutputMs = { ...stats(firstOutput), all: firstOutput.map(ms) };

    await page.close();
  } finally {
    await browser.close();
    await server.close();
  }

  const r = results as {
    transfer: { raw: number; gzip: number; files: { url: string; raw: number; gzip: number }[] };
    firstOutputMs: { median: number; p95: number; max: number; all: number[] };
  };
  const row = (label: string, v: { median: number; p95: number; max: number }) =>
    `${label.padEnd(34)} median ${ms(v.median)} ms · p95 ${ms(v.p95)} ms · max ${ms(v.max)} ms`;
  console.log(
    [
      `Chromium ${results.chromium}, ${results.cores} cores (${results.cpu})`,
      `${row('First output, cold load (7 loads)', r.firstOutputMs)} · all ${r.firstOutputMs.all.join(', ')}`,
      `Transfer: ${r.transfer.raw} B raw, ${r.transfer.gzip} B gzipped (-9)`,
      ...r.transfer.files.map((f) => `  ${f.url.padEnd(34)} ${String(f.raw).padStart(8)} B  ${String(f.gzip).padStart(7)} B gz`),
    ].join('\n'),
  );
  await mkdir(`${ROOT}test-results`, { recursive: true });
  await writeFile(`${ROOT}test-results/page-bench.json`, JSON.stringify(results, null, 2));
  expect(r.transfer.gzip).toBeGreaterThan(0);
});
