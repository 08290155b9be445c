// Server-side rendering: a framework imports 'slowstart/element' in Node,
// where there is no DOM. The import must do nothing harmful: no exception,
// no globals added, nothing defined; the class is there for types and checks.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

it("import('slowstart/element') in Node (no DOM) succeeds and changes no global", () => {
  // A fresh Node process (vitest's own globals are not a plain server's), resolving the package by name.
  const script = `
    const before = new Set(Object.getOwnPropertyNames(globalThis));
    const element = await import('slowstart/element');
    const api = await import('slowstart');
    const added = Object.getOwnPropertyNames(globalThis).filter((k) => !before.has(k));
    console.log(JSON.stringify({ exports: Object.keys(element), type: typeof element.SlowStartRunnerElement, added,
      customElements: typeof customElements, HTMLElement: typeof HTMLElement, api: typeof api.loadSlowStart }));`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8' });
  expect(r.stderr).toBe('');
  expect(r.status).toBe(0);
  expect(JSON.parse(r.stdout)).toEqual({
    exports: ['SlowStartRunnerElement'],
    type: 'function',
    added: [],
    customElements: 'undefined',
    HTMLElement: 'undefined',
    api: 'function',
  });
});
