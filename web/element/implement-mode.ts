// mode="implement": the implement-it-yourself view (web/implement/view.ts)
// above the element's runner. The learner writes the rules in JavaScript
// and runs the tests (the built-in ones, then the author's); a test opens
// in the runner below, with the learner's weights drawn over the engine's.
// The view, its JavaScript editor and its worker are loaded only in this
// mode (a separate chunk), so plain runners stay as small as they were.
import { loadLab } from '../api/index.js';
import type { Runner } from '../runner/runner.js';
import type { ImplementTest } from '../implement/suite.js';
import { dedentScript } from '../host/text.js';
import { slotChildren, slotElement } from './sources.js';
import { toldInConsole } from './told-in-console.js';

/**
 * The author's tests: each element inside `<template slot="tests">` (or any
 * element with `slot="tests"`; a `<pre>` is the natural choice for each
 * test) is one test script, its `title` attribute the test's name.
 */
export function readAuthorTests(host: HTMLElement): ImplementTest[] {
  const slot = slotElement(host, 'tests');
  if (!slot) return [];
  return slotChildren(slot).map((child, i) => ({
    id: child.getAttribute('data-id') ?? `author-${i + 1}`,
    title: child.getAttribute('title') ?? `Test ${i + 1}`,
    script: dedentScript(child.textContent ?? ''),
  }));
}

export interface ImplementMount {
  destroy(): void;
}

export async function mountImplement(options: {
  root: HTMLElement;
  shadowRoot: ShadowRoot;
  runner: Runner;
  tests: ImplementTest[];
  includeBuiltIn: boolean;
  storageKey: string;
  legacyStorageKey: string | null;
  headingLevel: 2 | 3 | 4 | 5 | 6;
}): Promise<ImplementMount> {
  // The lab module brings the built-in tests and the mistake catalogue.
  const [{ ImplementView, OPEN_IN_RUNNER_EVENT }, { adoptImplementStyles }, lab] = await Promise.all([
    import('../implement/view.js'),
    import('../implement/styles.js'),
    toldInConsole(loadLab()),
  ]);
  adoptImplementStyles(options.shadowRoot);
  const view = new ImplementView({
    root: options.root,
    documentRoot: options.shadowRoot,
    runner: options.runner,
    lab,
    tests: options.tests,
    includeBuiltIn: options.includeBuiltIn,
    storageKey: options.storageKey,
    legacyStorageKey: options.legacyStorageKey,
    headingLevel: options.headingLevel,
  });
  // "Open in the runner": the test's script is in the runner below; bring it into view.
  const open = () => options.runner.root.scrollIntoView({ block: 'start', behavior: 'smooth' });
  options.root.addEventListener(OPEN_IN_RUNNER_EVENT, open);
  return {
    destroy() {
      options.root.removeEventListener(OPEN_IN_RUNNER_EVENT, open);
      view.destroy();
    },
  };
}
