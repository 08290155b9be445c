// Every exported type and member of the npm package has a doc comment, read
// from the shipped declarations (dist/api/index.d.ts and what it re-exports,
// and the element's dist/element/slow-start-runner.d.ts), as an editor shows them.
import { resolve } from 'node:path';
import ts from 'typescript';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');

function undocumented(entry: string): string[] {
  const program = ts.createProgram([entry], { lib: ['lib.es2022.d.ts', 'lib.dom.d.ts'], types: [], strict: true, noEmit: true });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(entry)!;
  const missing: string[] = [];
  const documented = (symbol: ts.Symbol) => ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim() !== '';
  const members = (owner: string, symbols: readonly ts.Symbol[]) => {
    for (const m of symbols) {
      if (m.name === 'prototype' || m.name.startsWith('__@') || m.name.startsWith('#')) continue;
      const decl = m.declarations?.[0];
      if (!decl || !decl.getSourceFile().fileName.startsWith(resolve(ROOT, 'dist'))) continue; // inherited from the lib
      const flags = ts.getCombinedModifierFlags(decl as ts.Declaration);
      if (flags & ts.ModifierFlags.Private) continue;
      if (!documented(m)) missing.push(`${owner}.${m.name}`);
    }
  };
  for (const exported of checker.getExportsOfModule(checker.getSymbolAtLocation(source)!)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!documented(symbol)) missing.push(exported.name);
    if (symbol.flags & (ts.SymbolFlags.Class | ts.SymbolFlags.Interface)) {
      members(exported.name, checker.getPropertiesOfType(checker.getDeclaredTypeOfSymbol(symbol)));
    }
    if (symbol.flags & ts.SymbolFlags.Class) members(exported.name, checker.getPropertiesOfType(checker.getTypeOfSymbol(symbol)));
  }
  return missing;
}

it('every export of slowstart and its members has a doc comment', () => {
  expect(undocumented(resolve(ROOT, 'dist/api/index.d.ts'))).toEqual([]);
});

it('every export of slowstart/element and its members has a doc comment', () => {
  expect(undocumented(resolve(ROOT, 'dist/element/slow-start-runner.d.ts'))).toEqual([]);
});
