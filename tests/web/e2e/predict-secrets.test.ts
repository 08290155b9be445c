// Predict mode keeps its secrets (#34 item 1), the BUILT page's Predict
// toggle and the BUILT <slow-start-runner mode="predict">, in Chromium.
// Before a line is answered, nothing may hold what it prints: the DOM a
// learner can read without dev tools (hidden elements' text, attributes,
// aria labels, SVG tooltips), Copy, Download, the SVG and PNG exports,
// select-all and copy, "Compare with my program", the exercise's verdict and
// expected output, the Table, the pick panel, the Traffic tab, keyboard and
// pointer moves of the playhead, saved work, links, and the events a page
// hears (slowstart-run carries only the lines shown). Every channel is
// driven, checked for the secrets, and checked again once the lines are
// answered: then the secrets ARE there (the checks can fail).
//
// The script's secrets: line 4 prints "alpha=14 beta=6 delta=3" (delta's
// ramp at a third: 9 × 10 / 30), line 8 prints NONE (everyone DOWN).
import { readFile } from 'node:fs/promises';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../support/browser.js';
import { openPage, servePageAndElement, whenReady, type PageAndElement } from './element-site.js';

const SCRIPT = 'POOL alpha=14 beta=6\nADD delta=9 30\nNOW 10\nWEIGHTS\nDOWN alpha\nDOWN beta\nDOWN delta\nPICK\n';
const WEIGHTS = 'alpha=14 beta=6 delta=3';
// What would tell line 4's answer, and line 8's: its text, NONE in the chart, legend, table or output,
// and the pick panel's working of line 8.
const LINE4 = [/delta=3/];
const LINE8 = [/\bNONE\b/, /PICK on line 8/, /Line 8, clock/];

const esc = (s: string) => s.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);
const ELEMENT_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>Predict</title><link rel="icon" href="data:,">' +
  '<script type="module" src="/element/slow-start-runner.js"></script>' +
  '<script>window.heard = []; for (const t of ["slowstart-run", "slowstart-pass", "slowstart-fail", "slowstart-predict"]) ' +
  'document.addEventListener(t, (e) => window.heard.push({ type: t, detail: JSON.stringify(e.detail) }));</script>' +
  `<h1>Predict</h1><slow-start-runner id="p" autorun mode="predict" traffic>${esc(SCRIPT)}` +
  `<template slot="expected">${WEIGHTS}\nNONE</template></slow-start-runner>`;

let site: PageAndElement;
beforeAll(async () => {
  site = await servePageAndElement({ '/predict.html': ELEMENT_PAGE });
});
afterAll(() => site?.close());

/** Where the runner is: the page's #runner, or the element (Playwright's CSS selectors pierce its shadow root). */
interface Host {
  page: Page;
  scope: Page | Locator;
  /** The runner's DOM root, in the page: `#runner`, or the element's shadow root. */
  root: string | null;
  element: boolean;
}

/**
 * Everything a learner can read in the runner without dev tools: every text
 * node (hidden ones too: a page without its styles shows them), every
 * attribute (titles, aria labels, values), every input's value, into shadow
 * roots. The editor is left out for the NONE check only: it holds the script.
 */
function readable(host: Host, withEditor: boolean): Promise<string> {
  return host.page.evaluate(
    ({ root, withEditor }) => {
      const start: ParentNode = root === null ? document.querySelector('#p')!.shadowRoot! : document.querySelector(root)!;
      const out: string[] = [];
      const walk = (node: ParentNode) => {
        for (const el of node.querySelectorAll('*')) {
          if (!withEditor && el.closest('.cm-editor')) continue;
          for (const a of el.attributes) out.push(a.value);
          if (el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement) out.push(el.value);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
        const w = document.createTreeWalker(node as Node, NodeFilter.SHOW_TEXT);
        while (w.nextNode()) if (withEditor || !w.currentNode.parentElement?.closest('.cm-editor')) out.push(w.currentNode.nodeValue ?? '');
      };
      walk(start);
      return out.join('\n');
    },
    { root: host.root, withEditor },
  );
}

async function download(host: Host, name: string): Promise<Buffer> {
  const [file] = await Promise.all([host.page.waitForEvent('download'), host.scope.getByRole('button', { name, exact: true }).click()]);
  return readFile((await file.path())!);
}

/** A PNG's size, from its IHDR chunk. */
const pngSize = (png: Buffer) => [png.readUInt32BE(16), png.readUInt32BE(20)];

/** Every channel's text, by name, after driving it as a learner would. */
async function channels(host: Host): Promise<Record<string, string>> {
  const { page, scope } = host;
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  const got: Record<string, string> = {};
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await scope.getByRole('button', { name: 'Copy the output (plain text)' }).click();
  await settle(page);
  got.copy = await clipboard();
  got.download = (await download(host, 'Download the output')).toString();
  const svg = (await download(host, 'Download the chart as SVG')).toString();
  got.svg = svg;
  // The PNG is drawn from that SVG: the same size, twice over (a NONE row would make it taller).
  const png = await download(host, 'Download the chart as PNG');
  const [w, h] = [Number(/width="(\d+)"/.exec(svg)![1]), Number(/height="(\d+)"/.exec(svg)![1])];
  got.png = pngSize(png).join('×') === `${2 * w}×${2 * h}` ? 'drawn from the SVG' : `not the SVG's size: ${pngSize(png).join('×')} vs ${w}×${h}`;
  // Select all in the output and copy: the output view copies every line it holds.
  await scope.locator('.ss-output').focus();
  await page.keyboard.press('ControlOrMeta+a');
  await page.evaluate(() => navigator.clipboard.writeText(''));
  await page.keyboard.press('ControlOrMeta+c');
  await settle(page);
  got.selectCopy = await clipboard();
  // Keyboard and pointer: the output list's keys, a click at the chart's far right (a seek), the pick panel's Next.
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowDown');
  const chart = scope.locator('.ss-chart > .ss-chart-frame > .ss-chart-svg').first();
  const box = (await chart.boundingBox())!;
  await page.mouse.click(box.x + box.width - 3, box.y + box.height - 12);
  const next = scope.getByRole('button', { name: 'Next PICK ▸' });
  if ((await next.isVisible()) && (await next.isEnabled())) await next.click();
  // The Traffic tab stays shut; the Table opens.
  await scope.getByRole('tab', { name: 'Traffic' }).click({ force: true });
  got.trafficSelected = String(await scope.getByRole('tab', { name: 'Traffic' }).getAttribute('aria-selected'));
  const table = scope.locator('.ss-table-details > summary');
  if (!(await scope.locator('.ss-table-details').evaluate((d) => (d as HTMLDetailsElement).open))) await table.click();
  // Compare with my program: any paste.
  const compare = scope.locator('.sse-compare');
  if (!(await compare.evaluate((d) => (d as HTMLDetailsElement).open))) await compare.locator('summary').click();
  await compare.locator('textarea').fill('alpha=1 beta=1 delta=1\nbeta\n');
  await settle(page);
  got.compare = (await compare.textContent()) ?? '';
  await settle(page);
  got.dom = await readable(host, true);
  got.domNoEditor = await readable(host, false);
  // Select all and copy, the page's and the runner's (the element's text is in its shadow root).
  got.selectPage = await page.evaluate(() => {
    document.getSelection()!.selectAllChildren(document.body);
    return document.getSelection()!.toString();
  });
  got.selectRunner = await page.evaluate((root) => {
    const start = root === null ? document.querySelector('#p')!.shadowRoot! : document.querySelector(root)!;
    document.getSelection()!.selectAllChildren(start.querySelector('.ss-runner') ?? (start as Element));
    return document.getSelection()!.toString();
  }, host.root);
  got.storage = await page.evaluate(() => JSON.stringify({ ...localStorage }));
  got.address = page.url();
  if (host.element) {
    got.events = await page.evaluate(() => JSON.stringify((window as unknown as { heard: unknown[] }).heard));
    got.result = await page.evaluate(() => JSON.stringify((document.querySelector('#p') as unknown as { result: unknown }).result));
    got.permalink = await page.evaluate(() => (document.querySelector('#p') as unknown as { permalink(): Promise<string> }).permalink());
  }
  return got;
}

/** Which channels tell which secret. */
function leaks(got: Record<string, string>, secrets: RegExp[]): string[] {
  const found: string[] = [];
  for (const [name, text] of Object.entries(got)) {
    // The editor holds the script (the word PICK); the page's language help says what PICK prints (NONE): checked for line 4 only.
    if ((name === 'dom' || name === 'selectPage') && secrets !== LINE4) continue;
    for (const s of secrets) {
      const at = text.search(s);
      if (at >= 0) found.push(`${name}: ${s} in “…${text.slice(Math.max(0, at - 80), at + 40)}…”`);
    }
  }
  return found;
}

async function answer(host: Host, line: number, text: string): Promise<void> {
  const input = host.scope.getByLabel(`What line ${line} prints`);
  await input.fill(text);
  await input.press('Enter');
  await expect.poll(() => host.scope.locator('.ss-predict-feedback').textContent()).toMatch(new RegExp(`line ${line} prints`));
}

async function run(host: Host): Promise<void> {
  const { scope } = host;
  await expect.poll(() => scope.locator('.ss-predict-q').textContent()).toBe('Line 4: WEIGHTS. What does it print?');
  // Nothing of line 4 nor of line 8, anywhere.
  let got = await channels(host);
  expect(leaks(got, LINE4)).toEqual([]);
  expect(leaks(got, LINE8)).toEqual([]);
  expect(got.png).toBe('drawn from the SVG');
  expect(got.trafficSelected).toBe('false');
  expect(got.compare).toContain('Predict mode: the comparison opens once every line is revealed');
  // The page's Share link: the script only.
  if (!host.element) await scope.getByRole('button', { name: 'Share link' }).click();
  // A wrong answer to line 4: now it shows, line 8 still does not.
  await scope.getByRole('tab', { name: 'Ramp' }).click();
  await answer(host, 4, 'alpha=14 beta=6 delta=9');
  expect(await scope.locator('.ss-predict-feedback').textContent()).toContain('delta is 3, not 9.');
  await scope.getByRole('button', { name: 'Next line' }).click();
  await expect.poll(() => scope.locator('.ss-predict-q').textContent()).toBe('Line 8: PICK. What does it print?');
  got = await channels(host);
  expect(leaks(got, LINE8)).toEqual([]);
  expect(got.copy).toBe(`${WEIGHTS}\n`);
  expect(got.download).toBe(`${WEIGHTS}\n`);
  // The last answer: everything shows, and every channel that carries output tells it (the checks can fail).
  await scope.getByRole('tab', { name: 'Ramp' }).click();
  await answer(host, 8, 'NONE');
  got = await channels(host);
  expect(got.copy).toBe(`${WEIGHTS}\nNONE\n`);
  expect(got.download).toBe(`${WEIGHTS}\nNONE\n`);
  expect(got.selectCopy).toBe(`${WEIGHTS}\nNONE\n`);
  expect(got.svg).toMatch(/>NONE</); // the lane's NONE row
  expect(got.png).toBe('drawn from the SVG');
  expect(got.compare).toContain('Output line 1 differs');
  expect(got.compare).toContain(WEIGHTS);
  for (const s of [...LINE4, /\bNONE\b/]) expect(s.test(got.domNoEditor), String(s)).toBe(true);
}

describe('predict mode keeps its secrets', () => {
  it('on the page’s Predict toggle', async () => {
    const { page, problems } = await openPage(site.browser, `${site.page}/`, { width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.page });
    await page.locator('.ss-out-row').first().waitFor();
    await page.evaluate((s) => window.slowstartRunner!.setScript(s), SCRIPT);
    await expect.poll(() => page.locator('.ss-status').textContent()).toBe('Ran: 2 output lines, no problems.');
    // The Table open and the Traffic tab shown before Predict is turned on: both give way.
    await page.locator('.ss-table-details > summary').click();
    await page.getByRole('tab', { name: 'Traffic' }).click();
    await expect.poll(() => page.locator('.ss-traffic-box .ss-band').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.getByLabel('Predict', { exact: true }).check();
    expect(await page.getByRole('tab', { name: 'Ramp' }).getAttribute('aria-selected')).toBe('true');
    // What the Traffic view drew (the weights, as shares of requests) is gone, not only hidden.
    expect(await page.locator('.ss-traffic-box').evaluate((box) => box.childElementCount)).toBe(0);
    // A link to the Traffic tab does not open it either.
    await page.evaluate(() => (location.hash = '#traffic'));
    await settle(page);
    expect(await page.getByRole('tab', { name: 'Traffic' }).getAttribute('aria-selected')).toBe('false');
    await run({ page, scope: page, root: '#runner', element: false });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('in <slow-start-runner mode="predict"> with an expected output, its events and its API', async () => {
    const { page, problems } = await openPage(site.browser, `${site.element}/predict.html`, { width: 1280 });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: site.element });
    const host = page.locator('#p');
    await whenReady(host);
    // The exercise waits: no verdict, no expected output in the element, no pass or fail heard.
    await expect.poll(() => host.locator('.sse-verdict-text').textContent()).toMatch(/^Predict every line first/);
    const heard = () => page.evaluate(() => (window as unknown as { heard: Array<{ type: string; detail: string }> }).heard);
    const runs = (await heard()).filter((e) => e.type === 'slowstart-run');
    expect(runs.length).toBeGreaterThan(0);
    expect(JSON.parse(runs.at(-1)!.detail)).toMatchObject({ output: [], heldBack: 2 });
    await run({ page, scope: host, root: null, element: true });
    const after = await heard();
    // Each answer was heard with its truth, and the verdict came once all were revealed.
    expect(after.filter((e) => e.type === 'slowstart-predict').map((e) => JSON.parse(e.detail))).toEqual([
      { line: 4, prediction: 'alpha=14 beta=6 delta=9', truth: WEIGHTS, correct: false, index: 0, total: 2 },
      { line: 8, prediction: 'NONE', truth: 'NONE', correct: true, index: 1, total: 2 },
    ]);
    const verdicts = after.filter((e) => e.type === 'slowstart-pass' || e.type === 'slowstart-fail');
    expect(verdicts.map((e) => e.type)).toEqual(['slowstart-pass']);
    expect(JSON.parse(verdicts[0].detail)).toMatchObject({ pass: true, actual: [WEIGHTS, 'NONE'], heldBack: 0 });
    expect(problems).toEqual([]);
    await page.close();
  });
});
