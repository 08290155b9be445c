import type { Timeline } from './timeline.js';

// The timeline's step types live with the Timeline (timeline.ts), which
// imports nothing from here: this file's types point one way only.
export type { BackendSnapshot, StepWinner } from './timeline.js';

/** One line printed by WEIGHTS or PICK. */
export interface OutputLine {
  /** 1-based line of the script that printed it. */
  line: number;
  /** The text, exactly as the CLI prints it (without the newline). */
  text: string;
}

/** Why a line was rejected. A rejected line changes nothing. */
export interface Diagnostic {
  /** 1-based line of the script. */
  line: number;
  /** The message, as the CLI prints it after `line N: `. */
  message: string;
  /**
   * Where on its line the problem is, as the engine found it: the offending
   * token, or the name or the weight of a `name=weight`; for a missing
   * argument the whole command (blanks around it left out). `from` and `to`
   * index the line as it was given (a byte-order mark counts, the line end
   * does not): UTF-16 code units when the script was a string
   * (`lineText.slice(from, to)`), bytes when it was a `Uint8Array`.
   */
  from: number;
  /** Where the problem ends on its line (exclusive), in the same units as `from`. */
  to: number;
}

/** A command word of the language, as the engine states it (completion, help). */
export interface Keyword {
  /** `POOL`, `NOW`, `ADD`, `DOWN`, `UP`, `WEIGHTS` or `PICK`. */
  word: string;
  /** How a line with it is written, e.g. `ADD <name>=<weight> <ramp>` (the messages quote it). */
  usage: string;
  /** What it does, in one sentence. */
  summary: string;
  /** The fewest arguments a line with it takes. */
  minArgs: number;
  /** The most arguments a line with it takes (`Infinity`: any number). */
  maxArgs: number;
  /**
   * What each argument is, in order: a `name=weight` entry, a backend's name, or a whole number
   * (seconds). When `maxArgs` is `Infinity`, the last kind repeats.
   */
  args: readonly ('entry' | 'name' | 'number')[];
}

/** Everything {@link SlowStart.run} produced. */
export interface RunResult {
  /** Every line WEIGHTS and PICK printed, in order. */
  output: OutputLine[];
  /** Every rejected line, in order (a rejected line changes nothing). */
  diagnostics: Diagnostic[];
  /** Present unless `run(script, { timeline: false })`. */
  timeline?: Timeline;
  /**
   * True when the script printed more than 64 MiB (output and diagnostics
   * together): what came after was not kept. The CLIs stream and have no cap.
   */
  truncated?: boolean;
}

/** Options of {@link SlowStart.run}. */
export interface RunOptions {
  /**
   * Record the timeline (default true: what a chart of the run needs). It
   * costs: on a 1,000,000-line script, about 2.5× the CPU time of the run
   * without it and about 2.5× the memory the result holds (112 MB instead of
   * 45 MB; `npm run bench`, "API costs"). Pass `false` when you need only the
   * output and diagnostics.
   */
  timeline?: boolean;
}

/** A pool entry: a backend name and its configured weight. */
export interface PoolEntry {
  /** The backend's name, as a script would write it. */
  name: string;
  /** Its configured weight: a whole number, 0 … 1,000,000. */
  weight: number | bigint;
}

/** A backend's name and current effective weight. */
export interface BackendWeight {
  /** The backend's name. */
  name: string;
  /** Its effective weight now (0 while DOWN). */
  weight: number;
}

/**
 * A whole number, given as a number or bigint (or, for callers without
 * types, decimal text). It is checked exactly like the same value in a
 * script: `-1`, `1.5`, `NaN` throw the script's message.
 */
export type Whole = number | bigint | string;
