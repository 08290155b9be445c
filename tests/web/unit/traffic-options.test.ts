// The Traffic lab's options are one table (cpp/traffic/option_table.*): the
// CLI's parser and help, --summary json, the API's reader and its defaults
// are made from it at run time. The TypeScript types are written by hand, so
// this test reads them with TypeScript's own checker and fails when one
// drifts from the table: a key the table lacks, a key the types lack, a type
// that is not the option's (a choice's names, a level's numbers), or a
// default in a doc comment that is not the table's.
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import type { TrafficOptionInfo } from '../../../dist/api/node.js';
import { lab } from '../support/lab.js';
import { rejection } from '../support/rejection.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const table = lab.trafficOptionTable();

/** A leaf of a TypeScript type: what values it takes, and its doc comment. */
interface Leaf {
  type: string;
  doc: string;
}

const leavesRead = new Map<string, Map<string, Leaf>>();

/** The leaves of an exported type, by key path ("service.baseMs"), read with TypeScript's checker. */
function leavesOf(file: string, typeName: string): Map<string, Leaf> {
  const known = leavesRead.get(`${file} ${typeName}`);
  if (known) return known;
  // ES5's library only (Partial, Required): the options are numbers,
  // booleans, literals and plain objects; the DOM's would take 10 times longer.
  const program = ts.createProgram([`${ROOT}${file}`], {
    strict: true,
    lib: ['lib.es5.d.ts'],
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const source = program.getSourceFile(`${ROOT}${file}`)!;
  const symbol = checker.getExportsOfModule(checker.getSymbolAtLocation(source)!).find((s) => s.name === typeName)!;
  expect(symbol, `${file} exports ${typeName}`).toBeDefined();
  const out = new Map<string, Leaf>();
  const walk = (type: ts.Type, prefix: string): void => {
    for (const property of checker.getPropertiesOfType(type)) {
      const path = prefix + property.name;
      const declared = checker.getTypeOfSymbol(property);
      const parts = (declared.isUnion() ? declared.types : [declared]).filter(
        (t) => !(t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)),
      );
      const doc = ts.displayPartsToString(property.getDocumentationComment(checker));
      const objects = parts.filter((t) => t.flags & ts.TypeFlags.Object);
      const values = parts.filter((t) => !(t.flags & ts.TypeFlags.Object));
      // An object part (curve: {...}, service: {...}) has leaves of its own;
      // service is also a boolean: both are recorded.
      for (const o of objects) walk(o, `${path}.`);
      let names = values.map((t) => checker.typeToString(t));
      if (names.includes('true') && names.includes('false')) names = [...names.filter((n) => n !== 'true' && n !== 'false'), 'boolean'];
      if (values.length) out.set(path, { type: names.sort().join(' | '), doc });
    }
  };
  walk(checker.getDeclaredTypeOfSymbol(symbol), '');
  leavesRead.set(`${file} ${typeName}`, out);
  return out;
}

/** What TypeScript type an option of the table must have. */
function expectedType(option: TrafficOptionInfo, literals: boolean): string {
  switch (option.kind) {
    case 'number':
    case 'whole':
    case 'seed':
      return 'number';
    case 'level':
      return literals ? option.choices.map(String).sort().join(' | ') : 'number';
    case 'choice':
      return option.choices.map((c) => `"${c}"`).sort().join(' | ');
    case 'switch':
      return 'boolean';
    case 'fixed':
      return 'none';
  }
}

const apiOptions = table.filter((o) => o.key !== null);

describe('the option table', () => {
  it('holds every option once, each with its flag, key, JSON key, help and group', () => {
    expect(apiOptions.length).toBeGreaterThanOrEqual(30);
    const flags = table.map((o) => o.flag).filter((f) => f !== null);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(apiOptions.map((o) => o.key)).size).toBe(apiOptions.length);
    for (const o of table) {
      expect(o.help.length, o.label).toBeGreaterThan(10);
      expect(['load', 'policy', 'service model', 'retries', 'health check', 'output']).toContain(o.group);
    }
    // A few rows worked by hand from the CLI's help and --summary json.
    expect(table.find((o) => o.flag === '--rps')).toMatchObject({ key: 'rps', json: 'rps', kind: 'number', min: 0, aboveMin: true, default: 1000, group: 'load' });
    expect(table.find((o) => o.flag === '--service-ms')).toMatchObject({ key: 'service.baseMs', json: 'service.service_ms', default: 200, when: { key: 'service', value: 'true' } });
    expect(table.find((o) => o.flag === '--max-fails')).toMatchObject({ key: 'health.maxFails', kind: 'whole', min: 0, max: 1_000_000, default: 1, when: { key: 'health.kind', value: 'nginx' } });
    expect(table.find((o) => o.flag === '--policy')!.choices).toEqual([
      'wrr',
      'least-request',
      'random',
      'p2c',
      'least-conn',
      'round-robin',
      'caddy-least-conn',
      'nginx-least-conn',
      'haproxy-leastconn',
      'static-rr',
    ]);
    expect(table.find((o) => o.flag === '--resolution')!.choices).toEqual([0, 1, 16, 100, 1000]);
    expect(table.find((o) => o.flag === '--no-slow-start')).toMatchObject({ key: 'slowStart', kind: 'switch', default: true });
  });

  for (const [file, name, literals] of [
    ['web/api/lab.ts', 'TrafficOptions', true],
    ['web/wasm/lab.d.mts', 'RawTrafficOptions', false],
  ] as const) {
    it(`is what ${file}'s ${name} says, key for key and type for type`, () => {
      const leaves = leavesOf(file, name);
      const problems: string[] = [];
      for (const option of apiOptions) {
        const leaf = leaves.get(option.key!);
        if (!leaf) problems.push(`${option.key}: in the table, not in ${name}`);
        else if (leaf.type !== expectedType(option, literals)) problems.push(`${option.key}: ${leaf.type}, the table says ${expectedType(option, literals)}`);
      }
      for (const key of leaves.keys()) if (!apiOptions.some((o) => o.key === key)) problems.push(`${key}: in ${name}, not in the table`);
      expect(problems).toEqual([]);
    });
  }

  it("is the defaults web/api/lab.ts's doc comments state", () => {
    const problems: string[] = [];
    let checked = 0;
    for (const [key, leaf] of leavesOf('web/api/lab.ts', 'TrafficOptions')) {
      let said = /\bDefault:? `?(-?[\d.]+|true|false|[a-z-]+)`?[.,]/.exec(leaf.doc)?.[1];
      if (said === undefined || said === 'until') continue;
      if (said === 'off') said = 'false';
      const option = apiOptions.find((o) => o.key === key)!;
      const value = String(option.default);
      checked++;
      if (said !== value) problems.push(`${key}: the doc says ${said}, the table ${value}`);
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  it('fails the check when a type drifts (the check itself)', () => {
    // The same comparison on a made-up table row that the types do not have.
    const leaves = leavesOf('web/api/lab.ts', 'TrafficOptions');
    expect(leaves.get('rps')).toMatchObject({ type: 'number' });
    expect(leaves.has('service.baseMs') && leaves.has('service')).toBe(true);
    expect(leaves.get('policy')!.type).toBe(expectedType(table.find((o) => o.key === 'policy')!, true));
    expect(expectedType({ ...table.find((o) => o.key === 'policy')!, choices: ['wrr'] }, true)).not.toBe(leaves.get('policy')!.type);
    expect(leaves.has('noSuchOption')).toBe(false);
  });
});

describe('the API reads options through the table', () => {
  it('rejects a key the table does not know, and a value of the wrong type', () => {
    expect(() => lab.simulate('POOL a=1', { rsp: 10 } as object)).toThrow(/unknown traffic option 'rsp'/);
    expect(() => lab.simulate('POOL a=1', { service: { baseMS: 10 } } as object)).toThrow(/unknown traffic option 'service.baseMS'/);
    expect(() => lab.simulate('POOL a=1', { rps: '10' } as unknown as object)).toThrow(rejection('WRONG_TYPE', 'rps must be a number, got string'));
    expect(() => lab.simulate('POOL a=1', { health: { maxFails: 2 } } as object)).toThrow(
      rejection('WRONG_TYPE', 'health.kind must be a string, got undefined'),
    );
  });

  it('states every default once (trafficDefaults is the table)', () => {
    const d = lab.trafficDefaults();
    for (const option of apiOptions) {
      if (option.key === 'health.kind' || option.key === 'service') continue;
      const value = option.key!.split('.').reduce<unknown>((at, k) => (at as Record<string, unknown>)[k], d);
      expect(value, option.key!).toEqual(option.default);
    }
  });
});

describe('simulateArguments(): options back to a command line', () => {
  it('writes only what differs from the defaults, in the table order, as the CLI reads it', () => {
    expect(lab.simulateArguments({})).toEqual([]);
    expect(
      lab.simulateArguments({
        rps: 1536,
        duration: 300,
        curve: { resolution: 100 },
        service: true,
        timeoutMs: 1000,
        retries: 1,
        health: { kind: 'envoy', maxEjectionTime: 30 },
        slowStart: false,
      }),
    ).toEqual(['--rps', '1536', '--duration', '300', '--resolution', '100', '--no-slow-start', '--timeout-ms', '1000', '--retries', '1', '--health', 'envoy', '--max-ejection-time', '30']);
    // Only what takes effect: Envoy's curve options under the linear curve are not written.
    expect(lab.simulateArguments({ curve: { aggression: 2 }, rps: 0.1 })).toEqual(['--rps', '0.1']);
    expect(lab.simulateArguments({ service: { coldFactor: 2.5 } })).toEqual(['--cold-factor', '2.5']);
    expect(() => lab.simulateArguments({ rps: 0 })).toThrow('rps must be a number above 0');
  });
});
