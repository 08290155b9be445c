// <slow-start-runner> under Content-Security-Policies, in Chromium: the BUILT
// element on the fixture pages, every response sent with the policy. Each
// run opens what needs the most (the engine, a rejected line's underline,
// gutter dot and hover message, the Examples menu, the Traffic tab's lazy
// chunk and .wasm, an exercise's verdict, a compressed share link, the
// script, output and chart downloads) and fails on any violation or console
// problem; the chart's PNG, which needs img-src data:, is saved where the
// policy allows it and otherwise says "Blocked: img-src", and which directive to add, with that one
// img-src violation.
//
// What it establishes (docs/EMBEDDING.md): the element needs only
// `script-src 'self' 'wasm-unsafe-eval'`, plus `connect-src 'self'` when a
// default-src forbids fetching the .wasm. It needs no style-src (its CSS is
// constructable stylesheets in its shadow root, CodeMirror's too) and no
// img-src (the lint marks are drawn with CSS, not data: images).
// The negative controls show the test sees a violation when there is one.
import { rm } from 'node:fs/promises';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { serveStatic } from '../support/static-server.js';
import { checkBuilt, makeSite, openPage, outputRows, SHOTS, whenReady } from './element-site.js';

let site: string;
let browser: Browser;

beforeAll(async () => {
  checkBuilt();
  site = await makeSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

/** Serves the site with `policy` and opens a fixture page. */
async function visit(policy: string, file: string) {
  const server = await serveStatic(site, { headers: { 'content-security-policy': policy } });
  const opened = await openPage(browser, `${server.url}/course/${file}`);
  return { ...opened, close: async () => (await opened.page.close(), await server.close()) };
}

/** Everything on bare.html that could need a CSP exception, exercised. */
async function exerciseBarePage(page: import('playwright-core').Page): Promise<void> {
  const host = page.locator('#bare');
  // Styled, though no style-src may allow it: constructable stylesheets (the Run button's accent, the editor's monospace).
  await whenReady(host);
  expect(await host.locator('.ss-btn.ss-primary').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(31, 86, 199)');
  expect(await host.locator('.cm-scroller').evaluate((e) => getComputedStyle(e).fontFamily)).toContain('monospace');
  // POOL a=5 b=1 c=1, PICK -> a; d joins with a 20 s ramp; at 5 s it has 10*5/20 = 2.
  await expect.poll(() => outputRows(host)).toEqual(['2: a', '5: a=5 b=1 c=1 d=2']);
  // The output matches, but line 6 (pick) is rejected: underline, gutter dot, hover message.
  await expect.poll(() => host.locator('.sse-exercise').getAttribute('data-verdict')).toBe('fail');
  expect(await host.locator('.cm-lintRange-error').count()).toBe(1);
  expect(await host.locator('.cm-lint-marker-error').count()).toBe(1);
  await host.locator('.cm-lintRange-error').hover();
  await expect.poll(() => host.locator('.cm-tooltip-lint').textContent()).toContain("unknown command 'pick' (use PICK)");
  // The Examples menu, and the Traffic tab (a lazily loaded chunk and its .wasm).
  await host.getByText('Examples').click();
  expect(await host.locator('.ss-menu-item').count()).toBeGreaterThan(3);
  await host.getByText('Examples').click();
  await host.getByRole('tab', { name: 'Traffic' }).click();
  await expect.poll(() => host.locator('.ss-traffic-box .ss-band').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  // Share link compresses the script (CompressionStream), Download saves it through a blob: URL.
  await host.getByRole('button', { name: 'Share link' }).click();
  await expect.poll(() => host.locator('.sse-link').inputValue()).toContain('#ss-bare=~');
  // (exact: the output's and the chart's export buttons are named "Download the output", "Download the chart as …")
  const saved = (name: string) => Promise.all([page.waitForEvent('download'), host.getByRole('button', { name, exact: true }).click()]);
  expect((await saved('Download'))[0].suggestedFilename()).toBe('slowstart-bare.txt');
  // The output and the chart as files: blob: downloads, which no CSP directive restricts. The chart's
  // buttons belong to the Ramp tab (they are hidden while Traffic is shown).
  expect((await saved('Download the output'))[0].suggestedFilename()).toBe('slowstart-output.txt');
  expect(await host.getByRole('button', { name: 'Download the chart as SVG' }).isVisible()).toBe(false);
  await host.getByRole('tab', { name: 'Ramp' }).click();
  expect((await saved('Download the chart as SVG'))[0].suggestedFilename()).toBe('slowstart-chart.svg');
}

/** The chart's PNG is drawn from a data: image: saved where img-src allows data:, else the button says so (and the browser reports the violation). */
async function exportPng(page: import('playwright-core').Page, allowed: boolean): Promise<void> {
  const button = page.locator('#bare').getByRole('button', { name: 'Download the chart as PNG' });
  if (allowed) {
    const [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
    expect(file.suggestedFilename()).toBe('slowstart-chart.png');
  } else {
    await button.click();
    await expect.poll(() => button.textContent()).toBe('Blocked: img-src');
    // And why, where it stays: the directive to add, and what works instead.
    expect(await page.locator('#bare .ss-export-note').textContent()).toBe(
      'No PNG: this page’s Content-Security-Policy blocks data: images, which the PNG is drawn from. ' +
        "Its author can add data: to img-src (img-src 'self' data:). SVG works here.",
    );
  }
}

describe('<slow-start-runner> under CSP', () => {
  const policies = [
    // The minimum: the element file, its chunk and WebAssembly.
    "script-src 'self' 'wasm-unsafe-eval'",
    // A careful course site: default-src 'self' (so connect-src, img-src, style-src 'self'), no 'unsafe-inline' anywhere.
    "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; base-uri 'none'; object-src 'none'",
    // Nothing by default: the element needs only script-src and connect-src (img-src is the page's favicon).
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self'",
    // ... and works where Trusted Types are enforced (it never assigns HTML).
    "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'self'; img-src 'self'; require-trusted-types-for 'script'",
  ];

  it.each(policies)('%s: the element alone, everything opened, no violations', async (policy) => {
    const { page, problems, violations, close } = await visit(policy, 'bare.html');
    try {
      await exerciseBarePage(page);
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
      // Last, as it is the one control that needs more than script-src (and connect-src): img-src data:.
      const pngAllowed = !policy.includes('default-src');
      await exportPng(page, pngAllowed);
      expect(await violations()).toEqual(pngAllowed ? [] : [{ directive: 'img-src', blocked: 'data' }]);
      if (policy.includes("default-src 'none'") && !policy.includes('trusted')) {
        await page.locator('#bare').screenshot({ path: `${SHOTS}/element-csp-bare.png` });
      }
    } finally {
      await close();
    }
  });

  it("the course page (two exercises) under default-src 'self'; style-src 'self': verdicts, no violations", async () => {
    const policy = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'";
    const { page, problems, violations, close } = await visit(policy, 'index.html');
    try {
      await expect.poll(() => page.locator('#spec-example .sse-exercise').getAttribute('data-verdict')).toBe('pass');
      await expect.poll(() => page.locator('#half-way .sse-exercise').getAttribute('data-verdict')).toBe('fail');
      expect(await page.locator('#half-way .sse-diff-lines dd').allTextContents()).toEqual(['a=4 b=3', 'a=4 b=2']);
      // Share link writes the address bar and the clipboard; neither is a CSP matter, but check.
      await page.locator('#half-way').getByRole('button', { name: 'Share link' }).click();
      await expect.poll(() => page.locator('#half-way .sse-link').inputValue()).toContain('#ss-half-way=~');
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("negative control: without 'wasm-unsafe-eval' the engine cannot start, the element says so, and the test sees the violation", async () => {
    const { page, problems, violations, close } = await visit("default-src 'self'; script-src 'self'", 'bare.html');
    try {
      const host = page.locator('#bare');
      await whenReady(host);
      await expect.poll(() => host.locator('.ss-status').textContent()).toContain('The engine failed to load');
      expect(await violations()).toContainEqual({ directive: 'script-src', blocked: 'wasm-eval' });
      expect(problems.length).toBeGreaterThan(0);
    } finally {
      await close();
    }
  });

  it("negative control: with connect-src 'none' the .wasm cannot be fetched, and the test sees it", async () => {
    const { page, violations, close } = await visit("default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; connect-src 'none'", 'bare.html');
    try {
      const host = page.locator('#bare');
      await whenReady(host);
      await expect.poll(() => host.locator('.ss-status').textContent()).toContain('The engine failed to load');
      expect((await violations()).map((v) => v.directive)).toContain('connect-src');
    } finally {
      await close();
    }
  });
});
