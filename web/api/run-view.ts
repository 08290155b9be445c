import type { RawRun } from '../wasm/engine.mjs';
import { decodeText } from './wasm-io.js';

/** What a module with runs has: its memory. */
export interface HasMemory {
  HEAPU8: Uint8Array;
}

type Typed = Uint8Array | Uint32Array | Int32Array | Float64Array;
type TypedClass<T extends Typed> = { new (buffer: ArrayBufferLike, offset: number, length: number): T };

/**
 * Copies a run out of a module's memory: the RunView at `address`
 * (cpp/wasm/run_view.hpp) is a row of (address, count) columns, read here in
 * the same order. Each column is copied once, so the module may free the
 * run (and its memory may grow) as soon as this returns.
 */
export function readRun(module: HasMemory, address: number): RawRun {
  const buffer = module.HEAPU8.buffer;
  const words = new Uint32Array(buffer, address, 41);
  let at = 0;
  const word = () => words[at++];
  const column = <T extends Typed>(Type: TypedClass<T>): T => {
    const from = word();
    const count = word();
    return new Type(buffer, from, count).slice() as T;
  };
  const text = () => decodeText(column(Uint8Array));
  const run: RawRun = {
    outputBytes: column(Uint8Array),
    outputLines: column(Uint32Array),
    diagnosticBytes: column(Uint8Array),
    diagnosticLines: column(Uint32Array),
    diagnosticColumns: column(Uint32Array),
    truncated: word() !== 0,
  };
  if (word() === 0) return run;
  const names = text();
  run.timeline = {
    names: names === '' ? [] : names.split('\n'),
    stepLine: column(Uint32Array),
    stepNow: column(Float64Array),
    stepWinner: column(Int32Array),
    stepBlock: column(Uint32Array),
    blockStart: column(Uint32Array),
    cellBackend: column(Uint32Array),
    cellUp: column(Uint8Array),
    cellWeight: column(Float64Array),
    cellScore: column(Float64Array),
    stepScoresEnd: column(Uint32Array),
    scoreCell: column(Uint32Array),
    scoreValue: column(Float64Array),
    scoredSteps: word(),
    truncated: word() !== 0,
  };
  if (word() !== 0) run.timeline.partial = true;
  return run;
}
