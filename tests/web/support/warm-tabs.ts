// browser.newPage() for less CPU: a test's new page opened as a tab of a
// renderer process that has already loaded pages of the test's site.
//
// In Chromium a page in a new tab costs about 1.5 s more CPU than the same
// load in a process already warm (measured with the runner page on this 2-core
// VM: 2.2 s a load in a new tab of its own context, 0.7 s in a tab opened by
// window.open from a page of the same site; PL-47 in docs/performance-log.md).
// The cost is the new context in the browser process and the new renderer
// process: its start and its compiles, which V8 keeps per process (scripts,
// WebAssembly modules) and repeats in every new one.
//
// So `browser.newPage(options)` hands out a tab that a "home" page of a context
// kept for the purpose opened with window.open: the same browsing instance, so
// the same renderer process for the same site (127.0.0.1 at any port is one
// site). What a test sees is what a new page gave it before:
// - A new Page object: closing it closes the tab; nothing outlives it.
// - One tab a home at a time: two pages open at once never share storage
//   (a second home, in a context of its own, serves the second).
// - Storage empty again: before a home opens its next tab, the cookies,
//   permissions, routes and offline state of its context are reset and every
//   origin its tabs reached has its storage cleared (local storage, IndexedDB,
//   caches, service workers). Session storage is the tab's own.
// - The viewport, colour scheme and motion asked for (or Playwright's
//   defaults), set before the tab loads anything.
// Options a tab cannot take after it exists (touch, a mobile viewport, a
// stored state, ...) get a page of their own as before, and so does every
// page of a context a test makes itself (browser.newContext()).
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';

/** The options a tab opened by window.open can still be given. */
const TAB_OPTIONS = new Set(['viewport', 'colorScheme', 'reducedMotion']);

/** A page the home's route answers: on the tests' site, served by nobody. */
const HOME_URL = 'http://127.0.0.1:9/__slowstart_home__';

interface Home {
  context: BrowserContext;
  page: Page;
  cdp: CDPSession;
  /** The tab it lent, until that tab closes. */
  lent: Page | null;
  /** Origins its tabs reached since its storage was last cleared. */
  origins: Set<string>;
  dead: boolean;
}

type NewPageOptions = Parameters<Browser['newPage']>[0];

export interface WarmTabs {
  /** Closes every context and tab the tests opened, keeping the homes (and their warm processes). */
  closeAllButHomes(): Promise<void>;
}

export function warmTabs(browser: Browser): WarmTabs {
  const realNewPage = browser.newPage.bind(browser);
  const realNewContext = browser.newContext.bind(browser);
  const homes: Home[] = [];

  async function openHome(): Promise<Home> {
    const context = await realNewContext();
    const page = await context.newPage();
    await page.route(HOME_URL, (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>home</title>' }));
    await page.goto(HOME_URL);
    // Taken from the start: the caller lends from it next, and no other caller may meanwhile.
    const home: Home = { context, page, cdp: await context.newCDPSession(page), lent: page, origins: new Set(), dead: false };
    context.on('close', () => (home.dead = true));
    page.on('close', () => (home.dead = true));
    context.on('request', (request) => {
      const origin = new URL(request.url()).origin;
      if (origin.startsWith('http')) home.origins.add(origin);
    });
    homes.push(home);
    return home;
  }

  async function reset(home: Home): Promise<void> {
    const { context } = home;
    await context.clearCookies();
    await context.clearPermissions();
    await context.unrouteAll({ behavior: 'ignoreErrors' });
    await context.setOffline(false);
    await context.setExtraHTTPHeaders({});
    for (const origin of home.origins) {
      await home.cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'all' });
    }
    home.origins.clear();
  }

  async function lend(home: Home, options: NewPageOptions): Promise<Page> {
    await reset(home);
    const [tab] = await Promise.all([
      home.context.waitForEvent('page'),
      home.page.evaluate(() => {
        const tab = window.open('about:blank');
        if (tab) tab.opener = null;
      }),
    ]);
    home.lent = tab;
    tab.once('close', () => {
      if (home.lent === tab) home.lent = null;
    });
    await tab.setViewportSize(options?.viewport ?? { width: 1280, height: 720 });
    await tab.emulateMedia({
      colorScheme: options?.colorScheme ?? 'light',
      reducedMotion: options?.reducedMotion ?? 'no-preference',
    });
    return tab;
  }

  browser.newPage = async (options?: NewPageOptions) => {
    const fits = Object.keys(options ?? {}).every((k) => TAB_OPTIONS.has(k)) && options?.viewport !== null;
    if (!fits) return realNewPage(options);
    for (let i = homes.length - 1; i >= 0; i--) if (homes[i].dead) homes.splice(i, 1);
    const home = homes.find((h) => !h.lent) ?? (await openHome());
    home.lent = home.page; // taken while it resets
    try {
      return await lend(home, options);
    } catch (e) {
      home.dead = true;
      await home.context.close().catch(() => {});
      throw e;
    }
  };

  return {
    async closeAllButHomes() {
      const kept = new Set(homes.filter((h) => !h.dead).map((h) => h.context));
      for (const context of browser.contexts()) {
        if (!kept.has(context)) await context.close().catch(() => {});
      }
      for (const home of homes) {
        for (const page of home.context.pages()) if (page !== home.page) await page.close().catch(() => {});
      }
    },
  };
}
