/**
 * Grading with the engine's mistake catalogue and built-in suite (the lab
 * module's `cpp/grading/{mistakes,suite,diagnosis}.*`): the same catalogue,
 * the same tests and the same diagnosis as `slowstart grade`, so every front
 * end names the same mistake for the same output.
 */
import type { LabModule, RawEvidence } from '../wasm/lab.mjs';
import { writeInput } from './wasm-io.js';

/**
 * Where a mistake can be made: `rules` in the effective weight, the pick or
 * the score on joining (what the implement mode's learner writes, and any
 * program); `program` only in a whole program (parsing, the commands).
 */
export type MistakeScope = 'rules' | 'program';

/** A classic mistake: what the learner did, in plain words, and why it is wrong. */
export interface Mistake {
  /** Stable, kebab-case, e.g. `no-clamp`. */
  id: string;
  /** What the learner did, in one line. */
  title: string;
  /** Why it is wrong, in a few sentences. */
  why: string;
  /** `rules`: a mistake in the ramp or the pick alone; `program`: one only a whole program can make. */
  scope: MistakeScope;
}

/** A test of the built-in suite. Its expected output is the engine's. */
export interface BuiltInTest {
  /** Stable id of the test. */
  id: string;
  /** What it checks, in a learner's words. */
  title: string;
  /** `rules`: the implement mode runs it too. */
  scope: MistakeScope;
  /** The test's script in the command language. */
  script: string;
}

/**
 * What one graded test says about the learner's mistake (see
 * `Lab.testEvidence`); plain data, so it can cross from a worker.
 */
export type TestEvidence = RawEvidence;

/** A weight that is not a whole number in a printed WEIGHTS line: a problem to fix before any mistake. */
export interface WeightProblem {
  /** 1-based line of the printed output. */
  outputLine: number;
  /** The word with the weight, e.g. `b=2.5`. */
  weight: string;
}

/** The mistakes a whole run points to. */
export interface RunDiagnosis {
  /** Per test, in order: the ids of the mistakes to name for it. */
  perTest: string[][];
  /** The mistakes of the run, most tests first, with the indices of their tests. */
  run: { mistake: string; tests: number[] }[];
}

/** The lab-module side of the `Lab` class's grading methods. */
export class Grading {
  readonly #module: LabModule;
  #mistakes: Mistake[] | null = null;
  #tests: BuiltInTest[] | null = null;

  constructor(module: LabModule) {
    this.#module = module;
  }

  mistakes(): readonly Mistake[] {
    return (this.#mistakes ??= this.#module.mistakeCatalogue());
  }

  builtInTests(scope?: MistakeScope): readonly BuiltInTest[] {
    const all = (this.#tests ??= this.#module.builtInSuite());
    return scope === 'rules' ? all.filter((t) => t.scope === 'rules') : all;
  }

  testEvidence(script: string, expected: string, actual: string, scope: MistakeScope, problem: boolean): TestEvidence {
    const length = writeInput(this.#module, script);
    return this.#module.testEvidence(length, expected, actual, scope, problem);
  }

  diagnoseRun(tests: readonly (TestEvidence | undefined)[]): RunDiagnosis {
    return this.#module.diagnoseRun([...tests]);
  }

  nameMistakes(script: string, stdout: string): Mistake[] {
    const length = writeInput(this.#module, script);
    const ids = this.#module.nameMistakes(length, stdout);
    return ids.map((id) => this.mistakes().find((m) => m.id === id)!);
  }

  weightProblem(script: string, stdout: string): WeightProblem | null {
    const length = writeInput(this.#module, script);
    return this.#module.weightProblem(length, stdout);
  }
}

/** stdout as a program prints it: every line followed by '\n'. */
export function stdoutText(lines: readonly { text: string }[]): string {
  let s = '';
  for (const l of lines) s += `${l.text}\n`;
  return s;
}
