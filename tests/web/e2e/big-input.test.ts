// Big input keeps the page responsive, in Chromium: a big paste goes into
// the editor piece by piece (one undo step), a big script runs in a worker
// with a progress bar and Stop, the editor marks at most 500 rejected lines
// and says how many more there are, and a script too big to edit (the
// element's 50 MB src) is shown read-only and still runs in full. Outputs are
// worked by hand: POOL a=5 b=1 c=1 picks a b a c a a a, again and again
// (5/1/1 smooth WRR has period 7: a a b a c a a).
//
// How long the main thread is blocked is measured by the benchmark
// (tests/web/bench/responsiveness-bench.ts, figures in docs/PERFORMANCE.md);
// here only a generous bound guards against a run on the page coming back.
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { buildSite, PAGE_CSP, SHOTS } from '../support/site.js';
import { lagProbe } from '../support/scripts.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { checkBuilt, ELEMENT_DIST } from './element-site.js';

let pageServer: StaticServer;
let elementServer: StaticServer;
let elementSite: string;
let browser: Browser;

const PICKS = 'a a b a c a a'.split(' ');
const picksScript = (n: number) => `POOL a=5 b=1 c=1\n${'PICK\n'.repeat(n)}`;

beforeAll(async () => {
  checkBuilt();
  const site = await buildSite('site-big-input');
  pageServer = await serveStatic(site, { headers: { 'content-security-policy': PAGE_CSP } });
  elementSite = await mkdtemp(join(tmpdir(), 'slowstart-big-'));
  await symlink(ELEMENT_DIST, join(elementSite, 'element'));
  await writeFile(join(elementSite, 'big.txt'), picksScript(10_000_000)); // 50 MB
  await writeFile(
    join(elementSite, 'big.html'),
    '<!doctype html><html lang="en"><meta charset="utf-8"><title>A 50 MB script</title><link rel="icon" href="data:,">' +
      '<script type="module" src="element/slow-start-runner.js"></script>' +
      '<slow-start-runner id="big" src="big.txt" autorun></slow-start-runner></html>',
  );
  elementServer = await serveStatic(elementSite, { headers: { 'content-security-policy': "script-src 'self' 'wasm-unsafe-eval'" } });
  await mkdir(SHOTS, { recursive: true });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await pageServer?.close();
  await elementServer?.close();
  if (elementSite) await rm(elementSite, { recursive: true, force: true });
});

const worstLag = (page: Page) => page.evaluate(() => (window as unknown as { __lag: number }).__lag);

async function openPage(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, reducedMotion: 'reduce' });
  const problems = watchProblems(page);
  await page.goto(`${pageServer.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  return { page, problems };
}

/** Pastes `head` + `unit` × `count` into the page's editor as the browser would (a paste event with the clipboard's text). */
function paste(page: Page, head: string, unit: string, count: number) {
  return page.evaluate(
    ([h, u, n]) => {
      const text = h + u.repeat(n); // built in the page: no megabytes over the wire
      const content = document.querySelector<HTMLElement>('.cm-content')!;
      content.focus();
      const data = new DataTransfer();
      data.setData('text/plain', text);
      content.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    },
    [head, unit, count] as const,
  );
}

/** The output list scrolled to its end: the last row's position, line and text. */
async function lastRow(root: Page | import('playwright-core').Locator): Promise<[string | null, string | null, string | null]> {
  await root.locator('.ss-output').evaluate((el) => {
    el.scrollTop = el.scrollHeight;
    el.dispatchEvent(new Event('scroll'));
  });
  // The list lays out the rows in view on scroll: wait until the last one is among them.
  await expect
    .poll(() =>
      root.locator('.ss-output .ss-out-row:not([hidden])').evaluateAll((rows) =>
        rows.some((r) => r.getAttribute('aria-posinset') === r.getAttribute('aria-setsize')),
      ),
    )
    .toBe(true);
  return root.locator('.ss-output').evaluate((el) => {
    const rows = [...el.querySelectorAll<HTMLElement>('.ss-out-row:not([hidden])')];
    const last = rows.sort((a, b) => Number(b.getAttribute('aria-posinset')) - Number(a.getAttribute('aria-posinset')))[0];
    return [last.getAttribute('aria-posinset'), last.querySelector('.ss-out-line')!.textContent, last.querySelector('.ss-out-text')!.textContent];
  });
}

const status = (page: Page) => page.locator('.ss-status').textContent();

describe('big input on the runner page', () => {
  it('a 5 MB paste: in piece by piece, run in the worker with progress, the output in full, one undo step, the page responsive', async () => {
    const { page, problems } = await openPage();
    const before = await page.evaluate(() => window.slowstartRunner!.script);
    await page.evaluate(() => window.slowstartRunner!.editor.view.dispatch({ selection: { anchor: 0, head: window.slowstartRunner!.editor.view.state.doc.length } }));
    await page.evaluate(lagProbe);
    await paste(page, 'POOL a=5 b=1 c=1\n', 'PICK\n', 1_000_000);
    // Progress shows while it goes, then the result: a million picks.
    await expect.poll(() => page.locator('.ss-run-progress').isVisible(), { timeout: 30_000 }).toBe(true);
    await expect.poll(() => status(page), { timeout: 120_000 }).toBe('Ran: 1000000 output lines, no problems.');
    expect(await page.locator('.ss-run-progress').isHidden()).toBe(true);
    expect(page.workers().some((w) => /run-worker/.test(w.url()))).toBe(true);
    expect(await page.evaluate(() => window.slowstartRunner!.editor.lineCount)).toBe(1_000_002);
    expect(await page.locator('.ss-panel-output .ss-panel-meta').textContent()).toBe('1000000 lines');
    // The first rows and the last one, worked by hand (period 7).
    const rows = await page.locator('.ss-out-text').allTextContents();
    expect(rows.slice(0, 7)).toEqual(PICKS);
    expect(await lastRow(page)).toEqual(['1000000', '1000001', PICKS[(1_000_000 - 1) % 7]]);
    // The main thread was never blocked for seconds (it was, for 2-6 s, when the page ran and drew it all).
    expect(await worstLag(page)).toBeLessThan(1500);
    // One undo step brings the script from before the paste back.
    await page.locator('.cm-content').press('ControlOrMeta+z');
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.script), { timeout: 30_000 }).toBe(before);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('many rejected lines: the editor marks the first 500 and says how many more; the status counts them all', async () => {
    const { page, problems } = await openPage();
    await page.evaluate(() => window.slowstartRunner!.setScript('pick\n'.repeat(30_000)));
    await expect.poll(() => status(page), { timeout: 60_000 }).toBe("30000 rejected lines · line 1: unknown command 'pick' (use PICK)");
    expect(await page.locator('.ss-marks-note').textContent()).toBe(
      'The editor marks the first 500 rejected lines; 29,500 more are not marked (the output and the status still count them all).',
    );
    await page.getByRole('button', { name: 'Show problems' }).click();
    expect(await page.locator('.cm-panel-lint li').count()).toBe(500);
    // Back to a small script: the note goes.
    await page.evaluate(() => window.slowstartRunner!.setScript('pick\nPICK\n'));
    await expect.poll(() => page.locator('.ss-marks-note').isHidden()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('Stop ends a background run at once, leaves the page usable and says so; Run runs it again', async () => {
    const { page, problems } = await openPage();
    // A 100,000-backend pool printed 4,000 times: seconds of engine work in the worker (a 1 MB script).
    await page.evaluate(() =>
      window.slowstartRunner!.setScript(`POOL ${Array.from({ length: 100_000 }, (_, i) => `b${i}=1`).join(' ')}\n${'WEIGHTS\n'.repeat(4000)}`),
    );
    await expect.poll(() => page.locator('.ss-run-progress-text').textContent(), { timeout: 60_000 }).toMatch(/^Running in the background… \d+\.\d s$/);
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(await status(page)).toBe('Stopped before the end. Press Run to run the script again.');
    expect(await page.locator('.ss-run-progress').isHidden()).toBe(true);
    await expect.poll(() => page.workers().some((w) => /run-worker/.test(w.url())), { timeout: 10_000 }).toBe(false);
    // Run runs it again (in a new worker), and Stop stops that one too.
    await page.getByRole('button', { name: /^Run/ }).click();
    await expect.poll(() => page.locator('.ss-run-progress-text').textContent(), { timeout: 60_000 }).toMatch(/^Running in the background… /);
    await page.getByRole('button', { name: 'Stop' }).click();
    expect(await status(page)).toBe('Stopped before the end. Press Run to run the script again.');
    // The page still works: a small script runs at once.
    await page.evaluate(() => window.slowstartRunner!.setScript('POOL x=1\nPICK\n'));
    await expect.poll(() => status(page)).toBe('Ran: 1 output line, no problems.');
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a 50 MB script in <slow-start-runner src>', () => {
  it('is shown read-only with a note, runs in full in the worker, and the page stays responsive and small', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, reducedMotion: 'reduce' });
    const problems = watchProblems(page);
    await page.addInitScript(lagProbe);
    await page.goto(`${elementServer.url}/big.html`);
    const host = page.locator('#big');
    await expect.poll(() => host.locator('.ss-status').textContent(), { timeout: 180_000 }).toBe('Ran: 10000000 output lines, no problems.');
    expect(await host.locator('.ss-preview-note').textContent()).toBe(
      'This script is 47.7 MB: too big to edit here. The editor shows its first 1.0 MB, read-only; the script runs in full. Download it to edit it in a text editor, or load a smaller one.',
    );
    expect(await host.locator('.ss-panel-output .ss-panel-meta').textContent()).toBe('10000000 lines');
    expect(await host.evaluate((el) => (el as HTMLElement & { script: string }).script.length)).toBe(17 + 5 * 10_000_000);
    // Read-only: typing changes nothing.
    await host.locator('.cm-content').click();
    await page.keyboard.type('PICK');
    expect(await host.evaluate((el) => (el as HTMLElement & { script: string }).script.length)).toBe(17 + 5 * 10_000_000);
    // The last output line (script line 10,000,001), worked by hand.
    expect(await lastRow(host)).toEqual(['10000000', '10000001', PICKS[(10_000_000 - 1) % 7]]);
    expect(await host.evaluate((el) => (el as HTMLElement & { result: { output: unknown[] } }).result.output[9_999_999])).toEqual({
      line: 10_000_001,
      text: PICKS[(10_000_000 - 1) % 7],
    });
    const lag = await worstLag(page);
    const heap = await page.evaluate(() => (performance as unknown as { memory: { usedJSHeapSize: number } }).memory.usedJSHeapSize);
    expect(lag).toBeLessThan(2000); // it was 28-37 s
    expect(heap).toBeLessThan(600e6); // it was 1.0-1.5 GB
    await host.screenshot({ path: `${SHOTS}/element-50mb.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});
