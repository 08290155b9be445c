// Shared by the <slow-start-runner> browser tests (element.test.ts and
// element-csp.test.ts): a site of the BUILT element (dist/element, from
// scripts/build-package.sh) next to the fixture course pages
// (tests/web/fixtures/course), and helpers that read the element's parts
// through its open shadow root (Playwright's CSS selectors pierce it).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdir, mkdtemp, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { rm } from 'node:fs/promises';
import { recordViolations, settle, watchProblems, type Violation } from '../support/browser.js';
import { launchChromium } from '../support/browser.js';
import { serveWithBrowser, type ServedSite } from '../support/served-site.js';
import { buildSite, PAGE_CSP } from '../support/site.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';

export const ROOT = resolve(import.meta.dirname, '../../..');
export const ELEMENT_DIST = join(ROOT, 'dist/element');
export const FIXTURES = join(ROOT, 'tests/web/fixtures/course');
export const SHOTS = join(ROOT, 'test-results/screenshots');

/** Fails early, and clearly, when dist/element is missing or older than its sources. */
export function checkBuilt(): void {
  const entry = join(ELEMENT_DIST, 'slow-start-runner.js');
  if (!existsSync(entry)) throw new Error('dist/element is missing: run `npm run build:element` (or scripts/build-package.sh)');
  const built = statSync(entry).mtimeMs;
  const newer: string[] = [];
  for (const dir of ['web/element', 'web/host', 'web/shared', 'web/runner', 'web/api', 'web/traffic', 'web/implement', 'web/wasm']) {
    for (const f of readdirSync(join(ROOT, dir))) {
      if (statSync(join(ROOT, dir, f)).mtimeMs > built) newer.push(`${dir}/${f}`);
    }
  }
  if (newer.length) throw new Error(`dist/element is older than ${newer.join(', ')}: run \`npm run build:element\``);
}

/**
 * Puts the built package's dist/element, dist/api and dist/wasm in `site`
 * as element/, api/ and wasm/: the element imports ../api and ../wasm, so a
 * host copies all three (docs/EMBEDDING.md).
 */
export async function linkElement(site: string): Promise<void> {
  for (const part of ['element', 'api', 'wasm']) await symlink(join(ROOT, 'dist', part), join(site, part));
}

/** A temporary site: /element/ is dist/element (with /api/ and /wasm/), /course/ the fixture pages. */
export async function makeSite(): Promise<string> {
  const site = await mkdtemp(join(tmpdir(), 'slowstart-element-'));
  await linkElement(site);
  await symlink(FIXTURES, join(site, 'course'));
  await mkdir(SHOTS, { recursive: true });
  return site;
}

export type { Violation };

/** The site served (no CSP: the element's own tests add theirs) and a browser, for one test file. */
export async function serveElementSite(): Promise<ServedSite> {
  checkBuilt();
  const dir = await makeSite();
  return serveWithBrowser(dir, {}, () => rm(dir, { recursive: true, force: true }));
}

/** The built runner page (under its CSP) and the element's site, side by side, and one browser. */
export interface PageAndElement {
  /** The runner page's origin. */
  page: string;
  /** The element site's origin: /element/, /course/, and the inline `pages`. */
  element: string;
  /** The element site's folder (files written there are served). */
  elementDir: string;
  browser: Browser;
  close(): Promise<void>;
}

/** Serves the page (built once per run: buildSite) and the element site (with inline `pages`, see serveStatic). */
export async function servePageAndElement(pages: Record<string, string> = {}): Promise<PageAndElement> {
  checkBuilt();
  const elementDir = await makeSite();
  const servers: StaticServer[] = [];
  const browser = await launchChromium();
  servers.push(await serveStatic(await buildSite(), { headers: { 'content-security-policy': PAGE_CSP } }));
  servers.push(await serveStatic(elementDir, { pages }));
  return {
    page: servers[0].url,
    element: servers[1].url,
    elementDir,
    browser,
    close: async () => {
      await browser.close();
      for (const server of servers) await server.close();
      await rm(elementDir, { recursive: true, force: true });
    },
  };
}

export interface Opened {
  page: Page;
  /** Console errors and warnings, page errors, failed requests. */
  problems: string[];
  /** CSP violations reported so far, in every frame. */
  violations(): Promise<Violation[]>;
}

/** Opens `url` in a new page of `target`, recording problems and CSP violations from the first script on. */
export async function openPage(
  target: Browser | BrowserContext,
  url: string,
  options: { width?: number; height?: number; dark?: boolean } = {},
): Promise<Opened> {
  const page = await target.newPage({
    viewport: { width: options.width ?? 1100, height: options.height ?? 900 },
    colorScheme: options.dark ? 'dark' : 'light',
    reducedMotion: 'reduce',
  });
  const problems = watchProblems(page);
  const violations = await recordViolations(page);
  await page.goto(url);
  return { page, problems, violations };
}

/** The output list of the element matched by `host`, as `line: text` rows in order. */
export function outputRows(host: Locator): Promise<string[]> {
  return host.evaluate((el) =>
    [...el.shadowRoot!.querySelectorAll<HTMLElement>('.ss-out-row:not([hidden])')]
      .sort((a, b) => Number(a.getAttribute('aria-posinset')) - Number(b.getAttribute('aria-posinset')))
      .map((r) => `${r.querySelector('.ss-out-line')!.textContent}: ${r.querySelector('.ss-out-text')!.textContent}`),
  );
}

/** The script in the element's editor. */
export function editorText(host: Locator): Promise<string> {
  return host.evaluate((el) => (el as HTMLElement & { script: string }).script);
}

/** Replaces line `line` (1-based) of the element's script by typing, as a learner would. */
export async function retypeLine(host: Locator, line: number, text: string): Promise<void> {
  await host.locator('.cm-line').nth(line - 1).click();
  const page = host.page();
  await page.keyboard.press('End');
  await page.keyboard.press('Shift+Home');
  await page.keyboard.type(text);
}

/** Waits until the element has built its runner (its `ready` promise). */
export async function whenReady(host: Locator): Promise<void> {
  await host.evaluate(async (el) => {
    await customElements.whenDefined(el.localName);
    await (el as HTMLElement & { ready: Promise<void> }).ready;
  });
}

/**
 * A whole-page screenshot. Playwright's fullPage grows the viewport just for
 * the capture, and CodeMirror, which renders the lines in view, has not
 * measured the newly visible ones yet: their gutter numbers come out
 * squeezed. So the viewport is grown first, and the page left to draw and
 * measure (CodeMirror measures in an animation frame) before the capture.
 */
export async function shootWholePage(page: Page, path: string): Promise<void> {
  const viewport = page.viewportSize()!;
  const height = await page.evaluate(() => document.scrollingElement!.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.max(viewport.height, height) });
  await settle(page);
  await page.screenshot({ path });
  await page.setViewportSize(viewport);
}
