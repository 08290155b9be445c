// A learner's work in <slow-start-runner> is never lost, in real Chromium
// with the BUILT element (dist/element): any number of share links, a full
// storage quota, scripts too big for storage or for a link, damaged and
// old-style links, and the `height` attribute's bounds. Links are made here
// with Node's zlib (raw DEFLATE + base64url, EMBEDDING.md's format), not with
// the element's own code.
import { readFile, rm } from 'node:fs/promises';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { fleetScript } from '../support/scripts.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { checkBuilt, editorText, makeSite, openPage, retypeLine, SHOTS, whenReady } from './element-site.js';

let site: string;
let server: StaticServer;
let browser: Browser;
let bare: string; // tests/web/fixtures/course/bare.html: one element, id "bare"

beforeAll(async () => {
  checkBuilt();
  site = await makeSite();
  server = await serveStatic(site);
  bare = `${server.url}/course/bare.html`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

const STORAGE_KEY = 'slowstart:/course/bare.html:bare';

/** A link in today's format, made independently of the element: `~` + base64url(raw DEFLATE(UTF-8)). */
const linkTo = (script: string, key = 'bare') => `${bare}#ss-${key}=~${deflateRawSync(Buffer.from(script, 'utf8')).toString('base64url')}`;
const unpack = (payload: string) => inflateRawSync(Buffer.from(payload.replace(/^~/, ''), 'base64url')).toString('utf8');

async function openBare(context: BrowserContext, url = bare): Promise<{ page: Page; host: Locator; problems: string[] }> {
  const { page, problems } = await openPage(context, url);
  const host = page.locator('#bare');
  await whenReady(host);
  return { page, host, problems };
}

/**
 * A tab of `context`, blank, for loading pages in again and again (loadIn): a new tab costs a
 * renderer process of its own, and a load of the bare page in a new tab about three times the
 * Chromium CPU of a load in a tab already open (docs/TESTING.md). Its problems are all of its loads'.
 */
async function newTab(context: BrowserContext): Promise<{ page: Page; host: Locator; problems: string[] }> {
  const { page, problems } = await openPage(context, 'about:blank');
  return { page, host: page.locator('#bare'), problems };
}

/**
 * Loads `url` anew in the tab, as a learner follows a link in the tab they are in, and waits for
 * the element: by way of about:blank, so that a link to the page already open is a load of the
 * page, not a hash change on it.
 */
async function loadIn(tab: { page: Page; host: Locator }, url = bare): Promise<void> {
  await tab.page.goto('about:blank');
  await tab.page.goto(url);
  await whenReady(tab.host);
}

/** Sets the element's script as a program would (one undoable edit: it counts as the learner's). */
const setScript = (host: Locator, script: string) => host.evaluate((el, s) => ((el as HTMLElement & { script: string }).script = s), script);
const note = (host: Locator) => host.locator('.sse-actions > .sse-note:not(.sse-storage-note)');
const storageNote = (host: Locator) => host.locator('.sse-storage-note');
const saved = (page: Page) =>
  page.evaluate((k) => JSON.parse(localStorage.getItem(k) ?? 'null') as { script: string; own: boolean; versions: { script: string }[] } | null, STORAGE_KEY);

const OWN = 'POOL mine=3 yours=1\nPICK\nPICK\n';
/** A time as the browser's locale writes it ("14:02", "2:02 PM"). */
const TIME = String.raw`\d{1,2}:\d\d(?: [AP]M)?`;
const OWN_EDITED = 'POOL mine=3 yours=1\nNOW 5\nWEIGHTS\n';

describe('the learner’s own version survives any number of share links', () => {
  it('two and three links in a row, by fresh loads, a hash change and a reload: Back to my version gives the learner’s own script', async () => {
    const context = await browser.newContext();
    const tab = await newTab(context);
    await loadIn(tab);
    await setScript(tab.host, OWN);
    await tab.page.reload(); // pagehide saves at once
    await whenReady(tab.host);
    expect(await editorText(tab.host)).toBe(OWN);

    const links = ['POOL one=1\nPICK\n', 'POOL two=2\nWEIGHTS\n', 'POOL three=3\nPICK\nPICK\n'];
    // Link 1 and link 2, each by a fresh load of the page.
    for (const script of links.slice(0, 2)) {
      await loadIn(tab, linkTo(script));
      expect(await editorText(tab.host)).toBe(script);
      expect(await note(tab.host).textContent()).toMatch(new RegExp(`^This runner opened the script from a link\\. Your own version \\(today at ${TIME}\\) is kept\\.`));
      expect((await saved(tab.page))!.versions.map((v) => v.script)).toEqual([OWN]);
      expect(tab.problems).toEqual([]);
    }
    // Link 3 by a hash change on the page opened anew at link 2, then a reload with it still in the URL.
    await loadIn(tab, linkTo(links[1]));
    const { page, host, problems } = tab;
    await page.evaluate((h) => (location.hash = h), new URL(linkTo(links[2])).hash);
    await expect.poll(() => editorText(host)).toBe(links[2]);
    await page.reload();
    await whenReady(host);
    expect(await editorText(host)).toBe(links[2]);
    await host.getByRole('button', { name: 'Back to my version' }).click();
    expect(await editorText(host)).toBe(OWN);
    expect(await note(host).isHidden()).toBe(true);
    await expect.poll(async () => (await saved(page))?.script).toBe(OWN);
    expect((await saved(page))!.own).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an edited link is the learner’s own too: both it and the first version are kept, and each can be restored', async () => {
    const context = await browser.newContext();
    const { page, host, problems } = await openBare(context);
    await setScript(host, OWN);
    // Link A, then the learner edits it: that edit is theirs.
    await page.goto(linkTo('POOL a=1\nPICK\n'));
    await expect.poll(() => editorText(host)).toBe('POOL a=1\nPICK\n');
    await retypeLine(host, 2, 'WEIGHTS');
    await expect.poll(async () => (await saved(page))?.script).toBe('POOL a=1\nWEIGHTS\n');
    // Link B: "my version" is now the edited link; the first one is among the earlier versions.
    await page.goto(linkTo('POOL b=1\nPICK\n'));
    await expect.poll(() => editorText(host)).toBe('POOL b=1\nPICK\n');
    const versions = host.locator('.sse-versions');
    expect(await versions.locator('summary').textContent()).toBe('Your earlier versions (2)');
    expect(await versions.locator('li > span').allTextContents()).toEqual([
      expect.stringMatching(new RegExp(`^today at ${TIME}, 2 lines: POOL a=1$`)),
      expect.stringMatching(new RegExp(`^today at ${TIME}, 3 lines: POOL mine=3 yours=1$`)),
    ]);
    await host.getByRole('button', { name: 'Back to my version' }).click();
    expect(await editorText(host)).toBe('POOL a=1\nWEIGHTS\n');
    // The first version is one click away; restoring it puts the edited link aside (nothing is lost).
    await versions.locator('summary').click();
    await versions.getByRole('button', { name: 'Restore' }).first().click();
    expect(await editorText(host)).toBe(OWN);
    expect(await versions.locator('li > span').allTextContents()).toEqual([expect.stringMatching(/, 2 lines: POOL a=1$/)]);
    await page.reload();
    await whenReady(host);
    expect(await editorText(host)).toBe(OWN);
    expect(await versions.locator('summary').textContent()).toBe('Your earlier versions (1)');
    await page.screenshot({ path: `${SHOTS}/element-versions.png` });
    expect(problems).toEqual([]);
    await context.close();
  });

  it('Keep this one makes the link’s script the learner’s, and their earlier version stays restorable', async () => {
    const context = await browser.newContext();
    const { page, host } = await openBare(context);
    await setScript(host, OWN);
    await page.goto(linkTo('POOL k=1\nPICK\n'));
    await expect.poll(() => editorText(host)).toBe('POOL k=1\nPICK\n');
    await host.getByRole('button', { name: 'Keep this one' }).click();
    await expect.poll(() => note(host).isHidden()).toBe(true); // hidden in the click's handler, a task after it
    await page.reload();
    await whenReady(host);
    expect(await editorText(host)).toBe('POOL k=1\nPICK\n');
    expect(await note(host).textContent()).toContain('Your edits from last time are back');
    expect(await host.locator('.sse-versions summary').textContent()).toBe('Your earlier versions (1)');
    await context.close();
  });
});

describe('storage that cannot be written', () => {
  it('a full quota: what was saved is read back, and the note says what is and is not kept; Download gives the file', async () => {
    const context = await browser.newContext();
    const { page, host, problems } = await openBare(context);
    await setScript(host, OWN);
    await page.reload();
    await whenReady(host);
    // Fill the site's storage to the last character (one-character keys take the last few).
    await page.evaluate(() => {
      let n = 0;
      for (let size = 1 << 21; size >= 1; ) {
        try {
          localStorage.setItem(`junk${n++}`, 'x'.repeat(size));
        } catch {
          size = Math.floor(size / 2);
        }
      }
      for (const key of '0123456789') {
        try {
          localStorage.setItem(key, '');
        } catch {
          break;
        }
      }
    });
    await page.reload();
    await whenReady(host);
    expect(await editorText(host)).toBe(OWN); // read although nothing can be written
    expect(await note(host).textContent()).toContain('Your edits from last time are back');
    expect(await storageNote(host).isHidden()).toBe(true); // nothing failed yet

    await setScript(host, OWN_EDITED);
    await expect.poll(() => storageNote(host).isVisible()).toBe(true);
    expect(await storageNote(host).textContent()).toMatch(
      new RegExp(
        `^The browser’s storage for this site is full: your latest changes are not kept here; the version saved today at ${TIME} is\\. Download the script to keep a copy\\. Download$`,
      ),
    );
    expect((await saved(page))!.script).toBe(OWN); // storage still holds the version it said
    const [file] = await Promise.all([page.waitForEvent('download'), storageNote(host).getByRole('button', { name: 'Download' }).click()]);
    expect(file.suggestedFilename()).toBe('slowstart-bare.txt');
    expect(await readFile((await file.path())!, 'utf8')).toBe(OWN_EDITED);

    // Room again: the next save succeeds and the note goes.
    await page.evaluate(() => Object.keys(localStorage).filter((k) => !k.startsWith('slowstart:')).forEach((k) => localStorage.removeItem(k)));
    await setScript(host, `${OWN_EDITED}PICK\n`);
    await expect.poll(() => storageNote(host).isHidden()).toBe(true);
    expect((await saved(page))!.script).toBe(`${OWN_EDITED}PICK\n`);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a 5 MB script is said to be too big to keep, and the saved version it replaced is named', async () => {
    const context = await browser.newContext();
    const { page, host, problems } = await openBare(context);
    await setScript(host, OWN);
    await expect.poll(async () => (await saved(page))?.script).toBe(OWN);
    const big = `POOL a=1 b=2\n${'PICK\n'.repeat(1_000_000)}`; // 5,000,013 characters
    await setScript(host, big);
    await expect.poll(() => storageNote(host).isVisible(), { timeout: 20_000 }).toBe(true);
    expect(await storageNote(host).textContent()).toMatch(
      new RegExp(
        `^This script \\(4\\.8 MB\\) is too big to keep in the browser \\(scripts of up to 2\\.0 MB are kept\\): your latest changes are not kept here; the version saved today at ${TIME} is\\.`,
      ),
    );
    expect((await saved(page))!.script).toBe(OWN);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('share links', () => {
  it('are compressed: a 1.7 MB script makes a short link that opens it exactly in a fresh browser', async () => {
    const script = fleetScript(1_700_000, 20); // a fleet of 20: restarts, weights, picks
    const a = await browser.newContext();
    const { page, host, problems } = await openBare(a);
    await setScript(host, script);
    await host.getByRole('button', { name: 'Share link' }).click();
    await expect.poll(() => host.locator('.sse-link').inputValue()).toMatch(/#ss-bare=~/);
    const link = await host.locator('.sse-link').inputValue();
    const payload = link.split('#ss-bare=')[1];
    expect(unpack(payload)).toBe(script);
    const plain = Math.ceil((Buffer.byteLength(script) * 4) / 3); // the old format's payload
    console.log(`link for a ${script.length}-byte script: ${link.length} characters (uncompressed base64url: ${plain}; ${(plain / payload.length).toFixed(0)}x shorter)`);
    expect(link.length).toBeLessThan(plain / 10);
    expect(page.url()).toBe(link);
    expect(problems).toEqual([]);
    await a.close();

    const b = await browser.newContext();
    const fresh = await openBare(b, link);
    // A big script goes into the editor a piece at a time.
    await expect.poll(() => editorText(fresh.host), { timeout: 30_000 }).toBe(script);
    expect(fresh.problems).toEqual([]);
    await b.close();
  });

  it('too long even compressed: refused, with the reason and the file offered, and the address bar left alone', async () => {
    const context = await browser.newContext();
    const { page, host, problems } = await openBare(context);
    // 3 MB of random comments: DEFLATE cannot make that fit in 2 MiB.
    const random = await page.evaluate(() => {
      const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
      const lines: string[] = [];
      for (let i = 0; i < 50_000; i++) {
        let name = '';
        for (let k = 0; k < 55; k++) name += alphabet[Math.floor(Math.random() * alphabet.length)];
        lines.push(`# ${name}`);
      }
      return `${lines.join('\n')}\n`;
    });
    await setScript(host, random);
    const before = page.url();
    await host.getByRole('button', { name: 'Share link' }).click();
    await expect.poll(() => note(host).textContent(), { timeout: 20_000 }).toMatch(
      /^This script is too big for a link: even compressed, the link would be \d\.\d MB, and browsers open links of up to 2\.0 MB\. Download the script and send the file instead\. Download$/,
    );
    expect(page.url()).toBe(before);
    expect(await host.locator('.sse-link-row').isHidden()).toBe(true);
    const [file] = await Promise.all([page.waitForEvent('download'), note(host).getByRole('button', { name: 'Download' }).click()]);
    expect((await readFile((await file.path())!, 'utf8')).length).toBe(random.length);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('old uncompressed links, padded base64 and the standard alphabet open; an empty or damaged payload is refused', async () => {
    const context = await browser.newContext();
    const script = 'POOL é=1 ü=2\nPICK\nPICK\nWEIGHTS\n';
    const plain = Buffer.from(script).toString('base64url');
    const padded = Buffer.from('POOL p=1\nPICK').toString('base64'); // ends in '='
    expect(padded.endsWith('=')).toBe(true);
    const standard = Buffer.from('POOL s=1\n?>?>\n').toString('base64'); // has '+' or '/'
    expect(/[+/]/.test(standard)).toBe(true);
    // Each link by a fresh load of the page, in one tab.
    const tab = await newTab(context);
    for (const [payload, want] of [
      [plain, script],
      [padded, 'POOL p=1\nPICK'],
      [standard, 'POOL s=1\n?>?>\n'],
      [`~${deflateRawSync(Buffer.from('POOL z=1\n')).toString('base64')}`, 'POOL z=1\n'],
    ]) {
      await loadIn(tab, `${bare}#ss-bare=${payload}`);
      expect(await editorText(tab.host), payload).toBe(want);
      expect(tab.problems).toEqual([]);
    }
    await context.close();
    // In a fresh browser (nothing saved): the element opens its starter, with a note.
    const fresh = await browser.newContext();
    const starter = 'POOL a=5 b=1 c=1\nPICK\nADD d=10 20\nNOW 5\nWEIGHTS\npick\n';
    const cut = `~${deflateRawSync(Buffer.from('POOL cut=1\n'.repeat(50))).toString('base64url').slice(0, 12)}`;
    const again = await newTab(fresh);
    const { host, problems } = again;
    for (const payload of ['', '~', '%%%', 'QQ=x', cut, '~bm90IGRlZmxhdGU']) {
      await loadIn(again, `${bare}#ss-bare=${payload}`);
      expect(await editorText(host), payload).toBe(starter);
      expect(await note(host).textContent(), payload).toBe('The link’s script for this runner is damaged (cut short?), so it was not opened.');
      expect(problems).toEqual([]);
    }
    // A tiny link that would unpack to gigabytes is refused too.
    const bomb = `~${deflateRawSync(Buffer.alloc(80 * 1024 * 1024, 0x41)).toString('base64url')}`;
    await loadIn(again, `${bare}#ss-bare=${bomb}`);
    expect(await editorText(host)).toBe(starter);
    expect(await note(host).textContent()).toBe('The link’s script for this runner unpacks to more than 64.0 MB, so it was not opened.');
    await fresh.close();
  });
});

describe('the height attribute', () => {
  it('is kept between 120 and 4000 px, with a console warning when clamped; CSS lengths are clamped by CSS', async () => {
    const context = await browser.newContext();
    const { page, host } = await openBare(context);
    const warnings: string[] = [];
    page.on('console', (m) => m.type() === 'warning' && warnings.push(m.text()));
    const editorHeight = () => host.locator('.ss-editor').evaluate((e) => e.getBoundingClientRect().height);
    const cases: [string, number, string | null][] = [
      ['999999999', 4000, '<slow-start-runner id="bare">: height="999999999" is above the 4000 px maximum; using 4000 px.'],
      ['0', 120, '<slow-start-runner id="bare">: height="0" is below the 120 px minimum; using 120 px.'],
      ['300', 300, null],
      ['1px', 120, null],
      ['100000rem', 4000, null],
    ];
    for (const [value, px, warning] of cases) {
      warnings.length = 0;
      await host.evaluate((el, v) => el.setAttribute('height', v), value);
      await expect.poll(editorHeight).toBe(px);
      expect(warnings, value).toEqual(warning ? [warning] : []);
    }
    await context.close();
  });
});
