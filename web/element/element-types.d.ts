// The public types of <slow-start-runner>, for TypeScript users of the
// package's "./element" entry (copied to dist/element/slow-start-runner.d.ts).
// Standalone on purpose: the element bundles its dependencies, so its types
// must not name theirs. web/element/element.ts implements SlowStartRunnerApi,
// which keeps the two in step.

/** One line the script printed (WEIGHTS or PICK). */
export interface SlowStartOutputLine {
  /** 1-based line of the script that printed it. */
  line: number;
  /** The text, exactly as the CLI prints it. */
  text: string;
}

/** A rejected line of the script. */
export interface SlowStartDiagnostic {
  /** 1-based line of the script. */
  line: number;
  /** The message, as the CLI prints it after `line N: `. */
  message: string;
  /** Where on its line the problem is (the offending token): UTF-16 units of the line, `lineText.slice(from, to)`. */
  from: number;
  /** Where the problem ends (exclusive), in the same units. */
  to: number;
}

/** `slowstart-predict`: a learner's answer in `mode="predict"`. */
export interface SlowStartPredictDetail {
  /** The script line (1-based) whose output was predicted. */
  line: number;
  /** What the learner typed (trimmed). */
  prediction: string;
  /** What the line prints. */
  truth: string;
  /** The prediction is the truth, spaces aside (names are case-sensitive). */
  correct: boolean;
  /** Which question of this run (0-based) of `total`. */
  index: number;
  /** How many lines this run asks: every WEIGHTS and PICK line, or those marked with `#?`. */
  total: number;
}

/** `slowstart-run`: after every run, live re-runs as you type included. */
export interface SlowStartRunDetail {
  /** The script that ran. */
  script: string;
  /**
   * The lines WEIGHTS and PICK printed; in `mode="predict"`, only those shown
   * (the ones before the first line asked): the rest arrive one answer at a
   * time, as `slowstart-predict`'s `truth`.
   */
  output: SlowStartOutputLine[];
  /** In `mode="predict"`: how many output lines are held back (not in `output`) until answered; 0 otherwise. */
  heldBack: number;
  /** The rejected lines. */
  diagnostics: SlowStartDiagnostic[];
  /** True when the output passed 64 MiB and the rest was not kept. */
  truncated: boolean;
}

/** The first output line that differs from the expected output. */
export interface SlowStartLineDifference {
  /** 0-based index into the output lines. */
  index: number;
  /** The expected line; undefined when the expected output ended before this line. */
  expected: string | undefined;
  /** The line the script printed; undefined when its output ended before this line. */
  actual: string | undefined;
}

/** `slowstart-pass` and `slowstart-fail` (exercises only): after every run. */
export interface SlowStartVerdictDetail extends SlowStartRunDetail {
  /** True when the output matches the expected output and no line was rejected. */
  pass: boolean;
  /** The expected output's lines. */
  expected: string[];
  /** The output lines' text. */
  actual: string[];
  /** Null when the output matches. */
  difference: SlowStartLineDifference | null;
  /** The script line that printed the differing line (or the last line printed, when the output ended early). */
  sourceLine: number | null;
  /** The first rejected line: an exercise with one does not pass. */
  rejected: SlowStartDiagnostic | null;
  /** True when this run's verdict differs from the previous run's (or it is the first). */
  changed: boolean;
}

/** `slowstart-predict` (`mode="predict"`): after each answer the learner checks. */
export interface SlowStartPredictDetail {
  /** The script line (1-based) whose output was predicted. */
  line: number;
  /** What the learner typed (trimmed). */
  prediction: string;
  /** What the line prints. */
  truth: string;
  /** Equal, spaces aside. */
  correct: boolean;
  /** Which question (0-based) of `total`. */
  index: number;
  /** How many output lines there are to predict. */
  total: number;
}

/**
 * The element's attributes, each also a property (camel case: `no-chart` is
 * `noChart`, `heading-level` is `headingLevel`). Frameworks may set either.
 */
export interface SlowStartRunnerAttributes {
  /** The starter script (instead of the element's text or `src`). */
  starter?: string;
  /** The expected output: the element becomes an exercise. Lines separated by newlines (a property may also be an array). */
  expected?: string;
  /** URL of the starter script. */
  src?: string;
  /** URL of the expected output (the CLI's format). */
  'expected-src'?: string;
  /** `run` (default), `predict` or `implement`. */
  mode?: 'run' | 'predict' | 'implement';
  /** Run the starter as soon as the engine is loaded. */
  autorun?: boolean | '';
  /** No editing, nothing saved. */
  readonly?: boolean | '';
  /** No ramp chart. */
  'no-chart'?: boolean | '';
  /** The Traffic tab. */
  traffic?: boolean | '';
  /** The examples menu. */
  examples?: boolean | '';
  /** The "Compare with my program" box (always on in an exercise). */
  compare?: boolean | '';
  /** In implement mode, leave the built-in tests out. */
  'no-builtin-tests'?: boolean | '';
  /** The level of the element's headings, 2 to 6 (default 3). */
  'heading-level'?: number | `${number}`;
  /** The editor's and output's height: pixels, or a CSS length. */
  height?: number | string;
  /** `light` or `dark` (default: the page's preference). */
  theme?: 'light' | 'dark';
  /** Where the learner's work is kept (default: derived from the page and the element). */
  'storage-key'?: string;
}

/** What the element offers to scripts on the page. */
export interface SlowStartRunnerApi {
  /**
   * The script in the editor (setting it is one undoable edit, and runs it). It may be set at
   * any time after the element is in the document: set before the runner or the engine has
   * loaded, the latest script set runs once they have.
   */
  script: string;
  /** The starter script (from the element's text, `src`, or set: setting it rebuilds the element). */
  starter: string;
  /** The expected output of an exercise, or null. Set text (lines separated by newlines) or lines to make it one (it rebuilds). */
  get expected(): readonly string[] | null;
  set expected(expected: string | readonly string[] | null);
  /** The last run's output and diagnostics (null before the first run). */
  readonly result: SlowStartRunDetail | null;
  /** Resolves once the element has read its sources and built its runner (the engine may still be loading: see `script`). */
  readonly ready: Promise<void>;
  /** Runs the script now (and plays it through); before the engine has loaded, null, and it runs once loaded. */
  run(): SlowStartRunDetail | null;
  /** Puts the starter script back (undoable with Ctrl+Z) and runs it. */
  reset(): void;
  /**
   * A link to this page that opens this element with its current script
   * (compressed, so it resolves asynchronously). Rejects with a RangeError
   * when the link would be longer than a browser opens (Chromium: 2 MiB).
   */
  permalink(): Promise<string>;
}

/** `<slow-start-runner>`: defined when `slowstart/element` is imported in a browser. */
export declare class SlowStartRunnerElement extends HTMLElement implements SlowStartRunnerApi {
  /** The attributes the element reacts to (custom elements' API). */
  static readonly observedAttributes: string[];
  script: string;
  starter: string;
  get expected(): readonly string[] | null;
  set expected(expected: string | readonly string[] | null);
  /** The `src` attribute: URL of the starter script. */
  src: string | null;
  /** The `expected-src` attribute: URL of the expected output. */
  expectedSrc: string | null;
  /** The `mode` attribute: `run`, `predict` or `implement`. */
  mode: string | null;
  /** The `autorun` attribute: run the starter once the engine is loaded. */
  autorun: boolean;
  /** The `readonly` attribute: no editing, nothing saved. */
  readOnly: boolean;
  /** The `no-chart` attribute: no ramp chart. */
  noChart: boolean;
  /** The `traffic` attribute: the Traffic tab. */
  traffic: boolean;
  /** The `examples` attribute: the examples menu. */
  examples: boolean;
  /** The `compare` attribute: the "Compare with my program" box. */
  compare: boolean;
  /** The `no-builtin-tests` attribute: implement mode without the built-in tests. */
  noBuiltinTests: boolean;
  /** The `heading-level` attribute: the level of the element's headings (2 to 6). */
  headingLevel: number | null;
  /** The `height` attribute: pixels or a CSS length. */
  height: string | null;
  /** The `theme` attribute: `light` or `dark`. */
  theme: string | null;
  /** The `storage-key` attribute: where the learner's work is kept. */
  storageKey: string | null;
  readonly result: SlowStartRunDetail | null;
  readonly ready: Promise<void>;
  run(): SlowStartRunDetail | null;
  reset(): void;
  permalink(): Promise<string>;
}

declare global {
  interface HTMLElementTagNameMap {
    'slow-start-runner': SlowStartRunnerElement;
  }
  /** The element's events: on the element, and (they bubble and are composed) on the document and the window. */
  interface SlowStartEventMap {
    /** The element has read its sources and built its runner. */
    'slowstart-ready': CustomEvent<void>;
    /** After every run. */
    'slowstart-run': CustomEvent<SlowStartRunDetail>;
    /** An exercise's run matched the expected output. */
    'slowstart-pass': CustomEvent<SlowStartVerdictDetail>;
    /** An exercise's run did not match. */
    'slowstart-fail': CustomEvent<SlowStartVerdictDetail>;
    /** `mode="predict"`: the learner answered a line. */
    'slowstart-predict': CustomEvent<SlowStartPredictDetail>;
  }
  interface HTMLElementEventMap extends SlowStartEventMap {}
  interface DocumentEventMap extends SlowStartEventMap {}
  interface WindowEventMap extends SlowStartEventMap {}
}
