// Debian's Chromium, driven by playwright-core (no browser download).
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
