// How predict mode behaves (#34 item 1), the BUILT element in Chromium:
// an author marks the lines asked with `#?` (with a hint); a wrong answer
// opens the pick panel and brings it into view, and going on brings the
// question back; at clock 0 the chart still draws the pool; after a reveal
// Enter goes on and typing answers the next line, never dropping a key;
// `readonly` keeps the questions (Start again) and no `autorun` waits for
// Run. predict-secrets.test.ts checks that nothing tells an answer early.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { settle } from '../support/browser.js';
import { openPage, servePageAndElement, SHOTS, shootWholePage, whenReady, type PageAndElement } from './element-site.js';

const head =
  '<!doctype html><html lang="en"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>Predict</title><link rel="icon" href="data:,">' +
  '<script type="module" src="/element/slow-start-runner.js"></script>' +
  '<script>window.heard = []; document.addEventListener("slowstart-predict", (e) => window.heard.push(e.detail));</script>' +
  '<h1>Predict</h1><p>Course text above the exercise.</p>';
const tall = '<p style="height: 1600px">Course text below.</p>';

const PAGES = {
  '/marked.html':
    head +
    '<slow-start-runner id="p" autorun mode="predict">POOL a=5 b=1 c=1\nPICK\nPICK\n#? c joined at clock 0: what is its weight?\nADD c=10 20\nNOW 5\nWEIGHTS\n#?\nPICK\nPICK\n#? asks nothing</slow-start-runner>' +
    tall,
  '/zero.html': head + '<slow-start-runner id="p" autorun mode="predict">POOL a=2 b=1\nPICK\nPICK\nPICK</slow-start-runner>' + tall,
  '/readonly.html': head + '<slow-start-runner id="p" autorun readonly mode="predict">POOL a=2 b=1\nPICK\nPICK</slow-start-runner>',
  '/no-autorun.html': head + '<slow-start-runner id="p" mode="predict">POOL a=2 b=1\nPICK\nPICK</slow-start-runner>',
};

let site: PageAndElement;
beforeAll(async () => {
  site = await servePageAndElement(PAGES);
});
afterAll(() => site?.close());

const question = (host: Locator) => host.locator('.ss-predict-q').textContent();
const heard = (page: Page) => page.evaluate(() => (window as unknown as { heard: unknown[] }).heard);
const rows = (host: Locator) => host.locator('.ss-out-row:not([hidden]) .ss-out-text').allTextContents();
const inView = (target: Locator) =>
  target.evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.top < innerHeight && r.height > 0;
  });

async function open(path: string, width = 1280): Promise<{ page: Page; host: Locator; problems: string[] }> {
  const { page, problems } = await openPage(site.browser, `${site.element}${path}`, { width, height: 760 });
  const host = page.locator('#p');
  await whenReady(host);
  return { page, host, problems };
}

describe('the lines asked', () => {
  it('asks only the lines marked #?, shows the others as givens, and says which marker asks nothing', async () => {
    const { page, host, problems } = await open('/marked.html');
    // Lines 2 and 3 are not marked: they show. Line 7 (WEIGHTS) is the first question, with its hint.
    await expect.poll(() => question(host)).toBe('Line 7: WEIGHTS. What does it print?');
    expect(await host.locator('.ss-predict-hint').textContent()).toBe('c joined at clock 0: what is its weight?');
    expect(await rows(host)).toEqual(['a', 'a']);
    expect(await host.locator('.ss-predict-note').textContent()).toBe('The #? on line 11 asks nothing: no line prints after it.');
    expect(await host.locator('.ss-predict-score').textContent()).toBe('0 of 2 answered · 0 right');
    // c at 5 of 20 s: 10 × 5 / 20 = 2.
    const input = host.getByLabel('What line 7 prints');
    await input.fill('a=5 b=1 c=2');
    await input.press('Enter');
    await input.press('Enter'); // nothing typed: the next line
    // Line 9 is asked; line 10 is not, and stays hidden until 9 is answered.
    await expect.poll(() => question(host)).toBe('Line 9: PICK. What does it print?');
    expect(await rows(host)).toEqual(['a', 'a', 'a=5 b=1 c=2']);
    await host.getByLabel('What line 9 prints').fill('b');
    await host.getByLabel('What line 9 prints').press('Enter');
    await expect.poll(() => rows(host)).toEqual(['a', 'a', 'a=5 b=1 c=2', 'b', 'a']);
    expect(await heard(page)).toEqual([
      { line: 7, prediction: 'a=5 b=1 c=2', truth: 'a=5 b=1 c=2', correct: true, index: 0, total: 2 },
      { line: 9, prediction: 'b', truth: 'b', correct: true, index: 1, total: 2 },
    ]);
    expect(await question(host)).toBe('All 2 lines answered: 2 of 2 right. The whole run shows now.');
    await shootWholePage(page, `${SHOTS}/predict-marked-1280.png`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a wrong answer', () => {
  it('opens the pick panel folded far below the question and brings it into view; going on brings the question back', async () => {
    const { page, host, problems } = await open('/zero.html', 1280);
    await expect.poll(() => question(host)).toBe('Line 2: PICK. What does it print?');
    const panel = host.locator('.ss-pick-explain');
    expect(await host.locator('.ss-pe-details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(false);
    expect(await inView(panel)).toBe(false);
    await host.getByLabel('What line 2 prints').fill('b');
    await host.getByLabel('What line 2 prints').press('Enter');
    expect(await host.locator('.ss-pe-details').evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await expect.poll(() => inView(host.locator('.ss-pe-title'))).toBe(true);
    expect(await host.locator('.ss-pe-title').textContent()).toBe('How the PICK on line 2 chose a');
    await expect.poll(() => inView(host.locator('.ss-predict-feedback'))).toBe(false);
    await page.keyboard.press('Enter'); // the focus is still in the box: the next line
    await expect.poll(() => question(host)).toBe('Line 3: PICK. What does it print?');
    await expect.poll(() => inView(host.locator('.ss-predict-q'))).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('at clock 0', () => {
  it('draws the pool’s lines across the chart and the picks answered so far', async () => {
    const { page, host, problems } = await open('/zero.html', 1280);
    await expect.poll(() => question(host)).toBe('Line 2: PICK. What does it print?');
    await settle(page);
    // Both lines span the plot (the clock never moves), no pick is drawn yet.
    const spans = () =>
      host.locator('.ss-series > path').evaluateAll((paths) => paths.map((p) => Math.round((p as SVGPathElement).getBBox().width)));
    const plot = await host.locator('.ss-lane-bg').evaluate((r) => Math.round((r as SVGRectElement).getBBox().width));
    for (const w of await spans()) expect(w).toBeGreaterThan(plot * 0.95);
    expect(await host.locator('.ss-lane-picks path').count()).toBe(0);
    await host.getByLabel('What line 2 prints').fill('a');
    await host.getByLabel('What line 2 prints').press('Enter');
    await page.keyboard.press('Enter');
    await expect.poll(() => question(host)).toBe('Line 3: PICK. What does it print?');
    // One pick drawn, in a's row; b's row has none yet.
    expect(await host.locator('.ss-lane-picks path').evaluateAll((ps) => ps.map((p) => p.querySelector('title')!.textContent))).toEqual(['picks: a']);
    for (const w of await spans()) expect(w).toBeGreaterThan(plot * 0.95);
    await shootWholePage(page, `${SHOTS}/predict-clock0-1280.png`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('the keyboard after a reveal', () => {
  it('goes on at the first key typed, keeping it, and Enter then checks it; Enter with nothing typed goes on', async () => {
    const { page, host, problems } = await open('/zero.html', 360);
    await expect.poll(() => question(host)).toBe('Line 2: PICK. What does it print?');
    const input = host.locator('.ss-predict-input');
    await input.fill('a');
    await input.press('Enter');
    expect(await host.locator('.ss-predict-feedback').textContent()).toBe('Right: line 2 prints “a”.');
    expect(await input.inputValue()).toBe('');
    // 2/1: a, then b (a 2−3+2 = 1, b 1+1 = 2), then a.
    await page.keyboard.type('b');
    expect(await question(host)).toBe('Line 3: PICK. What does it print?');
    expect(await input.inputValue()).toBe('b');
    await page.keyboard.press('Enter');
    expect(await host.locator('.ss-predict-feedback').textContent()).toBe('Right: line 3 prints “b”.');
    await page.keyboard.press('Enter');
    expect(await question(host)).toBe('Line 4: PICK. What does it print?');
    await page.keyboard.type('a');
    await page.keyboard.press('Enter');
    expect((await heard(page)).map((d) => (d as { prediction: string }).prediction)).toEqual(['a', 'b', 'a']);
    await shootWholePage(page, `${SHOTS}/predict-done-360.png`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('with readonly, and without autorun', () => {
  it('readonly: the questions work, the script cannot change, and Start again asks them again', async () => {
    const { page, host, problems } = await open('/readonly.html');
    await expect.poll(() => question(host)).toBe('Line 2: PICK. What does it print?');
    // Typing in the editor changes nothing.
    const script = () => host.evaluate((el) => (el as HTMLElement & { script: string }).script);
    const before = await script();
    await host.locator('.cm-content').click();
    await page.keyboard.type('X');
    expect(await script()).toBe(before);
    expect(await question(host)).toBe('Line 2: PICK. What does it print?');
    for (const [line, text] of [
      [2, 'a'],
      [3, 'a'],
    ] as const) {
      await host.getByLabel(`What line ${line} prints`).fill(text);
      await host.getByLabel(`What line ${line} prints`).press('Enter');
      if (line === 2) await page.keyboard.press('Enter');
    }
    expect(await question(host)).toBe('All 2 lines answered: 1 of 2 right. The whole run shows now.');
    await host.getByRole('button', { name: 'Start again' }).click();
    expect(await question(host)).toBe('Line 2: PICK. What does it print?');
    expect(await host.locator('.ss-predict-score').textContent()).toBe('0 of 2 answered · 0 right');
    expect(await rows(host)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('no autorun: nothing shows and nothing is asked until Run', async () => {
    const { page, host, problems } = await open('/no-autorun.html');
    await expect.poll(() => question(host)).toBe('Run the script to start: before each WEIGHTS or PICK line’s output shows, you type what it prints.');
    expect(await host.locator('.ss-predict-input').isVisible()).toBe(false);
    expect(await rows(host)).toEqual([]);
    await host.getByRole('button', { name: /^Run/ }).click();
    await expect.poll(() => question(host)).toBe('Line 2: PICK. What does it print?');
    expect(await rows(host)).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
