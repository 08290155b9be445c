// What the web page benchmarks share: the production site built and served,
// an earlier build served beside it (PAGE_BENCH_BASELINE=<a built site's
// folder>, e.g. main's `npx vite build --outDir …`) so that each figure is
// also a ratio measured in the same run, the scripts they type into, the
// page thread's CPU time (Chromium's own count, steadier than wall time on a
// loaded machine), and the statistics.
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { build } from 'vite';
import { launchChromium } from '../support/browser.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

export const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export interface Site {
  /** "this tree" or "baseline". */
  name: string;
  url: string;
}

export interface Sites {
  ours: Site;
  /** The earlier build, when PAGE_BENCH_BASELINE names one. */
  baseline: Site | null;
  browser: Browser;
  close(): Promise<void>;
}

/** Builds this tree's site (once per process), serves it and the baseline, and starts Chromium. */
export async function openSites(): Promise<Sites> {
  const dir = `${ROOT}test-results/bench-site`;
  await build({ root: ROOT, configFile: `${ROOT}vite.config.ts`, logLevel: 'warn', build: { outDir: dir, emptyOutDir: true } });
  const servers: StaticServer[] = [await serveStatic(dir)];
  const base = process.env.PAGE_BENCH_BASELINE;
  if (base) servers.push(await serveStatic(resolve(base)));
  const browser = await launchChromium();
  return {
    ours: { name: 'this tree', url: servers[0].url },
    baseline: base ? { name: 'baseline', url: servers[1].url } : null,
    browser,
    close: async () => {
      await browser.close();
      for (const s of servers) await s.close();
    },
  };
}

/** The machine, for the record: figures from a loaded machine are said as such. */
export function machine(browser: Browser) {
  return { date: new Date().toISOString(), cpu: cpus()[0]?.model, cores: cpus().length, load: loadavg().map((l) => Math.round(l * 10) / 10), chromium: browser.version() };
}

/**
 * A script of `lines` lines: 10 backends, 20 more joining (120 s ramps) one
 * every 500 lines, DOWN and UP now and then, WEIGHTS every 10th line, NOW
 * every 50th, PICK the rest (about 80 % of the lines print).
 */
export function bigScript(lines: number): string {
  const out = ['POOL ' + Array.from({ length: 10 }, (_, i) => `b${i}=${1 + ((i * 7) % 10)}`).join(' ')];
  for (let i = 1; out.length < lines; i++) {
    if (i % 50 === 0) out.push(`NOW ${i}`);
    else if (i % 500 === 7) out.push(`ADD n${(i / 500) | 0}=${5 + (i % 9)} 120`);
    else if (i % 700 === 3) out.push(`DOWN b${i % 10}`);
    else if (i % 700 === 203) out.push(`UP b${i % 10} 60`);
    else if (i % 10 === 5) out.push('WEIGHTS');
    else out.push('PICK');
  }
  return out.join('\n');
}

/** A 20-backend script that keeps every line moving while it plays. */
export function twentyBackends(): string {
  const names = Array.from({ length: 20 }, (_, i) => `backend-${i + 1}`);
  const lines = ['POOL ' + names.slice(0, 10).map((n, i) => `${n}=${(i % 5) + 1}`).join(' ')];
  for (let t = 0; t <= 300; t += 5) {
    lines.push(`NOW ${t}`);
    if (t % 20 === 0 && t / 20 < 10) lines.push(`ADD ${names[10 + t / 20]}=${5 + t / 20} 60`);
    if (t === 50) lines.push('DOWN backend-3');
    if (t === 120) lines.push('UP backend-3 40');
    for (let k = 0; k < 8; k++) lines.push('PICK');
    lines.push('WEIGHTS');
  }
  return lines.join('\n');
}

export interface Stats {
  n: number;
  median: number;
  p95: number;
  min: number;
  max: number;
}

export function stats(xs: readonly number[]): Stats {
  const s = [...xs].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.floor(p * s.length))];
  return { n: s.length, median: round(q(0.5)), p95: round(q(0.95)), min: round(s[0]), max: round(s[s.length - 1]) };
}

export const round = (v: number) => Math.round(v * 100) / 100;

/**
 * The page thread's CPU time so far (ms), as Chromium counts it (CDP
 * Performance.getMetrics, ThreadTime); `process` gives the whole renderer
 * process's instead (ProcessTime: its raster and compositor threads too).
 */
export async function cpuClock(page: Page, metric: 'ThreadTime' | 'ProcessTime' = 'ThreadTime'): Promise<() => Promise<number>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  return async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    return 1000 * (metrics.find((m) => m.name === metric)?.value ?? Number.NaN);
  };
}

/** Loads `script` into the page's runner and waits until its run is shown (the output's count says how many lines). */
export async function loadScript(page: Page, script: string, outputLines: number): Promise<void> {
  await page.evaluate((s) => window.slowstartRunner!.setScript(s), script);
  await page.waitForFunction((n) => window.slowstartRunner!.output.length === n && !document.querySelector('.ss-bg-running'), outputLines, { timeout: 120_000, polling: 50 });
}

export async function writeResults(name: string, results: unknown): Promise<void> {
  await mkdir(`${ROOT}test-results`, { recursive: true });
  await writeFile(`${ROOT}test-results/${name}.json`, JSON.stringify(results, null, 2));
}
