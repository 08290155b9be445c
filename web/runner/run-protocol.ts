// Messages between the runner and its background run worker (run-worker.ts).
// The script goes in as slices (a few milliseconds each to post), the result
// comes back as transferred buffers: the engine's output and diagnostics as
// UTF-8 with each line's start, and the timeline's columns, so the page
// builds nothing per line.
import type { RawTimeline } from '../wasm/engine.mjs';
import type { WirePickFacts } from './pool-facts.js';

export type RunRequest =
  /** A new run of a script of `units` UTF-16 code units (any earlier run is dropped). */
  | { type: 'begin'; run: number; units: number }
  /** The next slice of the script (never ending inside a surrogate pair). */
  | { type: 'slice'; run: number; text: string }
  /** All slices sent: run it. */
  | { type: 'end'; run: number };

export type RunReply =
  | { type: 'progress'; run: number; phase: 'reading' | 'running'; share: number }
  /** `memoryBytes`: the worker's engine memory after the run (it only grows). */
  | { type: 'done'; run: number; result: WireRun; memoryBytes: number }
  | { type: 'failed'; run: number; message: string };

/** Lines of text: line i is bytes [starts[i], starts[i + 1] − 1) (the last byte is its '\n'). */
export interface WireLines {
  bytes: Uint8Array;
  /** One more than the number of lines. */
  starts: Uint32Array;
  /** Each line's 1-based script line. */
  lines: Uint32Array;
  /** The longest line's bytes (so the page knows when no line can wrap without looking at each). */
  longest: number;
}

export interface WireRun {
  output: WireLines;
  diagnostics: WireLines;
  /** Each diagnostic's columns, from and to (UTF-16 units of its line), two per diagnostic. */
  diagnosticColumns: Uint32Array;
  timeline: RawTimeline;
  /** When the timeline was narrowed to the backends people read: each PICK's counts over its whole pool. */
  picks: WirePickFacts | null;
  /** Output and diagnostics passed the engine's 64 MiB cap. */
  truncated: boolean;
}
