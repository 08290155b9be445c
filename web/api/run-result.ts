import type { RawRun } from '../wasm/engine.mjs';
import { Timeline } from './timeline.js';
import { decodeText } from './wasm-io.js';
import type { Diagnostic, OutputLine, RunResult } from './types.js';

/** Pairs '\n'-joined text with its line numbers (the engine's bulk format). */
export function numberedLines<T>(text: string, numbers: Uint32Array, make: (line: number, text: string) => T): T[] {
  if (numbers.length === 0) return [];
  // The engine joins with '\n', which no output line or message contains.
  const parts = text.split('\n');
  const out = new Array<T>(numbers.length);
  for (let i = 0; i < numbers.length; i++) out[i] = make(numbers[i], parts[i]);
  return out;
}

/** Diagnostics from the engine's bulk format: messages, line numbers and columns (from, to: two per diagnostic). */
export function toDiagnostics(text: string, numbers: Uint32Array, columns: Uint32Array): Diagnostic[] {
  return numberedLines(text, numbers, (line, message) => ({ line, message, from: 0, to: 0 })).map((d, i) => {
    d.from = columns[2 * i];
    d.to = columns[2 * i + 1];
    return d;
  });
}

/** The typed result of a raw run. */
export function toRunResult(raw: RawRun): RunResult {
  const output: OutputLine[] = numberedLines(decodeText(raw.outputBytes), raw.outputLines, (line, text) => ({
    line,
    text,
  }));
  const diagnostics = toDiagnostics(decodeText(raw.diagnosticBytes), raw.diagnosticLines, raw.diagnosticColumns);
  const result: RunResult = { output, diagnostics };
  if (raw.timeline) result.timeline = Timeline.fromRaw(raw.timeline);
  if (raw.truncated) result.truncated = true;
  return result;
}
