// Every e2e test waits for states, not times (issue 26 item 6): no
// Playwright waitForTimeout, no promise that a timer resolves after a delay,
// in the browser tests and their helpers. A fixed sleep is too short on a
// loaded machine and too long on an idle one; a state (a poll for what the
// page shows, settle() in support/browser.ts) is neither.
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DIRS = ['tests/web/e2e', 'tests/web/support'];

// Where a file may wait for a time, and why (none is an e2e test's wait).
const ALLOWED: Record<string, string> = {
  // The bench's memory sampler: how often it samples, not a wait for a state.
  'tests/web/support/process-memory.ts': 'sampling interval',
  // A server starting: how often it is asked, between tries of a state (it answers).
  'tests/web/support/consumer-apps.ts': 'polling interval',
  // A busy machine made on purpose: the renderers stopped for a time, then run for a time (the load is the test's subject, not a wait).
  'tests/web/support/starved-renderers.ts': 'stopped and running stretches',
};

/** The fixed-time waits in `text`, one line each (a zero delay, "after the tasks queued now", is a state). */
function fixedWaits(text: string): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, i) => {
    const code = line.replace(/\/\/.*$/, '');
    const sleep =
      /\bwaitForTimeout\s*\(/.test(code) ||
      /\bsetTimeout\s*\(\s*\w+\s*,\s*(?!0\s*\))[^)]/.test(code) || // setTimeout(resolve, 500): a promise a timer resolves
      /\bsetTimeout\s*\([^,]*=>\s*\w+\(\)\s*,\s*(?!0\s*\))[^)]/.test(code) || // setTimeout(() => resolve(), 500)
      /\b(sleep|delay)\s*\(\s*\d/.test(code);
    if (sleep) found.push(`${i + 1}: ${line.trim()}`);
  });
  return found;
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(path)));
    else if (/\.(ts|mjs|js)$/.test(entry.name)) out.push(path);
  }
  return out;
}

describe('e2e tests wait for states, not times', () => {
  it('the check finds the sleeps it is for, and lets a zero delay and a timer a test holds pass', () => {
    expect(fixedWaits("await page.waitForTimeout(1500);\nawait new Promise((r) => setTimeout(r, 200));\nsetTimeout(() => resolve(), 50);\nawait sleep(10);")).toEqual([
      '1: await page.waitForTimeout(1500);',
      '2: await new Promise((r) => setTimeout(r, 200));',
      '3: setTimeout(() => resolve(), 50);',
      '4: await sleep(10);',
    ]);
    expect(fixedWaits('setTimeout(() => requestAnimationFrame(() => resolve()), 0),\n// a comment: page.waitForTimeout(5)\nconst real = window.setTimeout.bind(window);')).toEqual([]);
  });

  it('no e2e test or helper sleeps', async () => {
    const offenders: string[] = [];
    for (const dir of DIRS) {
      for (const file of await filesUnder(resolve(ROOT, dir))) {
        const name = relative(ROOT, file);
        if (name === 'tests/web/unit/e2e-waits.test.ts' || ALLOWED[name]) continue;
        for (const hit of fixedWaits(await readFile(file, 'utf8'))) offenders.push(`${name}:${hit}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
