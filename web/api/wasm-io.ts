/**
 * Moving text in and out of a WASM module at native speed: scripts are
 * written straight into the module's input buffer (TextEncoder.encodeInto or
 * Uint8Array.set), and text comes back as UTF-8 bytes for TextDecoder.
 * Embind's own string conversion loops over every byte in JavaScript.
 */
import { SlowStartError } from './errors.js';
import { isWellFormed, wtf8 } from './wtf8.js';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export interface HasInputBuffer {
  inputBuffer(n: number): Uint8Array;
}

/**
 * Copies `script` into the module's input buffer; returns its length in bytes.
 * Anything but text or bytes is a SlowStartError `WRONG_TYPE` (a number is not a script).
 */
export function writeInput(module: HasInputBuffer, script: string | Uint8Array): number {
  if (typeof script !== 'string' && !(script instanceof Uint8Array)) {
    throw SlowStartError.of('WRONG_TYPE', `script must be a string or a Uint8Array, got ${describe(script)}`);
  }
  // A lone surrogate goes in as bytes the engine rejects (see wtf8.ts), not as U+FFFD.
  if (typeof script === 'string' && !isWellFormed(script)) script = wtf8(script);
  if (typeof script !== 'string') {
    module.inputBuffer(script.length).set(script);
    return script.length;
  }
  // UTF-8 needs at most 3 bytes per UTF-16 unit.
  const view = module.inputBuffer(script.length * 3);
  const { written } = encoder.encodeInto(script, view);
  return written;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (typeof value === 'object') return (value as object).constructor?.name ?? 'object';
  return typeof value;
}

export function decodeText(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
