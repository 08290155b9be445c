// Saved work is kept per page, and a page is its path AND its query: an LMS
// that serves every page from one path (`/mod/page/view.php?id=N`) keeps
// week 1's and week 2's work apart, campaign and click tags (utm_*, fbclid)
// do not split it, an author's `storage-key` names it outright, and what
// an earlier version saved under the path alone is not lost. In Chromium,
// with the BUILT element and the built runner page.
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEARNER_TEMPLATE } from '../../../web/implement/template.js';
import { watchProblems } from '../support/browser.js';
import { editorText, servePageAndElement, whenReady, type PageAndElement } from './element-site.js';

let sites: PageAndElement;
let browser: Browser;
/** Tall enough that the implement editor draws every line of its code (CodeMirror draws what is in view). */
const TALL = { viewport: { width: 1300, height: 2400 } };

/** An LMS page: the same element id ("ramp") on every week's page, as authors copy it; each week its own starter. */
const lmsPage = (title: string, starter: string, attributes = '') => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title>
<link rel="icon" href="/course/favicon.svg" type="image/svg+xml">
<script type="module" src="/element/slow-start-runner.js"></script></head>
<body><h1>${title}</h1>
<slow-start-runner id="ramp" autorun${attributes}>
${starter}</slow-start-runner>
</body></html>`;

const WEEK1 = 'POOL week1=1\nPICK\n';
const WEEK2 = 'POOL week2=2\nWEIGHTS\n';
const WEEK3 = 'POOL week3=3\nPICK\n';

beforeAll(async () => {
  sites = await servePageAndElement({
    '/mod/page/view.php?id=1': lmsPage('Week 1', WEEK1),
    '/mod/page/view.php?id=2': lmsPage('Week 2', WEEK2),
    // How an earlier version saw week 1: the path alone named it (see the migration test).
    '/mod/page/view.php': lmsPage('Week 1', WEEK1),
    // The LMS adds its own parameters (forceview) to some links: the author names the work.
    '/mod/page/view.php?id=3': lmsPage('Week 3', WEEK3, ' storage-key="week-3-ramp"'),
    '/mod/page/view.php?id=3&forceview=1': lmsPage('Week 3', WEEK3, ' storage-key="week-3-ramp"'),
    '/course/recap.html': lmsPage('Recap', WEEK3, ' storage-key="week-3-ramp"'),
    '/mod/page/implement.php?id=1': lmsPage('Implement, week 1', WEEK1, ' mode="implement"'),
    '/mod/page/implement.php?id=2': lmsPage('Implement, week 2', WEEK2, ' mode="implement"'),
  });
  browser = sites.browser;
});

afterAll(() => sites?.close());

interface Opened {
  page: Page;
  host: Locator;
  problems: string[];
}

async function openLms(context: BrowserContext, path: string): Promise<Opened> {
  const page = await context.newPage();
  const problems = watchProblems(page);
  await page.goto(`${sites.element}${path}`);
  const host = page.locator('#ramp');
  await whenReady(host);
  return { page, host, problems };
}

const setScript = (host: Locator, s: string) => host.evaluate((el, t) => ((el as HTMLElement & { script: string }).script = t), s);
const note = (host: Locator) => host.locator('.sse-actions > .sse-note:not(.sse-storage-note)');
/** Reloads (pagehide saves a pending edit at once) and waits for the element. */
async function reload(opened: Opened): Promise<void> {
  await opened.page.reload();
  await whenReady(opened.host);
}

describe('pages that differ only in their query string', () => {
  it('keep their own work: week 2 opens with its own starter, and Reset in week 1 leaves week 2’s answer alone', async () => {
    const context = await browser.newContext(TALL);
    const week1 = await openLms(context, '/mod/page/view.php?id=1');
    await setScript(week1.host, 'POOL week1=1\nPICK\nPICK\n');
    await reload(week1);
    expect(await editorText(week1.host)).toBe('POOL week1=1\nPICK\nPICK\n');

    const week2 = await openLms(context, '/mod/page/view.php?id=2');
    expect(await editorText(week2.host)).toBe(WEEK2);
    expect(await note(week2.host).isHidden()).toBe(true);
    await setScript(week2.host, 'POOL week2=2\nNOW 5\nWEIGHTS\n');
    await reload(week2);

    await week1.host.getByRole('button', { name: 'Reset to starter' }).click();
    await reload(week1);
    expect(await editorText(week1.host)).toBe(WEEK1);
    await reload(week2);
    expect(await editorText(week2.host)).toBe('POOL week2=2\nNOW 5\nWEIGHTS\n');
    expect([...week1.problems, ...week2.problems]).toEqual([]);
    await context.close();
  });

  it('campaign and click tags, the order of parameters and the hash do not make another page', async () => {
    const context = await browser.newContext(TALL);
    const week1 = await openLms(context, '/mod/page/view.php?id=1');
    const mine = 'POOL week1=1\nNOW 3\nPICK\n';
    await setScript(week1.host, mine);
    await reload(week1);
    for (const path of ['/mod/page/view.php?id=1&utm_source=newsletter&utm_medium=email', '/mod/page/view.php?fbclid=IwAR0x&id=1&gclid=abc#ramp']) {
      const tagged = await openLms(context, path);
      expect(await editorText(tagged.host), path).toBe(mine);
      expect(tagged.problems).toEqual([]);
      await tagged.page.close();
    }
    await context.close();
  });

  it('the implement mode’s code is kept per page too', async () => {
    const context = await browser.newContext(TALL);
    // The editor holds a few dozen lines: all are drawn once it has measured itself (polled).
    const code = (host: Locator) =>
      host.evaluate((el) => [...el.shadowRoot!.querySelectorAll('.ss-impl-editor .cm-line')].map((l) => l.textContent).join('\n'));
    const open = async (id: number) => {
      const opened = await openLms(context, `/mod/page/implement.php?id=${id}`);
      await opened.host.locator('.ss-impl-editor .cm-line').first().waitFor({ timeout: 30_000 });
      return opened;
    };
    const week1 = await open(1);
    await week1.host.locator('.ss-impl-editor .cm-line').first().click();
    await week1.page.keyboard.press('Control+Home');
    await week1.page.keyboard.type('// week 1\n');
    await week1.page.goto('about:blank'); // pagehide: kept at once

    const week2 = await open(2);
    await expect.poll(() => code(week2.host)).toBe(LEARNER_TEMPLATE);
    const again = await open(1);
    await expect.poll(() => code(again.host)).toBe(`// week 1\n${LEARNER_TEMPLATE}`);
    expect([...week1.problems, ...week2.problems, ...again.problems]).toEqual([]);
    await context.close();
  });
});

describe('storage-key: the author names the work', () => {
  it('one key, the same work wherever the element is: with LMS parameters added, and on another page', async () => {
    const context = await browser.newContext(TALL);
    const week3 = await openLms(context, '/mod/page/view.php?id=3');
    const mine = 'POOL week3=3\nNOW 1\nWEIGHTS\n';
    await setScript(week3.host, mine);
    await reload(week3);
    for (const path of ['/mod/page/view.php?id=3&forceview=1', '/course/recap.html']) {
      const other = await openLms(context, path);
      expect(await editorText(other.host), path).toBe(mine);
      await other.page.close();
    }
    // Another element with the same id on a page without that key is not affected.
    const week1 = await openLms(context, '/mod/page/view.php?id=1');
    expect(await editorText(week1.host)).toBe(WEEK1);
    expect(week3.problems).toEqual([]);
    await context.close();
  });
});

describe('work saved under the path alone (before queries counted) is not lost', () => {
  it('the page it was written on opens it; another page offers it among the earlier versions; Reset sticks', async () => {
    const context = await browser.newContext(TALL);
    // The path without a query is keyed exactly as before, so a record
    // written there is what an earlier version wrote for every ?id=N.
    const before = await openLms(context, '/mod/page/view.php');
    const answer = 'POOL week1=1\nNOW 9\nPICK\n';
    await setScript(before.host, answer);
    await before.page.goto('about:blank');

    // Week 1 (the starter it was written against) opens it as its own.
    const week1 = await openLms(context, '/mod/page/view.php?id=1');
    expect(await editorText(week1.host)).toBe(answer);
    expect(await note(week1.host).textContent()).toContain('Your edits from last time are back');
    // Week 2 opens with its own starter; the old script is one click away.
    const week2 = await openLms(context, '/mod/page/view.php?id=2');
    expect(await editorText(week2.host)).toBe(WEEK2);
    expect(await week2.host.locator('.sse-versions li > span').allTextContents()).toEqual([expect.stringMatching(/, 3 lines: POOL week1=1$/)]);
    // Reset in week 1 is not undone by the old record on the next visit.
    await week1.host.getByRole('button', { name: 'Reset to starter' }).click();
    await reload(week1);
    expect(await editorText(week1.host)).toBe(WEEK1);
    expect([...before.problems, ...week1.problems, ...week2.problems]).toEqual([]);
    await context.close();
  });

  it('the runner page: its implement code from the old global key, its script from the path alone, on a page with a query', async () => {
    const context = await browser.newContext(TALL);
    const page = await context.newPage();
    const problems = watchProblems(page);
    await page.goto(`${sites.page}/`);
    await page.locator('.ss-out-row').first().waitFor();
    // What an earlier version of the page wrote: the script under its path, the code under one key for the site.
    await page.evaluate(() => {
      localStorage.setItem('slowstart-page-implement-code', '// kept from before\n');
      window.slowstartRunner!.setScript('POOL before=1\nPICK\n');
    });
    await page.goto(`${sites.page}/?course=a#implement`);
    await page.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => window.slowstartImplement!.code)).toBe('// kept from before\n');
    expect(await page.evaluate(() => window.slowstartRunner!.script)).toBe('POOL before=1\nPICK\n');
    // A second course on the same page keeps its own work from now on.
    await page.evaluate(() => window.slowstartRunner!.setScript('POOL course_a=1\nPICK\n'));
    await page.evaluate(() => window.slowstartImplement!.setCode('// course a\n'));
    await page.goto(`${sites.page}/?course=b#implement`);
    await page.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
    await page.evaluate(() => window.slowstartImplement!.setCode('// course b\n'));
    await page.evaluate(() => window.slowstartRunner!.setScript('POOL course_b=1\nPICK\n'));
    await page.goto(`${sites.page}/?course=a#implement`);
    await page.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
    expect(await page.evaluate(() => window.slowstartImplement!.code)).toBe('// course a\n');
    expect(await page.evaluate(() => window.slowstartRunner!.script)).toBe('POOL course_a=1\nPICK\n');
    expect(problems).toEqual([]);
    await context.close();
  });
});
