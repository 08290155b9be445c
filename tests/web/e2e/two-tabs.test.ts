// A learner with the same page open in two tabs loses nothing: a tab saves
// only what was edited in it, the latest edit wins, and a tab that did not
// make it learns it (a `storage` event) instead of writing its old text
// back, for the runner page and the element, for the script and for the
// implement mode's code. Two pages of one browser context share
// localStorage and get each other's real `storage` events, as two tabs do.
// Nothing here reads a storage key: what a learner sees is checked (the
// editors, a fresh tab opened afterwards), so the tests hold whatever the
// keys are.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { settle, watchProblems } from '../support/browser.js';
import { editorText, servePageAndElement, whenReady, type PageAndElement } from './element-site.js';

let sites: PageAndElement;
let browser: Browser;
/** Tall enough that the implement editor draws every line of its code (CodeMirror draws what is in view). */
const TALL = { viewport: { width: 1300, height: 2400 } };

beforeAll(async () => {
  sites = await servePageAndElement();
  browser = sites.browser;
});

afterAll(() => sites?.close());

const MINE = 'POOL mine=3 yours=1\nPICK\nPICK\n';
const LATER = 'POOL mine=3 yours=1\nNOW 5\nWEIGHTS\n';
const MY_CODE = `${LEARNER_TEMPLATE.replace('return target; // TODO: ramp up', 'return ramp === 0 ? target : Number(BigInt(target) * BigInt(Math.min(Math.max(0, now - joined), ramp)) / BigInt(ramp));')}`;

interface Tab {
  page: Page;
  problems: string[];
}

async function newTab(context: BrowserContext, url: string, ready: string): Promise<Tab> {
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(url);
  await page.locator(ready).first().waitFor({ state: 'attached', timeout: 30_000 });
  return { page, problems };
}

/**
 * Holds the page's saves (the timer of 300 ms an edit sets) until the
 * returned function releases them: an edit there stays waiting to be saved,
 * however slow the machine. (Playwright's clock is the whole context's.)
 */
async function holdSaves(page: Page): Promise<() => Promise<void>> {
  await page.evaluate(() => {
    const real = window.setTimeout.bind(window);
    const held: (() => void)[] = [];
    let id = 1e9; // never 0: 0 means "nothing waiting"
    window.setTimeout = ((f: () => void, ms?: number) => (ms === 300 ? (held.push(f), ++id) : real(f, ms))) as typeof window.setTimeout;
    (window as unknown as { releaseSaves(): void }).releaseSaves = () => {
      window.setTimeout = real as typeof window.setTimeout;
      for (const f of held.splice(0)) f();
    };
  });
  return () => page.evaluate(() => (window as unknown as { releaseSaves(): void }).releaseSaves());
}

/** Leaves the page (pagehide, as closing the tab does) and waits until it is gone. */
async function leave(tab: Tab): Promise<void> {
  await tab.page.goto('about:blank');
  await tab.page.close();
}

/** Some localStorage value is `text`, or holds it as a JSON string (whatever the key): the tab that wrote it has saved. */
const savedSomewhere = (page: Page, text: string) =>
  page.evaluate((t) => Object.values(localStorage).some((v) => v === t || v.includes(JSON.stringify(t))), text);

/** Another tab's change arrives as an event: waited for, with room for a busy machine. */
const ACROSS = { timeout: 15_000 };

describe('the runner page in two tabs', () => {
  const open = (context: BrowserContext, hash = '') => newTab(context, `${sites.page}/${hash}`, hash ? '.ss-impl-test' : '.ss-out-row');
  const script = (tab: Tab) => tab.page.evaluate(() => window.slowstartRunner!.script);
  const setScript = (tab: Tab, s: string) => tab.page.evaluate((t) => window.slowstartRunner!.setScript(t), s);
  const code = (tab: Tab) => tab.page.evaluate(() => window.slowstartImplement!.code);
  const setCode = (tab: Tab, c: string) => tab.page.evaluate((t) => window.slowstartImplement!.setCode(t), c);
  const note = (tab: Tab) => tab.page.locator('.sse-actions > .sse-note:not(.sse-storage-note)');

  it('implement mode: an old, untouched tab never writes its template over the code written in a newer one, and shows that code', async () => {
    const context = await browser.newContext(TALL);
    const old = await open(context, '#implement');
    const newer = await open(context, '#implement');
    expect(await code(old)).toBe(LEARNER_TEMPLATE);
    await setCode(newer, MY_CODE);
    await expect.poll(() => savedSomewhere(newer.page, MY_CODE), ACROSS).toBe(true);
    // The old tab learns the newer code, and says where it came from.
    await expect.poll(() => code(old), ACROSS).toBe(MY_CODE);
    expect(await old.page.locator('.ss-impl-status').textContent()).toMatch(/changed in another tab/);
    // Closing the old tab (pagehide) and the newer one keeps the code.
    await leave(old);
    await leave(newer);
    const fresh = await open(context, '#implement');
    expect(await code(fresh)).toBe(MY_CODE);
    expect([...old.problems, ...newer.problems, ...fresh.problems]).toEqual([]);
    await context.close();
  });

  it('the script: the tab left untouched shows the newer script, and leaving it keeps the newer one', async () => {
    const context = await browser.newContext(TALL);
    const old = await open(context);
    const newer = await open(context);
    await setScript(newer, MINE);
    await expect.poll(() => script(old), ACROSS).toBe(MINE);
    expect(await note(old).textContent()).toMatch(/changed in another tab/);
    // The old tab shows the new script's run too.
    await expect.poll(() => old.page.locator('.ss-out-row:not([hidden]) .ss-out-text').allTextContents()).toEqual(['mine', 'mine']);
    await leave(old);
    await setScript(newer, LATER);
    await leave(newer);
    const fresh = await open(context);
    expect(await script(fresh)).toBe(LATER);
    expect([...old.problems, ...newer.problems, ...fresh.problems]).toEqual([]);
    await context.close();
  });

  it('edits in both tabs at once: the edit saved last wins in both, and the other is kept among the earlier versions', async () => {
    const context = await browser.newContext(TALL);
    const a = await open(context);
    const b = await open(context);
    const release = await holdSaves(b.page);
    await setScript(b, LATER);
    await setScript(a, MINE);
    await expect.poll(() => savedSomewhere(a.page, MINE), ACROSS).toBe(true);
    await settle(b.page);
    expect(await script(b)).toBe(LATER); // its own edit, waiting, is not swapped under the learner
    await release(); // b's save: the latest
    await expect.poll(() => script(a), ACROSS).toBe(LATER);
    expect(await script(b)).toBe(LATER);
    for (const tab of [a, b]) {
      const versions = tab.page.locator('.sse-versions li > span');
      await expect.poll(() => versions.allTextContents(), ACROSS).toEqual([expect.stringMatching(/, 3 lines: POOL mine=3 yours=1$/)]);
    }
    await a.page.locator('.sse-versions summary').click();
    await a.page.locator('.sse-versions').getByRole('button', { name: 'Restore' }).click();
    expect(await script(a)).toBe(MINE);
    await expect.poll(() => script(b), ACROSS).toBe(MINE);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await context.close();
  });
});

describe('<slow-start-runner> in two tabs', () => {
  const bare = () => `${sites.element}/course/bare.html`;
  const open = async (context: BrowserContext, url = bare(), selector = '#bare'): Promise<Tab & { host: Locator }> => {
    const tab = await newTab(context, url, selector);
    const host = tab.page.locator(selector);
    await whenReady(host);
    return { ...tab, host };
  };
  const setScript = (host: Locator, s: string) => host.evaluate((el, t) => ((el as HTMLElement & { script: string }).script = t), s);
  // The implement view's editor holds a few dozen lines: all are drawn once it has measured itself (polled).
  const code = (host: Locator) =>
    host.evaluate((el) => [...el.shadowRoot!.querySelectorAll('.ss-impl-editor .cm-line')].map((l) => l.textContent).join('\n'));

  it('the script: the untouched tab shows the newer script; Reset in one tab is the newest edit in both', async () => {
    const context = await browser.newContext(TALL);
    const old = await open(context);
    const newer = await open(context);
    await setScript(newer.host, MINE);
    await expect.poll(() => editorText(old.host), ACROSS).toBe(MINE);
    expect(await old.host.locator('.sse-actions > .sse-note:not(.sse-storage-note)').textContent()).toMatch(/changed in another tab/);
    await leave(old);
    const again = await open(context);
    expect(await editorText(again.host)).toBe(MINE);
    const starter = await again.host.evaluate((el) => (el as HTMLElement & { starter: string }).starter);
    await again.host.getByRole('button', { name: 'Reset to starter' }).click();
    await expect.poll(() => editorText(newer.host), ACROSS).toBe(starter);
    expect([...old.problems, ...newer.problems, ...again.problems]).toEqual([]);
    await context.close();
  });

  it('implement mode: code typed in one tab reaches the other, and the old tab’s template never comes back', async () => {
    const context = await browser.newContext(TALL);
    const url = `${sites.element}/course/implement.html`;
    const old = await open(context, url, '#impl');
    await old.host.locator('.ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
    const newer = await open(context, url, '#impl');
    await newer.host.locator('.ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => code(old.host)).toBe(LEARNER_TEMPLATE);
    // The learner types at the top of the newer tab's editor.
    await newer.host.locator('.ss-impl-editor .cm-line').first().click();
    await newer.page.keyboard.press('Control+Home');
    await newer.page.keyboard.type('// my version\n');
    const typed = `// my version\n${LEARNER_TEMPLATE}`;
    await expect.poll(() => code(old.host), ACROSS).toBe(typed);
    expect(await old.host.locator('.ss-impl-status').textContent()).toMatch(/changed in another tab/);
    await leave(old);
    await leave(newer);
    const fresh = await open(context, url, '#impl');
    await fresh.host.locator('.ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
    await expect.poll(() => code(fresh.host)).toBe(typed);
    expect([...old.problems, ...newer.problems, ...fresh.problems]).toEqual([]);
    await context.close();
  });
});
