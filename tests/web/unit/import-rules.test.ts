// The dependency rule of web/ (docs/ARCHITECTURE.md), checked on the real
// import graph: the runner composes views, views do not import each other,
// web/shared/ and the npm package's web/api/ import no view, the lazily
// loaded views are not pulled in statically, and no module imports itself
// around a cycle (type-only imports included).
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findCycles, folderOf, readImportGraph, type ImportEdge } from '../support/import-graph.js';

const WEB = fileURLToPath(new URL('../../../web/', import.meta.url));
const edges = readImportGraph(WEB);
const local = edges.filter((e) => folderOf(e.to) !== '');
const show = (e: ImportEdge) => `${e.from} -> ${e.to}${e.dynamic ? ' (dynamic)' : e.typeOnly ? ' (type)' : ''}`;

/** Which folders each folder may import (its own always). Hosts compose; views and helpers do not. */
const MAY_IMPORT: Record<string, readonly string[]> = {
  // The npm package: the engine's glue and nothing of the pages.
  api: ['wasm'],
  // Helpers every view may use: they know no view and no engine.
  shared: [],
  // Views: each renders one thing from the engine's results, with the shared helpers.
  runner: ['api', 'shared', 'wasm'],
  traffic: ['api', 'shared'],
  implement: ['api', 'shared', 'wasm'],
  // What both hosts offer around the runner: saved work, links, the compare box, verdicts.
  host: ['api', 'shared', 'runner'],
  // Hosts: the element and the page put the views together; neither imports the other.
  element: ['api', 'shared', 'runner', 'traffic', 'implement', 'host'],
  page: ['api', 'shared', 'runner', 'traffic', 'implement', 'host'],
};

describe('the import rule of web/', () => {
  it('reads the graph it checks', () => {
    // The graph is the real one: a known import of each kind is in it.
    expect(edges).toContainEqual({ from: 'runner/runner.ts', to: 'shared/dom.ts', dynamic: false, typeOnly: false });
    expect(edges).toContainEqual({ from: 'traffic/chart-tab.ts', to: 'traffic/open-view.ts', dynamic: true, typeOnly: false });
    expect(edges).toContainEqual({ from: 'traffic/chart-tab.ts', to: 'api/index.ts', dynamic: false, typeOnly: true });
    expect(new Set(local.map((e) => folderOf(e.from)))).toEqual(new Set(Object.keys(MAY_IMPORT)));
  });

  it('lets each folder import only the folders its role allows', () => {
    expect(ruleBreaks(local)).toEqual([]);
  });

  it('loads the Traffic view and the implement view only when they are opened', () => {
    // Outside its folder, only the Traffic tab's small entry (chart-tab.ts,
    // which imports the rest with import()) and types may be imported.
    const eager = local.filter(
      (e) =>
        !e.dynamic &&
        !e.typeOnly &&
        ((folderOf(e.to) === 'traffic' && folderOf(e.from) !== 'traffic' && e.to !== 'traffic/chart-tab.ts') ||
          (e.to === 'implement/view.ts' && folderOf(e.from) !== 'implement')),
    );
    expect(eager.map(show)).toEqual([]);
  });

  it('keeps the editor text helpers in shared/: hosts do not reach into the runner for them', () => {
    // Text helpers (slices of a CodeMirror document, the big-text guard) are
    // shared; a host imports the runner for the runner itself.
    const RUNNER_FOR_HOSTS = new Set(['runner/runner.ts', 'runner/styles.ts', 'runner/examples.ts', 'runner/run-words.ts']);
    const reaching = local.filter(
      (e) => ['element', 'page', 'host'].includes(folderOf(e.from)) && folderOf(e.to) === 'runner' && !RUNNER_FOR_HOSTS.has(e.to),
    );
    expect(reaching.map(show)).toEqual([]);
  });

  it('has no import cycle', () => {
    expect(findCycles(local).map((c) => c.join(' -> '))).toEqual([]);
  });

  it('finds a cycle and a view importing a view when there is one', () => {
    // The checks themselves, on a made-up graph.
    const made = (from: string, to: string): ImportEdge => ({ from, to, dynamic: false, typeOnly: true });
    expect(findCycles([made('api/a.ts', 'api/b.ts'), made('api/b.ts', 'api/c.ts'), made('api/c.ts', 'api/a.ts')])).toEqual([
      ['api/a.ts', 'api/b.ts', 'api/c.ts', 'api/a.ts'],
    ]);
    expect(findCycles([made('api/a.ts', 'api/b.ts'), made('api/a.ts', 'api/c.ts'), made('api/b.ts', 'api/c.ts')])).toEqual([]);
    // Views import no view (not even a type), helpers and the API no view; hosts may.
    const views = [
      made('traffic/bucket-chart.ts', 'runner/chart-model.ts'),
      made('runner/runner.ts', 'traffic/traffic-view.ts'),
      made('implement/view.ts', 'runner/runner.ts'),
      made('shared/panel.ts', 'runner/styles.ts'),
      made('api/timeline.ts', 'runner/chart-model.ts'),
      made('element/mount.ts', 'runner/runner.ts'),
      made('page/main.ts', 'host/saved-work.ts'),
      made('page/main.ts', 'element/mount.ts'),
      made('element/mount.ts', 'page/main.ts'),
      made('host/saved-work.ts', 'element/mount.ts'),
    ];
    expect(ruleBreaks(views)).toEqual([
      'traffic/bucket-chart.ts -> runner/chart-model.ts (type)',
      'runner/runner.ts -> traffic/traffic-view.ts (type)',
      'implement/view.ts -> runner/runner.ts (type)',
      'shared/panel.ts -> runner/styles.ts (type)',
      'api/timeline.ts -> runner/chart-model.ts (type)',
      'page/main.ts -> element/mount.ts (type)',
      'element/mount.ts -> page/main.ts (type)',
      'host/saved-work.ts -> element/mount.ts (type)',
    ]);
  });
});

function ruleBreaks(graph: readonly ImportEdge[]): string[] {
  return graph
    .filter((e) => {
      const [from, to] = [folderOf(e.from), folderOf(e.to)];
      return from !== to && !(MAY_IMPORT[from] ?? []).includes(to);
    })
    .map(show);
}
