// The browser tests' Chromium (support/browser.ts) turns off the omnibox
// popup's preload, a WebUI renderer process for every window, with a
// `--disable-features` of its own. Chromium keeps only the last
// `--disable-features` it is given, so this holds ours to Playwright's: every
// feature Playwright turns off stays off, and the preload is gone.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, OUR_DISABLED_FEATURES } from '../support/browser.js';

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

it("keeps Playwright's disabled features and leaves out the omnibox popup's renderer", async () => {
  // A context of its own: chrome:// pages cannot be opened from a warm tab's web page.
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('chrome://version');
  const commandLine = (await page.locator('#command_line').textContent()) ?? '';
  const lists = commandLine
    .split(/\s+/)
    .filter((arg) => arg.startsWith('--disable-features='))
    .map((arg) => arg.slice('--disable-features='.length).split(','));
  // Playwright's own first, ours last (the one Chromium reads).
  expect(lists.length).toBeGreaterThanOrEqual(2);
  const playwrights = lists[0];
  const effective = lists.at(-1)!;
  expect(playwrights.length).toBeGreaterThan(5);
  expect(playwrights.filter((feature) => !effective.includes(feature))).toEqual([]);
  expect(effective).toEqual(expect.arrayContaining(OUR_DISABLED_FEATURES));

  // No window of this browser has the popup preloaded.
  const cdp = await browser.newBrowserCDPSession();
  const { targetInfos } = await cdp.send('Target.getTargets', { filter: [{}] });
  await cdp.detach();
  expect(targetInfos.map((t) => t.url).filter((url) => url.includes('omnibox-popup'))).toEqual([]);
  expect(targetInfos.some((t) => t.url === 'chrome://version/')).toBe(true);
  await context.close();
});
