// Opening the built runner page in Chromium, shared by the page's browser
// tests: a fresh page per test with the viewport, theme and motion asked
// for, everything a user would call broken recorded, and the first run
// waited for.
import { mkdir } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { watchProblems } from './browser.js';
import { serveWithBrowser, type ServedSite } from './served-site.js';
import { buildSite, PAGE_CSP, SHOTS } from './site.js';

/** The page (built once per run: buildSite), served under the page's CSP, and a browser. */
export type BuiltSite = ServedSite;

/** The implement mode's worker alone may evaluate the learner's code (docs/IMPLEMENT.md). */
export const WORKER_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'";
export const isWorker = (path: string) => /\/assets\/worker-[^/]+\.js$/.test(path);

export async function serveBuiltSite(): Promise<BuiltSite> {
  const dir = await buildSite();
  await mkdir(SHOTS, { recursive: true });
  return serveWithBrowser(dir, {
    headers: { 'content-security-policy': PAGE_CSP },
    headersFor: (path) => (isWorker(path) ? { 'content-security-policy': WORKER_CSP } : undefined),
  });
}

export interface OpenOptions {
  width?: number;
  height?: number;
  dark?: boolean;
  reducedMotion?: boolean;
  /** Appended to the site's URL, e.g. "#implement". */
  path?: string;
}

export interface Opened {
  page: Page;
  problems: string[];
  dialogs: string[];
}

export async function openRunnerPage(browser: Browser, url: string, options: OpenOptions = {}): Promise<Opened> {
  const page = await browser.newPage({
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
  });
  const problems = watchProblems(page);
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  await page.goto(`${url}/${options.path ?? ''}`);
  // A row exists once the first run is shown (attached: the runner may be in a hidden tab).
  await page.locator('.ss-out-row').first().waitFor({ state: 'attached' });
  return { page, problems, dialogs };
}

/** Sets the script through the page's runner (as the Examples menu does). */
export async function setScript(page: Page, script: string): Promise<void> {
  await page.evaluate((s) => window.slowstartRunner!.setScript(s), script);
}

/** The output list as `line: text`, in order (all rows are rendered for short outputs). */
export function outputRows(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('.ss-out-row:not([hidden])')]
      .sort((a, b) => Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')))
      .map((r) => `${r.querySelector('.ss-out-line')!.textContent}: ${r.querySelector('.ss-out-text')!.textContent}`),
  );
}
