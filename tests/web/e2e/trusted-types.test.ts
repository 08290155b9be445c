// Trusted Types (issue 35): under `require-trusted-types-for 'script'` the
// Worker constructor takes only a TrustedScriptURL, so the implement mode's
// tests (and big scripts' background runs) could not start, though
// docs/SECURITY.md said the page works with Trusted Types. The workers are now
// started through the package's named policy, `slowstart`
// (web/api/trusted-worker.ts). In Chromium, every response sent with the
// policy: the element (built, dist/element) and the runner page (built), the
// tests run and a big script runs in the background, with no violation;
// with a `trusted-types` directive that lists `slowstart`, the same; the
// negative control lists another name: the implement mode says it cannot
// start its worker, and the test sees the violation.
import { rm } from 'node:fs/promises';
import type { Browser, Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../support/browser.js';
import { buildSite, PAGE_CSP } from '../support/site.js';
import { serveStatic } from '../support/static-server.js';
import { checkBuilt, makeSite, openPage, whenReady } from './element-site.js';

let site: string;
let pageSite: string;
let browser: Browser;

beforeAll(async () => {
  checkBuilt();
  site = await makeSite();
  pageSite = await buildSite();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

const ENFORCED = "require-trusted-types-for 'script'";
const ELEMENT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
/** A script over 100,000 characters: it runs in the background worker (BACKGROUND_UNITS). */
const BIG = `POOL a=5 b=1 c=1\n${'PICK\n'.repeat(25_000)}WEIGHTS\n`;

async function visit(root: string, policy: string, path: string) {
  const server = await serveStatic(root, { headers: { 'content-security-policy': policy } });
  const opened = await openPage(browser, `${server.url}${path}`, { height: 1400 });
  return { ...opened, close: async () => (await opened.page.close(), await server.close()) };
}

/** Runs the tests of the implement view in `scope` and waits for them to end; gives the counts line. */
async function runTests(scope: Locator): Promise<string> {
  await scope.locator('.ss-impl-run').click();
  await expect.poll(() => scope.locator('.ss-impl-results').getAttribute('aria-busy'), { timeout: 90_000 }).toBe('false');
  return (await scope.locator('.ss-impl-counts').textContent()) ?? '';
}

/** The template fails some tests and passes none of the pick's: the tests ran (in the worker). */
const RAN = /^\d+ of \d+ tests pass, \d+ fail\.$|ran out of time/;

describe('Trusted Types enforced', () => {
  it.each([
    [`${ELEMENT_CSP}; ${ENFORCED}`],
    [`${ELEMENT_CSP}; ${ENFORCED}; trusted-types slowstart`],
  ])('the element: %s: the implement mode runs its tests, a big script runs in the background, no violation', async (policy) => {
    const { page, problems, violations, close } = await visit(site, policy, '/course/implement.html');
    try {
      const host = page.locator('#impl');
      await whenReady(host);
      await host.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
      expect(await runTests(host)).toMatch(RAN);
      // The author's test ran too: it has a state of its own.
      expect(await host.locator('.ss-impl-test').last().getAttribute('data-state')).toMatch(/^(pass|fail)$/);
      // The runner's background worker, through the same policy.
      await host.evaluate((el, s) => ((el as HTMLElement & { script: string }).script = s), BIG);
      const outputMeta = host.locator('.ss-panel:has(.ss-output) .ss-panel-meta');
      await expect.poll(() => outputMeta.textContent(), { timeout: 60_000 }).toMatch(/^25,?001 lines/);
      expect(await host.locator('.ss-status').textContent()).not.toContain('running on the page instead');
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it("the runner page's implement tab under its own policy and Trusted Types: the tests run, no violation", async () => {
    const { page, problems, violations, close } = await visit(pageSite, `${PAGE_CSP}; ${ENFORCED}; trusted-types slowstart`, '/#implement');
    try {
      const view = page.locator('#implement');
      await view.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
      expect(await runTests(view)).toMatch(RAN);
      expect(await violations()).toEqual([]);
      expect(problems).toEqual([]);
    } finally {
      await close();
    }
  });

  it('negative control: a trusted-types directive without slowstart: the mode says it cannot start its worker, and the test sees the violation', async () => {
    const { page, violations, close } = await visit(site, `${ELEMENT_CSP}; ${ENFORCED}; trusted-types other`, '/course/implement.html');
    try {
      const host = page.locator('#impl');
      await whenReady(host);
      await host.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
      await runTests(host);
      expect(await host.locator('.ss-impl-results').textContent()).toContain(
        "The page does not allow the tests' worker: TypeError: Failed to construct 'Worker': This document requires 'TrustedScriptURL' assignment. " +
          "(the page enforces Trusted Types: its Content-Security-Policy's trusted-types directive must allow the policy 'slowstart')",
      );
      expect((await violations()).map((v) => v.directive)).toContain('trusted-types');
    } finally {
      await close();
    }
  });
});
