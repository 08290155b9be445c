/**
 * The shape of the code a learner writes in the implement-it-yourself mode,
 * and the adapter that lets the engine call it. The engine keeps everything
 * else (parsing, the pool, the commands, diagnostics, printing).
 */
import type { ScriptRules } from '../api/lab.js';
import { NO_WINNER } from '../api/winners.js';

/** A backend as the learner's pick sees it, in pool order. */
export interface PickBackend {
  name: string;
  up: boolean;
  weight: number;
  score: number;
}

/**
 * What the learner writes. The sandbox (sandbox/sandbox.ts) implements it
 * for the learner's code, which runs inside QuickJS; grade.ts runs any
 * implementation through the engine (toScriptRules below). The reference
 * rules and the classic mistakes are the engine's own (rule_variants.hpp,
 * mistakes.hpp), not implementations of this interface.
 */
export interface LearnerRules {
  /** The effective weight of an UP backend: a whole number. */
  effectiveWeight(target: number, ramp: number, joined: number, now: number): number | Opaque;
  /**
   * Updates `score`s and returns the winner (the backend, its index or its
   * name), or null for NONE. The sandbox may leave an `Opaque` in a score.
   */
  pick(backends: PickBackend[]): PickBackend | number | string | null | undefined | Opaque;
  /** Sets the score of a backend that (re)joins with ADD or UP. */
  onJoin?(backend: { name: string; score: number }): void;
  /**
   * True when the last pick returned an index but had reordered `backends`
   * in place (sorted it): the index is read in pool order, so it names
   * another backend than the one the code chose. The sandbox can see it.
   */
  pickReordered?(): boolean;
}

/** What a pick that returned an index into the array it reordered is told (one text, so its lines group). */
export const REORDERED =
  'pick returned an index, but it had reordered backends (sort() sorts the array in place): the index is read in pool order, ' +
  'so it names a different backend from the one your code chose. Return the backend itself, or sort a copy: [...backends].sort(...)';

/**
 * A value of the learner's that never left the sandbox: an object, a
 * function, a string that is not a backend's name... Only its description
 * (made inside the sandbox, capped) crosses.
 */
export class Opaque {
  constructor(readonly description: string) {}
}

/**
 * An exception in the learner's code, described inside the sandbox:
 * `message` is "TypeError: ..." for an error, "threw <value>" otherwise.
 */
export class LearnerException extends Error {
  constructor(
    message: string,
    /** Line of the learner's code, when known. */
    readonly codeLine?: number,
  ) {
    super(message);
    this.name = 'LearnerException';
  }
}

/** Something the learner's code did wrong that is not just different output. */
export interface CodeProblem {
  /** Script line being run. */
  line: number;
  /** Line of the learner's code, when known. */
  codeLine?: number;
  message: string;
  /**
   * Set when the problem is what a classic mistake returns (a negative
   * weight: no-clamp), so the diagnosis still names that mistake beside it.
   */
  symptom?: boolean;
}

/** The learner's line from an exception, when known. */
export function learnerLine(error: unknown): number | undefined {
  return error instanceof LearnerException ? error.codeLine : undefined;
}

function describe(value: unknown): string {
  if (value instanceof Opaque) return value.description;
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** The largest weight or score the engine holds exactly (it clamps beyond). */
const LARGEST = Number.MAX_SAFE_INTEGER;

/**
 * What is wrong with a weight, and the weight the engine uses instead:
 * nothing for a whole number from 0 to 2^53 - 1. A negative whole number is
 * a problem but is kept as it is: it is what a classic mistake returns
 * (no-clamp: elapsed not clamped at 0), so the engine prints it and the
 * diagnosis names that mistake beside the problem, as the compare box and
 * `slowstart grade` do for the same output (the chart draws it at 0, and
 * says so). A fraction is rounded down (what the learner meant, most
 * likely); anything else becomes 0. Never silently.
 */
export function checkWeight(w: unknown): { problem?: string; symptom?: boolean; use: number } {
  if (typeof w !== 'number') return { problem: 'a weight must be a whole number (0 was used)', use: 0 };
  if (Number.isNaN(w)) return { problem: 'a weight must be a whole number (0 was used)', use: 0 };
  if (!Number.isFinite(w)) return { problem: 'a weight must be a finite whole number (0 was used)', use: 0 };
  if (Math.abs(w) > LARGEST) return { problem: `a weight must be between -${LARGEST} and ${LARGEST} (0 was used)`, use: 0 };
  if (!Number.isInteger(w)) return { problem: 'a weight must be a whole number (round down)', use: Math.floor(w) };
  if (w < 0) return { problem: 'a weight cannot be negative (printed as returned; the chart draws 0)', symptom: true, use: w };
  return { use: w };
}

/** A score must be a whole number the engine can hold; anything else is a problem (and is not kept). */
function scoreProblem(s: unknown): string | undefined {
  if (typeof s !== 'number' || !Number.isFinite(s)) return 'a score must be a number';
  if (!Number.isInteger(s)) return 'a score must be a whole number';
  if (Math.abs(s) > LARGEST) return `a score must be between -${LARGEST} and ${LARGEST}`;
  return undefined;
}

/**
 * Wraps learner rules for the engine. Nothing the learner does can throw into
 * the engine: exceptions and bad return values are recorded (the first one
 * is what the learner needs) and a safe value is used instead.
 */
export function toScriptRules(rules: LearnerRules, onLine?: (line: number) => void): {
  rules: ScriptRules;
  problems: CodeProblem[];
} {
  const problems: CodeProblem[] = [];
  let lastLine = -1;
  const at = (line: number) => {
    if (line !== lastLine) {
      lastLine = line;
      onLine?.(line);
    }
  };
  const fail = (line: number, message: string, error?: unknown, symptom?: boolean) => {
    if (problems.length < 20) problems.push({ line, codeLine: learnerLine(error), message, ...(symptom ? { symptom } : {}) });
  };
  const thrown = (e: unknown) =>
    e instanceof LearnerException ? e.message : e instanceof Error ? `${e.name}: ${e.message}` : `threw ${describe(e)}`;

  const script: ScriptRules = {
    effective(target, ramp, joined, now, name, line) {
      at(line);
      let w: unknown;
      try {
        w = rules.effectiveWeight(target, ramp, joined, now);
      } catch (e) {
        fail(line, `effectiveWeight(${target}, ${ramp}, ${joined}, ${now}) for ${name}: ${thrown(e)}`, e);
        return 0;
      }
      const checked = checkWeight(w);
      if (checked.problem) {
        fail(line, `effectiveWeight(${target}, ${ramp}, ${joined}, ${now}) for ${name} returned ${describe(w)}: ${checked.problem}`, undefined, checked.symptom);
      }
      return checked.use;
    },
    pick(names, weights, scores, up, line) {
      at(line);
      const backends: PickBackend[] = names.map((name, i) => ({
        name,
        up: up[i] === 1,
        weight: weights[i],
        score: scores[i],
      }));
      let r: unknown;
      try {
        r = rules.pick(backends);
      } catch (e) {
        fail(line, `pick: ${thrown(e)}`, e);
        return NO_WINNER;
      }
      backends.forEach((b, i) => {
        const problem = scoreProblem(b.score);
        if (problem === undefined) scores[i] = b.score;
        else fail(line, `pick left ${b.name}'s score as ${describe(b.score)}: ${problem}`);
      });
      if (rules.pickReordered?.()) fail(line, REORDERED);
      if (r === null || r === undefined || r === NO_WINNER) return NO_WINNER;
      if (typeof r === 'number' && Number.isInteger(r) && r >= 0 && r < backends.length) return r;
      const index = backends.indexOf(r as PickBackend);
      if (index >= 0) return index;
      const byName = backends.findIndex((b) => b.name === (r as PickBackend)?.name || b.name === r);
      if (byName >= 0) return byName;
      fail(line, `pick returned ${describe(r)}: return a backend, its index, or null for NONE`);
      return NO_WINNER;
    },
    onJoin(name, oldScore, line) {
      at(line);
      const backend = { name, score: oldScore };
      if (!rules.onJoin) return oldScore;
      try {
        rules.onJoin(backend);
      } catch (e) {
        fail(line, `onJoin for ${name}: ${thrown(e)}`, e);
        return oldScore;
      }
      const problem = scoreProblem(backend.score);
      if (problem !== undefined) {
        fail(line, `onJoin left ${name}'s score as ${describe(backend.score)}: ${problem}`);
        return oldScore;
      }
      return backend.score;
    },
  };
  return { rules: script, problems };
}
