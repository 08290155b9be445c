// <slow-start-runner> for course authors and learners (#26), the BUILT
// element in Chromium: an attribute value it does not understand is said
// once in the console, naming the attribute, the value and what it accepts,
// and an unknown mode or slot also shows a note inside the element
// (problem 6, item 5); under the strictest policy EMBEDDING.md gives,
// selecting all and typing over it reports no violation (problem 7).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { settle } from '../support/browser.js';
import { launchChromium } from '../support/browser.js';
import type { Browser } from 'playwright-core';
import { rm } from 'node:fs/promises';
import { checkBuilt, makeSite, openPage, outputRows, whenReady } from './element-site.js';

// EMBEDDING.md's strictest policy, plus what the test pages themselves need (their favicons).
const STRICT = "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self' data:";
const head = '<!doctype html><html lang="en"><meta charset="utf-8"><title>t</title><link rel="icon" href="data:,">' +
  '<script type="module" src="/element/slow-start-runner.js"></script>';

const PAGES = {
  '/authors.html':
    head +
    '<slow-start-runner id="a" autorun theme="purple" height="abc" heading-level="9" mode="implment">POOL a=1\nPICK' +
    '<template slot="expectd">a</template></slow-start-runner>' +
    '<slow-start-runner id="good" autorun theme="dark" height="200" heading-level="4" mode="run">POOL a=1\nPICK</slow-start-runner>',
  '/predict.html': head + '<slow-start-runner id="p" autorun mode="predict">POOL a=2 b=1\nPICK\nPICK</slow-start-runner>',
};

let site: string;
let browser: Browser;
let server: StaticServer;
beforeAll(async () => {
  checkBuilt();
  site = await makeSite();
  browser = await launchChromium();
  server = await serveStatic(site, { pages: PAGES, headers: { 'content-security-policy': STRICT } });
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

describe('authors are told', () => {
  it('warns once per value it does not understand, and shows a note for an unknown mode or slot', async () => {
    const { page, problems, violations } = await openPage(browser, `${server.url}/authors.html`);
    const bad = page.locator('#a');
    await whenReady(bad);
    await whenReady(page.locator('#good'));
    await expect.poll(() => outputRows(bad)).toEqual(['2: a']);
    const name = '<slow-start-runner id="a">';
    expect(problems.sort()).toEqual(
      [
        `console warning: ${name}: theme="purple" is not a theme; accepted: "light", "dark", "auto" (the page's color-scheme is used).`,
        `console warning: ${name}: height="abc" is not a height; accepted: a number of pixels (120 to 4000) or a CSS length such as "18rem" or "40vh" (the default height is used).`,
        `console warning: ${name}: heading-level="9" is not a heading level; accepted: "2", "3", "4", "5", "6" (3 is used).`,
        `console warning: ${name}: mode="implment" is not a mode; accepted: "run", "implement", "predict" (the plain runner is shown).`,
        `console warning: ${name}: <template slot="expectd"> is not a slot; accepted: "expected", "tests" (the template is ignored).`,
      ].sort(),
    );
    expect(await bad.locator('.sse-author-note').textContent()).toBe(
      'For the page’s author: mode="implment" is not a mode; accepted: "run", "implement", "predict" (the plain runner is shown). ' +
        '<template slot="expectd"> is not a slot; accepted: "expected", "tests" (the template is ignored).',
    );
    expect(await page.locator('#good .sse-author-note').count()).toBe(0);
    // A live attribute changed to another bad value: one more warning, the same one is not repeated.
    await bad.evaluate((el) => el.setAttribute('theme', 'blue'));
    await bad.evaluate((el) => el.setAttribute('theme', 'blue '));
    await bad.evaluate((el) => el.setAttribute('theme', 'blue'));
    expect(problems.filter((p) => p.includes('theme="blue"')).length).toBe(1);
    expect(await violations()).toEqual([]);
    await page.close();
  });
});

describe('mode="predict"', () => {
  it('asks before it shows, and its slowstart-predict events reach the page from the element', async () => {
    const { page, problems, violations } = await openPage(browser, `${server.url}/predict.html`);
    const host = page.locator('#p');
    await whenReady(host);
    await host.evaluate((el) => {
      (window as unknown as { got: unknown[] }).got = [];
      el.addEventListener('slowstart-predict', (e) => (window as unknown as { got: unknown[] }).got.push((e as CustomEvent).detail));
    });
    await expect.poll(() => host.locator('.ss-predict-q').textContent()).toBe('Line 2: PICK. What does it print?');
    expect(await host.locator('.ss-out-row:not([hidden])').count()).toBe(0);
    // 2/1: a (2 > 1), then b (a −1 + 2 = 1, b 1 + 1 = 2).
    await host.getByLabel('What line 2 prints').fill('a');
    await host.getByLabel('What line 2 prints').press('Enter');
    expect(await host.locator('.ss-predict-feedback').textContent()).toBe('Right: line 2 prints “a”.');
    expect(await page.evaluate(() => (window as unknown as { got: unknown[] }).got)).toEqual([
      { line: 2, prediction: 'a', truth: 'a', correct: true, index: 0, total: 2 },
    ]);
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('a strict Content-Security-Policy', () => {
  it('reports no violation when the learner selects all and types over it', async () => {
    const { page, problems, violations } = await openPage(browser, `${server.url}/course/bare.html`);
    const host = page.locator('#bare');
    await whenReady(host);
    await expect.poll(() => outputRows(host)).toEqual(['2: a', '5: a=5 b=1 c=1 d=2']);
    for (let i = 0; i < 3; i++) {
      await host.locator('.cm-content').click();
      await page.keyboard.press('ControlOrMeta+a');
      await page.keyboard.type('POOL x=1\nPICK\n');
      await expect.poll(() => outputRows(host)).toEqual(['2: x']);
      await settle(page);
    }
    expect(await violations()).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
