// The runner page keeps a learner's work as the element does (saved edits,
// share links, Download, earlier versions), in Chromium on the production
// build under the page's CSP. Links are made here with Node's zlib.
import { readFile } from 'node:fs/promises';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, watchProblems } from '../support/browser.js';
import { buildSite, PAGE_CSP } from '../support/site.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  const site = await buildSite();
  server = await serveStatic(site, { headers: { 'content-security-policy': PAGE_CSP } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const linkTo = (script: string) => `${server.url}/#ss-script=~${deflateRawSync(Buffer.from(script)).toString('base64url')}`;

async function open(context: BrowserContext, url = `${server.url}/`): Promise<{ page: Page; problems: string[] }> {
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  await page.locator('.ss-out-row').first().waitFor({ state: 'attached' }); // hidden under the Implement tab
  return { page, problems };
}

const script = (page: Page) => page.evaluate(() => window.slowstartRunner!.script);
const setScript = (page: Page, s: string) => page.evaluate((t) => window.slowstartRunner!.setScript(t), s);
const note = (page: Page) => page.locator('.sse-actions > .sse-note:not(.sse-storage-note)');

const MINE = 'POOL mine=2 other=1\nPICK\nPICK\nPICK\n';

describe('the runner page keeps the learner’s work', () => {
  it('edits survive a reload; two links in a row leave Back to my version giving the learner’s own', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const { page, problems } = await open(context);
    await setScript(page, MINE);
    await page.reload();
    await page.locator('.ss-out-row').first().waitFor();
    expect(await script(page)).toBe(MINE);
    expect(await note(page).textContent()).toContain('Your edits from last time are back');

    await page.goto(linkTo('POOL l1=1\nPICK\n'));
    await expect.poll(() => script(page)).toBe('POOL l1=1\nPICK\n');
    const second = await open(context, linkTo('POOL l2=1\nWEIGHTS\n'));
    expect(await script(second.page)).toBe('POOL l2=1\nWEIGHTS\n');
    expect(await note(second.page).textContent()).toContain('This runner opened the script from a link. Your own version');
    await second.page.getByRole('button', { name: 'Back to my version' }).click();
    expect(await script(second.page)).toBe(MINE);
    expect(await second.page.locator('.ss-out-text').allTextContents()).toEqual(['mine', 'other', 'mine']);
    expect([...problems, ...second.problems]).toEqual([]);
    await context.close();
  });

  it('Share link makes a compressed link that opens the script in a fresh browser; switching to Implement keeps it in the URL', async () => {
    const a = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const { page, problems } = await open(a);
    await setScript(page, MINE);
    await page.getByRole('button', { name: 'Share link' }).click();
    await expect.poll(() => page.locator('.sse-link').inputValue()).toContain('#ss-script=~');
    const link = await page.locator('.sse-link').inputValue();
    expect(inflateRawSync(Buffer.from(link.split('#ss-script=~')[1], 'base64url')).toString()).toBe(MINE);
    await page.getByRole('tab', { name: 'Implement it yourself' }).click();
    expect(new URL(page.url()).hash).toBe(`#implement&${new URL(link).hash.slice(1)}`);
    await page.getByRole('tab', { name: 'Run scripts' }).click();
    expect(page.url()).toBe(link);
    expect(problems).toEqual([]);
    await a.close();

    const b = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const fresh = await open(b, `${link.replace('#', '#implement&')}`);
    expect(await script(fresh.page)).toBe(MINE);
    expect(await fresh.page.getByRole('tab', { name: 'Implement it yourself' }).getAttribute('aria-selected')).toBe('true');
    expect(fresh.problems).toEqual([]);
    await b.close();
  });

  it('Download saves the script as a file', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 900 } });
    const { page, problems } = await open(context);
    await setScript(page, MINE);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download', exact: true }).click()]);
    expect(file.suggestedFilename()).toBe('slowstart-script.txt');
    expect(await readFile((await file.path())!, 'utf8')).toBe(MINE);
    expect(problems).toEqual([]);
    await context.close();
  });
});
