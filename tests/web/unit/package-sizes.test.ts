// The sizes docs/PACKAGE.md and docs/EMBEDDING.md state are this run's
// tarball's (scripts/measure-sizes.mjs measures it): a change that makes a
// part bigger or smaller fails here until `node scripts/measure-sizes.mjs
// --write` (on a built tree) puts the new figures in both documents.
import { expect, it } from 'vitest';
import { documentedTable, sizesTable } from '../../../scripts/measure-sizes.mjs';
import { packed } from '../support/packed.js';

it('states the tarball’s own sizes, part by part', async () => {
  const { tarball } = await packed();
  const measured = sizesTable(tarball);
  // The table has every part, each with a size (a hand-checked floor: the engine's .wasm alone is over 30 KB gzipped).
  expect(measured.split('\n').filter((l) => /^\| the /.test(l))).toHaveLength(7);
  expect(Number(/API in a page[^|]*\| \d+ \| [\d.]+ KB \(([\d.]+) KB\)/.exec(measured)?.[1])).toBeGreaterThan(30);
  for (const doc of ['docs/PACKAGE.md', 'docs/EMBEDDING.md']) expect(documentedTable(doc), `${doc}: run node scripts/measure-sizes.mjs --write`).toBe(measured);
}, 600_000);
