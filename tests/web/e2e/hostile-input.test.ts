// Hostile input on the web runner page (the production build, under the
// page's CSP, in Chromium): names that would display as something else than
// they run. Expected texts are worked by hand from the SPEC and the README.
import type { Browser, Page } from 'playwright-core';
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

async function open(): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 }, reducedMotion: 'reduce' });
  const problems = watchProblems(page);
  await page.goto(`${server.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  return { page, problems };
}

describe('bidirectional controls ("Trojan Source") in the web runner', () => {
  it('the editor draws them as <U+XXXX>, and the diagnostic shows their bytes in order', async () => {
    const { page, problems } = await open();
    // Line 2 would display as "POOL admin=1 1=admin.ex"-like text if U+202E acted.
    const script = 'POOL a=1\nPOOL admin=1 \u202exe.nimda=1\nADD \u2066b\u2069=1 0\nWEIGHTS\n';
    await page.evaluate((s) => window.slowstartRunner!.setScript(s), script);
    await expect.poll(() => page.locator('.ss-status').textContent()).toContain('2 rejected lines');
    const status = await page.locator('.ss-status').textContent();
    expect(status).toBe(
      "2 rejected lines · line 2: backend name must not contain bidirectional controls, got '\\xe2\\x80\\xaexe.nimda'",
    );
    // What the learner sees in the editor: the controls as visible marks, in place.
    const lines = await page.locator('.cm-line').evaluateAll((els) => els.map((e) => e.textContent));
    expect(lines.slice(0, 4)).toEqual(['POOL a=1', 'POOL admin=1 <U+202E>xe.nimda=1', 'ADD <U+2066>b<U+2069>=1 0', 'WEIGHTS']);
    const marks = page.locator('.cm-specialChar');
    expect(await marks.count()).toBe(3);
    expect(await marks.first().getAttribute('title')).toBe('Control character right-to-left override');
    // The text itself is untouched (copying or running it gives the real characters).
    expect(await page.evaluate(() => window.slowstartRunner!.script)).toBe(script);
    // The output is the pool that stayed.
    expect(await page.locator('.ss-out-text').first().textContent()).toBe('a=1');

    // The lint panel lists every rejected line's message (then its line), escaped the same way.
    await page.getByRole('button', { name: 'Show problems' }).click();
    const panel = await page.locator('.cm-panel-lint li').allTextContents();
    expect(panel).toEqual([
      "backend name must not contain bidirectional controls, got '\\xe2\\x80\\xaexe.nimda'line 2",
      "backend name must not contain bidirectional controls, got '\\xe2\\x81\\xa6b\\xe2\\x81\\xa9'line 3",
    ]);
    expect(problems).toEqual([]);
    await page.close();
  });
});
