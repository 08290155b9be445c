import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

// Two projects: `unit` runs the typed API and the CLIs in Node; `e2e` drives
// Debian's Chromium through playwright-core against pages we serve ourselves
// (so each test controls its own headers, e.g. a strict CSP).
//
// Both share one pool of workers: most test files spend their time waiting
// (on a browser, on the processes they grade), so one more file than cores
// runs at once (3 on this 2-core machine; SLOWSTART_TEST_WORKERS overrides).
// Left to itself Vitest runs one file at a time here (cores - 1), the unit
// files first and the browser files after.
const workers = Number(process.env.SLOWSTART_TEST_WORKERS) || availableParallelism() + 1;

// The files that take longest start first, so that none is left running
// alone at the end (Vitest orders by the last run's durations, which a
// fresh clone has none of); package.test.ts a little later, once
// consumer-matrix.test.ts has started packing the clone they share
// (packed.ts), so that it does not hold a worker waiting. Durations:
// docs/TESTING.md.
const LONGEST_FIRST = [
  'tests/web/e2e/consumer-matrix.test.ts',
  'tests/web/unit/grade-cli.test.ts',
  'tests/web/unit/cli-parity.test.ts',
  'tests/web/unit/grade-mistakes.test.ts',
  'tests/web/e2e/traffic.test.ts',
  'tests/web/e2e/implement.test.ts',
  'tests/web/unit/package.test.ts',
  'tests/web/e2e/element-saved-work.test.ts',
  'tests/web/unit/leak.test.ts',
  'tests/web/e2e/implement-sandbox.test.ts',
  'tests/web/e2e/page.test.ts',
  'tests/web/e2e/element.test.ts',
  'tests/web/e2e/big-input.test.ts',
];

// `npm run test:quick` (SLOWSTART_QUICK=1, scripts/test-quick.sh) leaves
// these out; `npm test` and CI run them.
const QUICK_LEAVES_OUT = [
  'tests/web/unit/grade-cli.test.ts', // both CLIs grading real programs
  'tests/web/unit/package.test.ts', // packs a clean clone (a cold WebAssembly build)
  'tests/web/unit/package-sizes.test.ts', // measures that packed clone's tarball
  'tests/web/unit/grade-security.test.ts', // hostile programs under another user
  'tests/web/unit/grade-isolation.test.ts', // hostile programs in both CLIs, 50 runs each of a daemon
  'tests/web/unit/huge-line.test.ts', // 1 GB lines through both CLIs
];
const quick = process.env.SLOWSTART_QUICK === '1';

class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.findIndex((name) => f.moduleId.endsWith(name));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    // Stable: the rest keep Vitest's order (last durations, then size).
    return (await super.sort(files)).map((f, i) => ({ f, i })).sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i).map(({ f }) => f);
  }
}

export default defineConfig({
  test: {
    maxWorkers: workers,
    sequence: { sequencer: LongestFirst },
    // A folder for the run, shared by files running at once (support/packed.ts).
    globalSetup: ['tests/web/support/global-setup.ts'],
    projects: [
      {
        test: {
          name: 'unit',
          environment: 'node',
          include: ['tests/web/unit/**/*.test.ts'],
          exclude: [...configDefaults.exclude, ...(quick ? QUICK_LEAVES_OUT : [])],
          testTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['tests/web/e2e/**/*.test.ts'],
          // One Chromium a worker for every browser file it runs, its pages in
          // warm tabs (tests/web/support/browser.ts, warm-tabs.ts): a launch,
          // playwright-core's import and a page's first load in a new renderer
          // process cost about 4 s of CPU a file that a worker's files now share
          // (seven browser files: 241.7 and 253.7 s of CPU against 170.4 and
          // 211.7 s with warm tabs alone; PL-47). The files' own state stays
          // theirs: each file's module is evaluated afresh, the support modules
          // keep only what a run shares anyway (the built site, the pack).
          // SLOWSTART_WARM_TABS=0 gives each file and page its own again.
          isolate: process.env.SLOWSTART_WARM_TABS === '0',
          env: { SLOWSTART_WARM_TABS: process.env.SLOWSTART_WARM_TABS ?? '1' },
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // Browser files share the cores with other files now: a state a test
          // waits for may take more than the default second to arrive. A poll
          // passes as soon as its condition holds, so only a failure waits longer.
          // Every 250 ms rather than Vitest's 50: each try is a round trip through
          // Node, Chromium's browser process and the page's renderer, and the
          // files wait on the cores most of the time (element.test.ts 74.4 and
          // 73.5 s of CPU against 67.4 and 68.6 s; implement.test.ts 71.9 and
          // 66.8 s against 68.8 and 65.2 s; whole-tree CPU, PL-40).
          expect: { poll: { timeout: 10_000, interval: 250 } },
        },
      },
    ],
  },
});
