// One export list behind both npm entries (web/api/exports.ts): the browser
// entry and the Node entry export the same names, values and types alike.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import * as nodeEntry from '../../../dist/api/node.js';

const DIST = resolve(import.meta.dirname, '../../../dist/api');

it('index.js and node.js export the same values; both declare the same types', async () => {
  // The browser entry's module graph loads in Node too (nothing runs until loadSlowStart is called).
  const browserEntry = await import('../../../dist/api/index.js');
  expect(Object.keys(browserEntry).sort()).toEqual(Object.keys(nodeEntry).sort());
  // Types: both .d.ts files are exports.ts plus their two loaders.
  for (const entry of ['index.d.ts', 'node.d.ts']) {
    const dts = readFileSync(resolve(DIST, entry), 'utf8');
    expect(dts, entry).toContain("export * from './exports.js';");
    expect(dts.match(/^export /gm), entry).toHaveLength(3);
  }
  expect(readFileSync(resolve(DIST, 'exports.d.ts'), 'utf8')).toContain('WeightProblem');
});
