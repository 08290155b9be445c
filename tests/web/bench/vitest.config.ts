import { defineConfig } from 'vitest/config';

// The web page benchmark (not a test: it asserts nothing about speed).
// Run: npx vitest run --config tests/web/bench/vitest.config.ts
export default defineConfig({
  test: {
    name: 'web-bench',
    environment: 'node',
    include: ['tests/web/bench/*-bench.ts'],
    testTimeout: 1_200_000,
    hookTimeout: 1_200_000,
  },
});
