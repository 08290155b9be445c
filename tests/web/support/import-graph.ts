// The import graph of web/: every module and what it imports, read with
// TypeScript's own parser (so a string that looks like an import is not one,
// and `import type`, `export ... from` and `import()` are told apart).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** The importing module, relative to web/ (e.g. "runner/runner.ts"). */
  from: string;
  /** The imported module, relative to web/ ("shared/dom.ts"); a package keeps its name. */
  to: string;
  /** import('...'): loaded when it runs, not with the importer. */
  dynamic: boolean;
  /** Only types cross (erased from the JavaScript). */
  typeOnly: boolean;
}

/** The folder a module is in: "runner", "shared", ...; "" for a package. */
export function folderOf(module: string): string {
  return module.includes('/') && !module.startsWith('@') && /\.(ts|mts|mjs)$/.test(module) ? module.split('/')[0] : '';
}

/** Every .ts module under `webDir` (the generated web/wasm glue included, as the .mjs its .d.mts describes). */
export function readImportGraph(webDir: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of listTs(webDir)) {
    const from = relative(webDir, file);
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
    const add = (specifier: string, dynamic: boolean, typeOnly: boolean) =>
      edges.push({ from, to: resolveSpecifier(webDir, file, specifier), dynamic, typeOnly });
    const visit = (node: ts.Node): void => {
      if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, false, isTypeOnlyImport(node));
      } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
        add(node.moduleSpecifier.text, false, node.isTypeOnly);
      } else if (
        ts.isCallExpression(node) &&
        node.expression.kind === ts.SyntaxKind.ImportKeyword &&
        node.arguments.length > 0 &&
        ts.isStringLiteralLike(node.arguments[0])
      ) {
        add(node.arguments[0].text, true, false);
      } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
        add(node.argument.literal.text, false, true); // a type written as import('...').Name
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return edges;
}

/**
 * The cycles among modules, each as the list of modules around it (the
 * first repeated at the end), found by depth-first search over `edges`.
 */
export function findCycles(edges: readonly ImportEdge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.from, [...(next.get(e.from) ?? []), e.to]);
  const cycles: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (m: string): void => {
    state.set(m, 'open');
    path.push(m);
    for (const n of next.get(m) ?? []) {
      if (state.get(n) === 'open') cycles.push([...path.slice(path.indexOf(n)), n]);
      else if (!state.has(n)) walk(n);
    }
    path.pop();
    state.set(m, 'done');
  };
  for (const m of [...next.keys()].sort()) if (!state.has(m)) walk(m);
  return cycles;
}

function listTs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const path = join(dir, d.name);
    if (d.isDirectory()) return listTs(path);
    return /\.ts$/.test(d.name) && !/\.d\.ts$/.test(d.name) ? [path] : [];
  });
}

function resolveSpecifier(webDir: string, file: string, specifier: string): string {
  if (!specifier.startsWith('.')) return specifier;
  // Sources import "./x.js" for x.ts (NodeNext); the WASM glue is x.mjs.
  const target = resolve(dirname(file), specifier).replace(/\.js$/, '.ts');
  return relative(webDir, target);
}

// `import type { A }`, or `import { type A, type B }` (every name a type).
function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // import './side-effect.js'
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  return !!bindings && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}
