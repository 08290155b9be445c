// Vitest's global set-up (vitest.config.ts): a folder for this run, shared by
// the test files that run at the same time (SLOWSTART_TEST_RUN, inherited by
// every worker), removed at the end. packed.ts packs the package there once.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const own = !process.env.SLOWSTART_TEST_RUN;
  const dir = process.env.SLOWSTART_TEST_RUN ?? mkdtempSync(join(tmpdir(), 'slowstart-run-'));
  process.env.SLOWSTART_TEST_RUN = dir;
  return () => {
    if (own) rmSync(dir, { recursive: true, force: true });
  };
}
