// The browser tests' `browser.newPage()` hands out warm tabs
// (support/warm-tabs.ts): a tab a kept page opened, in a renderer process that
// has loaded the site before. This holds it to what a page of its own gave a
// test: nothing one test left behind reaches the next, two pages open at once
// never share storage, and the viewport and media asked for are the page's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../support/browser.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

const PAGE = '<!doctype html><title>t</title><p>t</p>';
let browser: Browser;
let server: StaticServer;
let other: StaticServer;

beforeAll(async () => {
  server = await serveStatic('/nonexistent', { pages: { '/': PAGE } });
  other = await serveStatic('/nonexistent', { pages: { '/': PAGE } });
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await other?.close();
});

/** What a page keeps between loads, as the page sees it. */
const kept = async () => ({
  local: localStorage.length,
  session: sessionStorage.length,
  cookie: document.cookie,
  idb: (await indexedDB.databases()).length,
});

async function leaveEverything(url: string) {
  const page = await browser.newPage();
  await page.goto(url);
  await page.evaluate(async () => {
    localStorage.setItem('left', 'behind');
    sessionStorage.setItem('left', 'behind');
    document.cookie = 'left=behind; max-age=3600';
    await new Promise((ok) => (indexedDB.open('left').onsuccess = ok));
  });
  await page.context().grantPermissions(['clipboard-read']);
  await page.context().route('**/blocked', (r) => r.abort());
  return page;
}

describe('warm tabs (support/warm-tabs.ts)', () => {
  it('give the next page nothing the last one left: storage of every origin, cookies, permissions, routes', async () => {
    const first = await leaveEverything(`${server.url}/`);
    await first.goto(`${other.url}/`); // a second origin, the same site
    await first.evaluate(() => localStorage.setItem('other', 'origin'));
    await first.close();
    expect(first.isClosed()).toBe(true);

    const next = await browser.newPage();
    for (const url of [server.url, other.url]) {
      await next.goto(`${url}/`);
      expect(await next.evaluate(kept)).toEqual({ local: 0, session: 0, cookie: '', idb: 0 });
    }
    expect(await next.evaluate(() => navigator.permissions.query({ name: 'clipboard-read' as PermissionName }).then((p) => p.state))).not.toBe('granted');
    const blocked = await next.goto(`${server.url}/blocked`);
    expect(blocked?.status()).toBe(404); // reached the server: the route is gone
    expect(await next.evaluate(() => window.opener)).toBeNull();
    await next.close();
  });

  it('never let two pages open at once share storage', async () => {
    const a = await leaveEverything(`${server.url}/`);
    const b = await browser.newPage();
    await b.goto(`${server.url}/`);
    expect(await b.evaluate(kept)).toEqual({ local: 0, session: 0, cookie: '', idb: 0 });
    expect(a.context()).not.toBe(b.context());
    await a.close();
    await b.close();
  });

  it('give each page the viewport, colour scheme and motion asked for, and Playwright’s defaults otherwise', async () => {
    const asked = await browser.newPage({ viewport: { width: 360, height: 700 }, colorScheme: 'dark', reducedMotion: 'reduce' });
    await asked.goto(`${server.url}/`);
    const media = () => ({
      width: innerWidth,
      height: innerHeight,
      dark: matchMedia('(prefers-color-scheme: dark)').matches,
      reduce: matchMedia('(prefers-reduced-motion: reduce)').matches,
    });
    expect(await asked.evaluate(media)).toEqual({ width: 360, height: 700, dark: true, reduce: true });
    await asked.close();
    const plain = await browser.newPage();
    await plain.goto(`${server.url}/`);
    expect(await plain.evaluate(media)).toEqual({ width: 1280, height: 720, dark: false, reduce: false });
    await plain.close();
  });

  it('leave options a tab cannot take to a page of its own', async () => {
    const touch = await browser.newPage({ hasTouch: true, viewport: { width: 400, height: 600 } });
    await touch.goto(`${server.url}/`);
    expect(await touch.evaluate(() => matchMedia('(pointer: coarse)').matches || 'ontouchstart' in window)).toBe(true);
    await touch.close();
  });
});
