// A folder served on 127.0.0.1 (see static-server.ts) and a Chromium, for one
// browser test file: what its beforeAll opens and its afterAll closes.
import type { Browser } from 'playwright-core';
import { launchChromium } from './browser.js';
import { serveStatic } from './static-server.js';

export interface ServedSite {
  url: string;
  browser: Browser;
  close(): Promise<void>;
}

export async function serveWithBrowser(
  dir: string,
  options: Parameters<typeof serveStatic>[1] = {},
  cleanup: () => Promise<void> = async () => {},
): Promise<ServedSite> {
  const server = await serveStatic(dir, options);
  const browser = await launchChromium();
  return {
    url: server.url,
    browser,
    close: async () => {
      await browser.close();
      await server.close();
      await cleanup();
    },
  };
}
