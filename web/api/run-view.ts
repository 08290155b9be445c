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
 *
 * `deriveScores` (a run under the SPEC's rules, the engine module's): the
 * score changes are not copied (the engine module no longer records them:
 * their columns are empty, PL-29); the timeline works them out from its
 * winners when asked (timeline.ts). They are most of a run's bytes (a PICK
 * changes every participant's score: 175,359 changes, 2.1 MB, for the
 * 10,000-line benchmark script), and in Chromium writing megabytes into
 * freshly allocated memory costs tens of milliseconds: two thirds of the
 * page's CPU time per edit of that script went on this copy.
 */
export function readRun(module: HasMemory, address: number, deriveScores = false): RawRun {
  const buffer = module.HEAPU8.buffer;
  const words = new Uint32Array(buffer, address, 41);
  let at = 0;
  const word = () => words[at++];
  const column = <T extends Typed>(Type: TypedClass<T>): T => {
    const from = word();
    const count = word();
    return new Type(buffer, from, count).slice() as T;
  };
  const skip = <T extends Typed>(Type: TypedClass<T>): T => {
    at += 2;
    return new Type(new ArrayBuffer(0), 0, 0);
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
    stepScoresEnd: deriveScores ? skip(Uint32Array) : column(Uint32Array),
    scoreCell: deriveScores ? skip(Uint32Array) : column(Uint32Array),
    scoreValue: deriveScores ? skip(Float64Array) : column(Float64Array),
    scoredSteps: word(),
    truncated: word() !== 0,
  };
  if (word() !== 0) run.timeline.partial = true;
  if (deriveScores) run.timeline.scoresDerived = true;
  return run;
}
