// Debian's Chromium, driven by playwright-core (no browser download).
import { chromium, type Browser, type Page } from 'playwright-core';
import { warmTabs } from './warm-tabs.js';

/**
 * The features Playwright itself turns off (playwright-core 1.65's
 * `chromiumSwitches`). Chromium reads only the last `--disable-features` it is
 * given (base::CommandLine keeps one value a switch), so ours repeats them;
 * `chromium-flags.test.ts` fails when Playwright's list has one this lacks.
 */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/**
 * Chromium 156 preloads its omnibox's two popups, WebUI pages
 * (chrome://omnibox-popup.top-chrome/) in a renderer process of their own, for
 * every window it opens, and a test's page is a window (a context's first
 * page, or a warm tab opened by `window.open`). Nobody types in a headless
 * browser's omnibox: without the preloads, seven loads of the runner page took
 * 0.56 of the whole tree's CPU in new pages and 0.90 in warm tabs (three
 * pairs; docs/performance-log.md, PL-50).
 */
export const OUR_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup'];

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, ...OUR_DISABLED_FEATURES].join(',')}`,
];

function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
}

/**
 * Debian's Chromium. Under the browser tests (vitest.config.ts's e2e project
 * sets SLOWSTART_WARM_TABS=1) one Chromium serves every file a worker runs:
 * `close()` closes what the file opened and keeps the browser, and
 * `newPage()` hands out warm tabs (warm-tabs.ts). A launch and its close cost
 * about 1.6 s of CPU, and a file's first page in a new renderer process 1.5 s
 * more than in a warm one (PL-47). Benchmarks, which measure cold loads, and
 * SLOWSTART_WARM_TABS=0 get a Chromium of their own with plain pages.
 */
export async function launchChromium(): Promise<Browser> {
  if (process.env.SLOWSTART_WARM_TABS !== '1') return launch();
  // On globalThis: the worker's, whatever Vitest re-evaluates between files.
  const g = globalThis as { slowstartChromium?: Browser };
  if (!g.slowstartChromium?.isConnected()) {
    const browser = await launch();
    const tabs = warmTabs(browser);
    browser.close = () => tabs.closeAllButHomes();
    g.slowstartChromium = browser;
  }
  return g.slowstartChromium;
}

/** Collects everything on a page that a user would call broken. */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`);
  });
  return problems;
}

/** A Content-Security-Policy violation the page reported. */
export interface Violation {
  directive: string;
  blocked: string;
}

/**
 * Records every `securitypolicyviolation` from before the page's first
 * script runs (init scripts are not subject to the page's CSP, and run in
 * every frame). Call before `goto`; the returned function reads them all.
 */
export async function recordViolations(page: Page): Promise<() => Promise<Violation[]>> {
  await page.addInitScript(() => {
    const w = window as unknown as { __violations: Array<{ directive: string; blocked: string }> };
    w.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.__violations.push({ directive: e.effectiveDirective, blocked: e.blockedURI }),
    );
  });
  return async () => {
    const all: Violation[] = [];
    for (const frame of page.frames()) {
      all.push(...(await frame.evaluate(() => (window as unknown as { __violations?: Violation[] }).__violations ?? [])));
    }
    return all;
  };
}

/**
 * Resolves once the page has run every task it had queued (a zero-delay
 * timer queued now runs after them) and drawn two frames since (layout and
 * CodeMirror's measuring happen in animation frames). A state to wait for,
 * where a test would otherwise sleep.
 */
export function settle(page: Page): Promise<void> {
  return page.evaluate(
    () =>
      new Promise<void>((resolve) =>
        setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(() => resolve())), 0),
      ),
  );
}
