// How fast the runner page answers typing, in Chromium (a benchmark: it
// measures and prints, it asserts nothing about speed). Run:
//   npx vitest run --config tests/web/bench/vitest.config.ts typing
//   PAGE_BENCH_BASELINE=<an earlier build's site> … typing   (each figure also against it, round by round)
// 1. Keystroke to new output painted, at 100, 10,000 and 100,000 lines: real
//    key presses (CDP input events) on a NOW line whose value changes the
//    weights printed after it ("NOW 8550" <-> "NOW 85501"), each left to
//    finish before the next. From the keydown event's timestamp to the frame
//    after the run's output went into the list: a requestAnimationFrame
//    callback, then a task queued from it, which runs once that frame's
//    style, layout and paint are done. Also the page thread's CPU time per
//    keystroke (Chromium's ThreadTime), steadier than wall time on a loaded
//    machine, and the wait the runner chose (live-runs.ts).
// 2. Edit -> re-run -> re-render of the 10,000-line script: the edit
//    dispatched and run() called at once (the wait after a keystroke is not
//    a cost): the synchronous part, the run's own timings, and the time to
//    the frame after it painted, without the wait for vsync.
// Figures go to test-results/typing-bench.json and the console; copy them
// into docs/PERFORMANCE.md ("Web page").
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { bigScript, cpuClock, loadScript, machine, openSites, round, stats, writeResults, type Site } from './page-sites.js';

// TYPING_SIZES=100,10000 leaves out the 100,000-line script (minutes of a loaded machine);
// TYPING_SIZES= (empty) measures the edit -> re-render alone.
const SIZES = (process.env.TYPING_SIZES ?? '100,10000,100000').split(',').filter((s) => s !== '').map(Number);
const KEYSTROKES = Number(process.env.TYPING_KEYSTROKES ?? 24);
const ROUNDS = Number(process.env.TYPING_ROUNDS ?? 2);

const printed = (script: string) => script.split('\n').filter((l) => l === 'PICK' || l === 'WEIGHTS').length;

interface Keystrokes {
  latency: number[];
  cpu: number[];
  wait: number[];
}

/** Puts the cursor at the end of the first NOW line after the last ADD (its value sets how far that ramp is). */
async function cursorOnRampingNow(page: Page): Promise<void> {
  await page.evaluate(() => {
    const view = window.slowstartRunner!.editor.view;
    const doc = view.state.doc;
    let n = doc.lines;
    while (n > 1 && !doc.line(n).text.startsWith('ADD ')) n--;
    while (n < doc.lines && !doc.line(n).text.startsWith('NOW ')) n++;
    view.focus();
    view.dispatch({ selection: { anchor: doc.line(n).to }, scrollIntoView: true });
  });
}

/** Records each run's output going into the list, and the frame after it painted; and each keydown's timestamp. */
async function watchPaints(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __shown: { at: number; painted: number }[]; __keys: number[] };
    w.__shown = [];
    w.__keys = [];
    const out = window.slowstartRunner!.output;
    const set = out.setOutput.bind(out);
    out.setOutput = (lines, kind) => {
      set(lines, kind);
      const at = performance.now();
      requestAnimationFrame(() => setTimeout(() => w.__shown.push({ at, painted: performance.now() }), 0));
    };
    document.addEventListener('keydown', (e) => w.__keys.push(e.timeStamp), true);
  });
}

async function typeAndTime(page: Page, count: number, into: Keystrokes): Promise<void> {
  const cpu = await cpuClock(page);
  for (let k = 0; k < count; k++) {
    const before = await page.evaluate(() => (window as unknown as { __shown: unknown[] }).__shown.length);
    const c0 = await cpu();
    await page.keyboard.press(k % 2 === 0 ? '1' : 'Backspace');
    const timing = await page.waitForFunction(
      (n) => {
        const w = window as unknown as { __shown: { at: number; painted: number }[]; __keys: number[] };
        const key = w.__keys[w.__keys.length - 1];
        const shown = w.__shown.slice(n).find((s) => s.at > key);
        return shown ? { latency: shown.painted - key } : false;
      },
      before,
      { timeout: 60_000, polling: 100 }, // (the latency is the page's own timestamps: polling less often only spares the page)
    );
    into.cpu.push((await cpu()) - c0);
    into.latency.push(((await timing.jsonValue()) as { latency: number }).latency);
    into.wait.push(await page.evaluate(() => (window.slowstartRunner as unknown as { liveWaitMs?: number }).liveWaitMs ?? 150));
    // Room before the next key: the next run never coalesces with this one.
    await page.waitForTimeout(120);
  }
}

async function keystrokes(site: Site, browser: import('playwright-core').Browser, lines: number): Promise<Keystrokes> {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  await page.goto(`${site.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  const script = bigScript(lines);
  await loadScript(page, script, printed(script));
  await cursorOnRampingNow(page);
  await watchPaints(page);
  const into: Keystrokes = { latency: [], cpu: [], wait: [] };
  await typeAndTime(page, 4, { latency: [], cpu: [], wait: [] }); // warm-up: the engine and the views' first runs at this size
  await typeAndTime(page, KEYSTROKES, into);
  expect(await page.locator('.cm-lintRange-error').count()).toBe(0); // every keystroke left a valid script
  await page.close();
  return into;
}

/** Edit -> run() at once -> views, 40 times (the change of the last NOW line's value). */
async function editRerender(site: Site, browser: import('playwright-core').Browser) {
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 }, reducedMotion: 'reduce' });
  await page.goto(`${site.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  const script = bigScript(10_000);
  await loadScript(page, script, printed(script));
  const cpu = await cpuClock(page);
  const c0 = await cpu();
  const r = await page.evaluate(async () => {
    const runner = window.slowstartRunner!;
    const view = runner.editor.view;
    const frame = () =>
      new Promise<{ start: number; end: number }>((ok) =>
        requestAnimationFrame(() => {
          const start = performance.now();
          setTimeout(() => ok({ start, end: performance.now() }), 0);
        }),
      );
    const sync: number[] = [];
    const painted: number[] = [];
    const engine: number[] = [];
    const views: Record<string, number[]> = {};
    for (let i = 0; i < 40; i++) {
      await frame();
      const doc = view.state.doc;
      let n = doc.lines;
      while (n > 1 && !doc.line(n).text.startsWith('NOW ')) n--;
      const line = doc.line(n);
      const at = line.text.lastIndexOf(' ') + 1;
      const value = Number(line.text.slice(at));
      const t0 = performance.now();
      view.dispatch({ changes: { from: line.from + at, to: line.to, insert: String(value % 2 ? value - 1 : value + 1) } });
      const timings = runner.run()!;
      const t1 = performance.now();
      const next = await frame();
      sync.push(t1 - t0);
      painted.push(t1 - t0 + (next.end - next.start));
      engine.push(timings.run);
      for (const [k, v] of Object.entries(timings.views)) (views[k] ??= []).push(v);
    }
    return { sync, painted, engine, views };
  });
  const cpuPerEdit = ((await cpu()) - c0) / 40;
  await page.close();
  return { ...r, cpuPerEdit };
}

it('measures typing on the web page', async () => {
  const sites = await openSites();
  const results: Record<string, unknown> = { machine: machine(sites.browser) };
  const all = [sites.ours, ...(sites.baseline ? [sites.baseline] : [])];
  try {
    const typing: Record<string, Record<string, Keystrokes>> = {};
    for (const lines of SIZES) {
      // Round by round, alternating: ours, then the baseline, so both see the same load.
      for (let round = 0; round < ROUNDS; round++) {
        for (const site of all) {
          const got = await keystrokes(site, sites.browser, lines);
          const into = ((typing[lines] ??= {})[site.name] ??= { latency: [], cpu: [], wait: [] });
          into.latency.push(...got.latency);
          into.cpu.push(...got.cpu);
          into.wait.push(...got.wait);
        }
      }
    }
    results.keystrokeToPainted = Object.fromEntries(
      Object.entries(typing).map(([lines, bySite]) => [
        lines,
        Object.fromEntries(Object.entries(bySite).map(([name, k]) => [name, { latencyMs: stats(k.latency), pageCpuMs: stats(k.cpu), waitMs: stats(k.wait) }])),
      ]),
    );
    const edits: Record<string, unknown> = {};
    for (let round = 0; round < ROUNDS; round++) {
      for (const site of all) {
        const e = await editRerender(site, sites.browser);
        const prev = (edits[site.name] ??= { sync: [], painted: [], engine: [], cpu: [], views: {} }) as {
          sync: number[];
          painted: number[];
          engine: number[];
          cpu: number[];
          views: Record<string, number[]>;
        };
        prev.sync.push(...e.sync);
        prev.painted.push(...e.painted);
        prev.engine.push(...e.engine);
        prev.cpu.push(e.cpuPerEdit);
        for (const [k, v] of Object.entries(e.views)) (prev.views[k] ??= []).push(...v);
      }
    }
    results.editRerender10k = Object.fromEntries(
      Object.entries(edits as Record<string, { sync: number[]; painted: number[]; engine: number[]; cpu: number[]; views: Record<string, number[]> }>).map(([name, e]) => [
        name,
        {
          syncMs: stats(e.sync),
          paintedWithoutVsyncMs: stats(e.painted),
          engineMs: stats(e.engine),
          pageCpuPerEditMs: e.cpu.map(round),
          viewsMs: Object.fromEntries(Object.entries(e.views).map(([k, v]) => [k, stats(v)])),
        },
      ]),
    );
  } finally {
    await sites.close();
  }
  await writeResults('typing-bench', results);
  console.log(JSON.stringify(results, null, 2));
});
