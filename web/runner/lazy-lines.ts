// A run's output lines and diagnostics as arrays that build their entries
// when read. A big script prints millions of lines; making an object and a
// string for each one takes the page seconds, while the views only ever
// show the few dozen in view. The array answers `length`, indexing,
// iteration and every array method (through the same reads), so code that
// takes an OutputLine[] works unchanged; entries are built once each.
import type { Diagnostic, OutputLine } from '../api/index.js';
import type { WireLines } from './run-protocol.js';

const decoder = new TextDecoder();
// The buffers behind each lazily built array, for longLines().
const wires = new WeakMap<object, WireLines>();

function lazyArray<T>(wire: WireLines, make: (line: number, text: string, i: number) => T): T[] {
  const n = wire.lines.length;
  const built = new Map<number, T>();
  const at = (i: number): T => {
    let entry = built.get(i);
    if (entry === undefined) {
      const text = decoder.decode(wire.bytes.subarray(wire.starts[i], wire.starts[i + 1] - 1));
      built.set(i, (entry = make(wire.lines[i], text, i)));
    }
    return entry;
  };
  // An empty target: giving it the length (millions) would cost tens of milliseconds; `length` is answered below.
  const target: T[] = [];
  const proxy = new Proxy(target, {
    get(t, key, receiver) {
      if (typeof key === 'string') {
        const i = index(key);
        if (i >= 0) return i < n ? at(i) : undefined;
        if (key === 'length') return n;
      }
      return Reflect.get(t, key, receiver);
    },
    has(t, key) {
      if (typeof key === 'string') {
        const i = index(key);
        if (i >= 0) return i < n;
      }
      return Reflect.has(t, key);
    },
    // For Object.keys, deep equality and the like (these list every entry: rare on big runs).
    ownKeys: (t) => [...Array.from({ length: n }, (_, i) => String(i)), ...Reflect.ownKeys(t)],
    getOwnPropertyDescriptor(t, key) {
      const i = typeof key === 'string' ? index(key) : -1;
      if (i >= 0 && i < n) return { value: at(i), writable: false, enumerable: true, configurable: true };
      return Reflect.getOwnPropertyDescriptor(t, key);
    },
    set: () => false, // read-only, as a run's result is
  });
  wires.set(proxy, wire);
  return proxy;
}

/**
 * For lines built by this module: the indices of the lines that may be
 * longer than `units` UTF-16 units (their UTF-8 is longer), and those lines'
 * bytes in all, found from the buffers without building a line. Null for any
 * other array (then every line must be looked at).
 */
export function longLines(lines: readonly unknown[], units: number): { indices: Uint32Array; bytes: number } | null {
  const wire = wires.get(lines);
  if (!wire) return null;
  const { starts } = wire;
  const found: number[] = [];
  let bytes = 0;
  for (let i = 0; i + 1 < starts.length; i++) {
    const length = starts[i + 1] - starts[i] - 1; // UTF-8 bytes: at least the UTF-16 units
    if (length > units) {
      found.push(i);
      bytes += length;
    }
  }
  return { indices: Uint32Array.from(found), bytes };
}

/** The array index a property key names, or -1. */
function index(key: string): number {
  const c = key.charCodeAt(0);
  if (c < 48 || c > 57) return -1;
  const i = Number(key);
  return Number.isInteger(i) && String(i) === key ? i : -1;
}

export function lazyOutput(wire: WireLines): OutputLine[] {
  return lazyArray(wire, (line, text) => ({ line, text }));
}

export function lazyDiagnostics(wire: WireLines, columns: Uint32Array): Diagnostic[] {
  return lazyArray(wire, (line, message, i) => ({ line, message, from: columns[2 * i], to: columns[2 * i + 1] }));
}
