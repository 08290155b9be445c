// The implement mode keeps the learner's earlier versions (issue 35): the
// code that Reset, or another tab's code, took out of the editor comes back
// with Restore after a reload. In Chromium against the production build,
// two pages of one browser context (two tabs: one localStorage, real
// `storage` events), as a learner does it: typing in the editors, the Reset
// button, reloads, "Your earlier versions" and its Restore buttons.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { launchChromium, watchProblems } from '../support/browser.js';
import { buildSite, PAGE_CSP, SHOTS } from '../support/site.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

let server: StaticServer;
let browser: Browser;

beforeAll(async () => {
  server = await serveStatic(await buildSite(), { headers: { 'content-security-policy': PAGE_CSP } });
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

/** Another tab's change arrives as an event: waited for, with room for a busy machine. */
const ACROSS = { timeout: 15_000 };
/** The implement mode saves this long after the last keystroke (code-saver.ts, SAVE_DELAY_MS). */
const SAVE_DELAY_MS = 400;

interface Tab {
  page: Page;
  problems: string[];
}

async function open(context: BrowserContext): Promise<Tab> {
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${server.url}/#implement`);
  await page.locator('#implement .ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
  return { page, problems };
}

async function reload(tab: Tab): Promise<void> {
  await tab.page.reload();
  await tab.page.locator('#implement .ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
}

const code = (tab: Tab) => tab.page.evaluate(() => window.slowstartImplement!.code);

/** The learner types `text` at the top of the code. */
async function typeAtTop(tab: Tab, text: string): Promise<void> {
  await tab.page.locator('#implement .ss-impl-editor .cm-content').click();
  await tab.page.keyboard.press('Control+Home');
  await tab.page.keyboard.type(text);
}

/** What "Your earlier versions" lists (its summary, then one line per version), or null while it is hidden. */
async function versions(tab: Tab): Promise<string[] | null> {
  const list = tab.page.locator('#implement .ss-impl-versions');
  if (await list.isHidden()) return null;
  return [
    (await list.locator('summary').textContent()) ?? '',
    ...(await list.locator('li > span').allTextContents()),
  ];
}

async function restore(tab: Tab, index: number): Promise<void> {
  const list = tab.page.locator('#implement .ss-impl-versions');
  if (!(await list.evaluate((d) => (d as HTMLDetailsElement).open))) await list.locator('summary').click();
  await list.getByRole('button', { name: 'Restore' }).nth(index).click();
}

/** Holds this tab's saves (the timer an edit sets) until the returned function lets them run: its edit stays waiting. */
async function holdSaves(page: Page): Promise<() => Promise<void>> {
  await page.evaluate((delay) => {
    const real = window.setTimeout.bind(window);
    const held: (() => void)[] = [];
    let id = 1e9;
    window.setTimeout = ((f: () => void, ms?: number) => (ms === delay ? (held.push(f), ++id) : real(f, ms))) as typeof window.setTimeout;
    (window as unknown as { releaseSaves(): void }).releaseSaves = () => {
      window.setTimeout = real as typeof window.setTimeout;
      for (const f of held.splice(0)) f();
    };
  }, SAVE_DELAY_MS);
  return () => page.evaluate(() => (window as unknown as { releaseSaves(): void }).releaseSaves());
}

const A = '// tab a\n';
const B = '// tab b\n';

describe('the implement mode’s earlier versions', () => {
  it('two tabs, Reset and reloads: each code that left an editor comes back with Restore', async () => {
    const context = await browser.newContext({ viewport: { width: 1300, height: 1600 }, reducedMotion: 'reduce' });
    const a = await open(context);
    const b = await open(context);
    expect(await versions(a)).toBeNull(); // nothing put aside yet: the list is hidden

    // Both learners type; b's save waits while a's goes through, then b's replaces a's.
    const release = await holdSaves(b.page);
    await typeAtTop(b, B);
    await typeAtTop(a, A);
    const codeA = A + LEARNER_TEMPLATE;
    const codeB = B + LEARNER_TEMPLATE;
    await expect.poll(() => a.page.evaluate((c) => Object.values(localStorage).includes(c), codeA), ACROSS).toBe(true);
    await release();
    // a shows b's code (the newest); a's own went among the earlier versions.
    await expect.poll(() => code(a), ACROSS).toBe(codeB);
    expect(await code(b)).toBe(codeB);

    // After a reload, a's code is there to restore.
    await reload(a);
    expect(await code(a)).toBe(codeB);
    const lines = codeA.split('\n').length - 1; // the template's lines and the one typed
    expect(await versions(a)).toEqual(['Your earlier versions (1)', expect.stringMatching(new RegExp(`^today at .+, ${lines} lines, first change on line 1: // tab a$`))]);
    await restore(a, 0);
    expect(await code(a)).toBe(codeA);
    expect(await a.page.locator('#implement .ss-impl-status').textContent()).toMatch(/^Your code from today at .+ is back; the code it replaced is among your earlier versions\.$/);
    expect((await versions(a))?.slice(1)).toEqual([expect.stringContaining('first change on line 1: // tab b')]);
    // The other tab follows the restored code.
    await expect.poll(() => code(b), ACROSS).toBe(codeA);

    // Reset to template: undone after a reload, in the other tab.
    await a.page.locator('#implement .ss-impl-reset').click();
    expect(await code(a)).toBe(LEARNER_TEMPLATE);
    await expect.poll(() => code(b), ACROSS).toBe(LEARNER_TEMPLATE);
    await reload(b);
    expect(await code(b)).toBe(LEARNER_TEMPLATE);
    const listed = await versions(b);
    expect(listed?.[0]).toBe('Your earlier versions (2)');
    expect(listed?.slice(1)).toEqual([expect.stringContaining('// tab a'), expect.stringContaining('// tab b')]);
    await b.page.locator('#implement .ss-impl-versions summary').click();
    const box = (await b.page.locator('#implement .ss-toolbar').boundingBox())!;
    await b.page.screenshot({ path: `${SHOTS}/implement-versions.png`, clip: { x: 0, y: box.y - 8, width: 1300, height: 260 } });
    await restore(b, 0);
    expect(await code(b)).toBe(codeA);
    // The template is never a version.
    expect((await versions(b))?.[0]).toBe('Your earlier versions (1)');
    await reload(b);
    expect(await code(b)).toBe(codeA);
    expect([...a.problems, ...b.problems]).toEqual([]);
    await context.close();
  });
});
