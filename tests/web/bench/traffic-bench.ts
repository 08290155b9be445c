// Benchmark (not a test): the traffic simulation in Chromium, on the page's
// workload (10 minutes at 10,000 requests/s for 100 backends) and issue #12's
// fleet (one hour at 100,000 requests/s for 10,000 backends, goal < 10 s).
// Prints the figures and writes test-results/traffic-bench.json; copy them
// into docs/PERFORMANCE.md.
//   npx vitest run --config tests/web/bench/vitest.config.ts traffic
import { mkdir, mkdtemp, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

it('measures the traffic simulation in Chromium', async () => {
  // Serve the built package (dist/api, dist/wasm) and the fixture page.
  const site = await mkdtemp(join(tmpdir(), 'slowstart-traffic-bench-'));
  await symlink(`${ROOT}dist/api`, join(site, 'api'));
  await symlink(`${ROOT}dist/wasm`, join(site, 'wasm'));
  await symlink(`${ROOT}tests/web/bench/fixtures/traffic-bench.js`, join(site, 'bench.js'));
  await writeFile(join(site, 'index.html'), '<!doctype html><title>bench</title><script type="module" src="/bench.js"></script>');
  const server = await serveStatic(site);
  const browser = await launchChromium();
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => (window as unknown as { benchResult?: unknown }).benchResult, null, { timeout: 900_000 });
    const results = (await page.evaluate(() => (window as unknown as { benchResult: unknown }).benchResult)) as Record<
      string,
      { times: number[]; requests: number; backends: number }
    >;
    expect(results.page.requests).toBe(6_000_000);
    expect(results.fleet.requests).toBe(360_000_000);
    const figures: Record<string, unknown> = { date: new Date().toISOString() };
    for (const [name, r] of Object.entries(results)) {
      const sorted = [...r.times].sort((a, b) => a - b);
      const median = sorted[sorted.length >> 1];
      figures[name] = {
        workload:
          name === 'fleet'
            ? '3600 s x 100,000 requests/s, 10,000 backends, rolling restart in 100 waves of 100 with 30 s ramps, resolution 100'
            : '600 s x 10,000 requests/s, 100 backends, rolling restart with 30 s ramps, resolution 100',
        requests: r.requests,
        runsMs: r.times.map((t) => Math.round(t)),
        medianMs: Math.round(median),
        bestMs: Math.round(sorted[0]),
        requestsPerSecondMillions: Math.round((r.requests / (median / 1000) / 1e6) * 10) / 10,
      };
    }
    console.log(JSON.stringify(figures, null, 2));
    await mkdir(`${ROOT}test-results`, { recursive: true });
    await writeFile(`${ROOT}test-results/traffic-bench.json`, JSON.stringify(figures, null, 2));
  } finally {
    await browser.close();
    await server.close();
  }
});
