import { defineConfig } from 'vitest/config';

// Two projects: `unit` runs the typed API and the CLIs in Node; `e2e` drives
// Debian's Chromium through playwright-core against pages we serve ourselves
// (so each test controls its own headers, e.g. a strict CSP).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/web/unit/**/*.test.ts'],
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/web/e2e/**/*.test.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // One Chromium at a time on a 2-core machine.
          fileParallelism: false,
        },
      },
    ],
  },
});
