// Types of the lab module built from cpp/wasm/lab_bindings.cpp. Low level:
// use the typed API in web/api instead.
import type { EngineOptions } from './engine.mjs';

export interface RawCurve {
  kind?: 'linear' | 'envoy' | 'haproxy';
  resolution?: number;
  aggression?: number;
  minWeightPercent?: number;
}

export interface RawTrafficOptions {
  rps?: number;
  duration?: number;
  bucket?: number;
  curve?: RawCurve;
  policy?: RawPolicy;
  slowStart?: boolean;
  slowStartWindow?: number;
  slowStartRule?: 'nginx-plus' | 'nginx-mod';
  bias?: number;
  choiceCount?: number;
  service?:
    | boolean
    | {
        baseMs?: number;
        coldFactor?: number;
        warmup?: number;
        workers?: number;
        warmBy?: 'serving' | 'time' | 'requests';
        warmupRequests?: number;
      };
  timeoutMs?: number;
  retries?: number;
  nextUpstreamTimeoutMs?: number;
  maxRetriesInFlight?: number;
  retryBudget?: boolean;
  retryBudgetPercent?: number;
  minRetryConcurrency?: number;
  retryBackOffMs?: number;
  retryOtherHost?: boolean;
  health?: RawHealthCheck | null;
  rampBy?: 'scale' | 'skip';
  seed?: number;
  stableMargin?: number;
}

export type RawPolicy =
  | 'wrr'
  | 'least-request'
  | 'random'
  | 'p2c'
  | 'least-conn'
  | 'round-robin'
  | 'caddy-least-conn'
  | 'nginx-least-conn'
  | 'haproxy-leastconn'
  | 'static-rr';

export interface RawHealthParameters {
  maxFails: number;
  failTimeout: number;
  /** nginx, as Caddy's passive check (unhealthy_latency): an answer taking at least this many ms counts as a failure; 0: none. */
  unhealthyLatencyMs: number;
  errorLimit: number;
  /** HAProxy: what reaching errorLimit does (HAProxy's default: fail-check, one failed check). */
  onError: 'fail-check' | 'fastinter' | 'sudden-death' | 'mark-down';
  inter: number;
  /** HAProxy: seconds between checks in transition and after an error limit; 0: as inter. */
  fastinter: number;
  /** HAProxy: seconds between checks while fully down; 0: as inter. */
  downinter: number;
  rise: number;
  /** HAProxy: failed checks in a row that mark a server down. */
  fall: number;
  /** HAProxy: milliseconds an active check takes; the next starts an interval after it ends. */
  checkMs: number;
  /** HAProxy before 2.8: an error limit brings the next check to now + fastinter, even when down. */
  legacyFastinter: boolean;
  consecutive5xx: number;
  interval: number;
  baseEjectionTime: number;
  maxEjectionTime: number;
  maxEjectionPercent: number;
  /** Envoy 1.31+: one host may be ejected whenever none is. */
  alwaysEjectOneHost: boolean;
  /** Envoy before 1.28: the share before the ejection, the first always allowed. */
  legacyEjectionPercent: boolean;
  /** Envoy: below this percent of hosts healthy, pick among all hosts (healthy_panic_threshold); 0: never. */
  panicThreshold: number;
  /** Envoy: ramp a host back from an outlier ejection (Envoy does only after an active check's recovery). */
  rampAfterEjection: boolean;
  /** Envoy: hosts with enough requests needed for success-rate detection. */
  successRateMinimumHosts: number;
  /** Envoy: requests in an interval that make a host count for success rate. */
  successRateRequestVolume: number;
  /** Envoy: eject below the mean success rate minus this / 1000 standard deviations. */
  successRateStdevFactor: number;
  /** Envoy: the chance in percent that a success-rate outlier is ejected; 0: detect only. */
  enforcingSuccessRate: number;
  /** Envoy: eject a host failing at least this percent of its requests in an interval. */
  failurePercentageThreshold: number;
  /** Envoy: hosts with enough requests needed for failure-percentage detection. */
  failurePercentageMinimumHosts: number;
  /** Envoy: requests in an interval that make a host count for failure percentage. */
  failurePercentageRequestVolume: number;
  /** Envoy: the chance in percent that a failure-percentage outlier is ejected; 0: detect only. */
  enforcingFailurePercentage: number;
}

export interface RawHealthCheck extends Partial<RawHealthParameters> {
  kind: 'none' | 'nginx' | 'haproxy' | 'envoy';
}

/** Every option's default (the option table's), by its key, and the most retries. */
export interface RawTrafficDefaults {
  rps: number;
  duration: number;
  bucket: number;
  curve: Required<RawCurve>;
  policy: RawPolicy;
  rampBy: 'scale' | 'skip';
  slowStart: boolean;
  slowStartWindow: number;
  slowStartRule: 'nginx-plus' | 'nginx-mod';
  seed: number;
  bias: number;
  choiceCount: number;
  service: { baseMs: number; coldFactor: number; warmup: number; workers: number; warmBy: 'serving' | 'time' | 'requests'; warmupRequests: number };
  timeoutMs: number;
  retries: number;
  nextUpstreamTimeoutMs: number;
  maxRetriesInFlight: number;
  retryBudget: boolean;
  retryBudgetPercent: number;
  minRetryConcurrency: number;
  retryBackOffMs: number;
  retryOtherHost: boolean;
  health: RawHealthParameters;
  stableMargin: number;
  maxRetries: number;
}

/** The work budget's limits (cpp/traffic/budget.hpp). */
export interface RawSimulationLimits {
  /** The longest script, bytes. */
  scriptBytes: number;
  /** The most requests (duration × rps). */
  requests: number;
  /** The most work, in the budget's steps. */
  steps: number;
  /** The most buckets × backends. */
  cells: number;
  /** The most requests in flight or waiting for a worker at once (checked as it runs). */
  inFlight: number;
  /** The most latency histogram bins held at once (checked as it runs). */
  latencyBins: number;
  /** A health check's shortest interval, seconds. */
  minInterval: number;
}

/** What a simulation would cost, without running it. */
export interface RawSimulationSize {
  duration: number;
  requests: number;
  backends: number;
  buckets: number;
  cells: number;
  sweeps: number;
  steps: number;
  /** Why it would not run (over a limit), or null. */
  problem: string | null;
  tooLarge: boolean;
  limits: RawSimulationLimits;
}

/** One row of the option table (cpp/traffic/option_table.hpp). */
export interface RawTrafficOption {
  /** The CLI's flag ("--rps"), or null for a rule the model always applies (shown in JSON only). */
  flag: string | null;
  /** What follows the flag in `--help` ("N"), "" for a switch. */
  metavar: string;
  /** The API's key as a path ("rps", "curve.kind", "service.baseMs"), or null. */
  key: string | null;
  /** `--summary json`'s key as a path ("service.service_ms"), or null. */
  json: string | null;
  /** What messages call it ("service time"). */
  label: string;
  group: 'load' | 'policy' | 'service model' | 'retries' | 'health check' | 'output';
  kind: 'number' | 'whole' | 'level' | 'choice' | 'switch' | 'seed' | 'fixed';
  /** number and whole: the range ([min, max], or (min, max] when aboveMin). */
  min?: number;
  max?: number;
  aboveMin?: boolean;
  /** "seconds", "milliseconds", "percent" or "". */
  unit: string;
  /** level and choice: the values it takes. */
  choices: (string | number)[];
  /** What a value has to be, as messages say it ("a number of seconds above 0"). */
  takes: string;
  default: number | string | boolean;
  /** How the help shows a default that is no plain value ("10 s past the last ramp"), or "". */
  defaultText: string;
  help: string;
  /** It takes effect only while the option `key` (itself in effect) has `value` (a switch's: "true"/"false"). */
  when: { key: string; value: string } | null;
  /** The CLI turns the service model on when it is set. */
  impliesService: boolean;
}

export interface RawTraffic {
  names: string[];
  bucket: number;
  buckets: number;
  duration: number;
  requests: Uint32Array;
  outstanding: Float64Array;
  latencyMs: Float64Array;
  failed: Uint32Array;
  retried: Uint32Array;
  state: Uint8Array;
  ejections: Uint32Array;
  secondsEjected: Float64Array;
  stableAt: number | null;
  unrouted: Uint32Array;
  total: Uint32Array;
  p50Ms: Float32Array;
  p99Ms: Float32Array;
  clientRequests: Uint32Array;
  clientFailed: Uint32Array;
  clientP50Ms: Float32Array;
  clientP99Ms: Float32Array;
  runP50Ms: (number | null)[];
  runP99Ms: (number | null)[];
  runClientP50Ms: number | null;
  runClientP99Ms: number | null;
  diagnosticText: string;
  ignoredRamps: number[];
  diagnosticLines: Uint32Array;
  /** Each diagnostic's columns, from and to (bytes of its line), two per diagnostic. */
  diagnosticColumns: Uint32Array;
}

/** Rules for a script run: a ramp curve, or JS functions (a learner's code). */
export type RawRules =
  | { curve: RawCurve }
  | {
      effective: (target: number, ramp: number, joined: number, now: number, name: string, line: number) => number;
      pick: (names: string[], weights: Float64Array, scores: Float64Array, up: Uint8Array, line: number) => number;
      /** The score a backend (re)joining with ADD or UP starts with (default 0). */
      onJoin?: (name: string, oldScore: number, line: number) => number;
    };

/** Where a mistake can be made: in the rules (any program), or only in a whole program. */
export type RawScope = 'rules' | 'program';

export interface RawMistake {
  id: string;
  title: string;
  why: string;
  scope: RawScope;
}

export interface RawSuiteTest {
  id: string;
  title: string;
  scope: RawScope;
  script: string;
}

export interface RawEvidence {
  pass: boolean;
  problem: boolean;
  named: string[];
  ruledOut: string[];
}

export interface RawRunDiagnosis {
  perTest: string[][];
  run: { mistake: string; tests: number[] }[];
}

/** What the Node CLI gives `GradeSession.start` (see cpp/cli/grade.hpp). */
export interface RawGradeEnv {
  cpus: number;
  hostname: string;
  /** Seconds since 1970. */
  now: number;
  sourceDateEpoch?: number;
  /** The names of the regular files DIR/*.txt (bytes, whatever they are), or a problem. */
  listTxt(dir: Uint8Array): Uint8Array[] | string;
  /** DIR/NAME's bytes, null when it does not exist, or a problem (grade.hpp's GradeIo::read). */
  read(dir: Uint8Array, name: Uint8Array): Uint8Array | string | null;
  /** The regular files below DIR (relative paths; links not followed), at most `most`; a problem past that. */
  listFiles(dir: Uint8Array, most: number): { files: Uint8Array[]; problem?: string };
  /** Up to `max` bytes of the file from `offset` (empty at its end), or a problem. */
  readAt(path: Uint8Array, offset: number, max: number): Uint8Array | string;
}

/** One run of the learner's program, as the Node CLI saw it. */
export interface RawOutcome {
  started: boolean;
  startError: string;
  /** It could not start because the grader ran out of files, processes or memory. */
  exhausted?: boolean;
  out: Uint8Array;
  outOver: boolean;
  err: Uint8Array;
  errCut: boolean;
  exitCode: number;
  signal: string;
  timedOut: boolean;
  ms: number;
}

/** `slowstart grade` minus the processes (cpp/cli/grade.hpp). Call delete() when done. */
export interface GradeSession {
  start(args: (string | Uint8Array)[], env: RawGradeEnv): { ok: boolean; out: Uint8Array; err: Uint8Array; status: number };
  size(): number;
  jobs(): number;
  timeoutMs(): number;
  /** Test i's stdout cap. */
  maxOutput(i: number): number;
  needsScriptPaths(): boolean;
  /** --user, or "". */
  user(): string;
  /** --output's path (bytes), empty without it. */
  output(): Uint8Array;
  /** --verbose's line for stderr on how the processes are contained ("" without --verbose): "namespace", or the Node CLI's "mark". */
  containmentNote(how: 'namespace' | 'mark'): string;
  /** A warning for stderr when -j asks for more than `most`, or "". */
  clampJobs(most: number, fileLimit: number): string;
  test(i: number): { id: string; script: Uint8Array; path: Uint8Array };
  argv(scriptPath: string | Uint8Array): Uint8Array[];
  setOutcome(i: number, outcome: RawOutcome): void;
  /** The report that says grading could not run, and why (for --output). */
  couldNotGrade(reason: string): Uint8Array;
  finish(wallMs: number): { out: Uint8Array; err: Uint8Array; status: number };
  delete(): void;
}

export interface LabModule {
  /** The module's memory, where a run's results are read from (web/api/run-view.ts). */
  HEAPU8: Uint8Array;
  /** The module's input buffer resized to n bytes (valid until the next call into the module). */
  inputBuffer(n: number): Uint8Array;
  /** The address of the run's RunView (cpp/wasm/run_view.hpp), or an Error (returned, not thrown) for a bad curve. */
  runWithRules(length: number, withTimeline: boolean, rules: RawRules): number | Error;
  /** Runs the input buffer's first `length` bytes with a light timeline (the SPEC's rules); the RunView's address. */
  runLight(length: number): number;
  /** Frees the last run's results (once they are read). */
  releaseRun(): void;
  /** An Error (returned, not thrown) for bad options, or (code TOO_LARGE) a simulation over the work budget. */
  simulate(length: number, options: RawTrafficOptions): RawTraffic | Error;
  /** The simulation's defaults (the option table's), said once. */
  trafficDefaults(): RawTrafficDefaults;
  /** A simulation's size without running it, or an Error (returned) for bad options. */
  simulationSize(length: number, options: RawTrafficOptions): RawSimulationSize | Error;
  /** The work budget's limits. */
  simulationLimits(): RawSimulationLimits;
  /** The option table: every option of the simulation, in --help's order. */
  trafficOptionTable(): RawTrafficOption[];
  /** The `slowstart simulate` arguments that give these options, or an Error (returned) for bad ones. */
  simulateArguments(options: RawTrafficOptions): string[] | Error;
  mistakeCatalogue(): RawMistake[];
  builtInSuite(): RawSuiteTest[];
  /** The script is in the input buffer; expected and actual are stdout texts. */
  testEvidence(length: number, expected: string, actual: string, scope: RawScope, problem: boolean): RawEvidence;
  diagnoseRun(tests: (RawEvidence | undefined | null)[]): RawRunDiagnosis;
  /** The script is in the input buffer. */
  nameMistakes(length: number, actual: string): string[];
  /** The script is in the input buffer. */
  weightProblem(length: number, actual: string): { outputLine: number; weight: string } | null;
  GradeSession: new () => GradeSession;
  /** stderr bytes a front end keeps per run (cpp/grading/grade.hpp's kStderrKept). */
  readonly stderrKept: number;
  /** What both CLIs say when a process the program started could not be killed (grade.hpp's kStraysLeft). */
  readonly straysLeft: string;
  /** Why a tests' file behind a symbolic link out of its folder is not read (grade.hpp's kLinksOut). */
  readonly linksOut: string;
  testsCommand(args: string[]): {
    out: Uint8Array;
    err: Uint8Array;
    status: number;
    dir: string;
    /** --force: files already in dir may be overwritten. */
    force: boolean;
    files: { name: string; bytes: Uint8Array }[];
  };
  /** The line `slowstart tests` prints when a file in --out's folder is in the way. */
  testsOutBlocked(path: string, why: 'exists' | 'symlink' | 'not-regular'): string;
  /** `read(path, maxBytes)`: at most maxBytes of the script, or a problem. */
  simulateCommand(
    args: string[],
    read: (path: string, maxBytes: number) => Uint8Array | string,
  ): { out: string; err: string; status: number };
  /** `slowstart fit ARGS` (cpp/system/fit_command.hpp), for the Node CLI (system_bindings.cpp). */
  fitCommand(
    args: string[],
    read: (path: string, maxBytes: number) => Uint8Array | string,
  ): { out: string; err: string; status: number };
  /** `slowstart recommend ARGS` (cpp/system/recommend_command.hpp), for the Node CLI. */
  recommendCommand(
    args: string[],
    read: (path: string, maxBytes: number) => Uint8Array | string,
  ): { out: string; err: string; status: number };
  /** The configuration in the input buffer read (cpp/system/import_config.hpp); an Error has line and column. */
  importConfig(length: number, format: string, pool: string): RawImportedConfig | (Error & { line: number; column: number });
  /** The canary log in the input buffer fitted (cpp/system/cold_fit.hpp); `json` is fit --json's object. */
  fitCanary(
    length: number,
    options: { logFormat?: string; backend?: string; started?: number; seed?: number },
  ): { json: string; summary: string; t: Float64Array; latencyMs: Float64Array } | Error;
}

/** What a proxy's configuration became (cpp/system/imported.hpp). */
export interface RawImportedConfig {
  format: 'nginx' | 'haproxy' | 'envoy' | 'caddy' | 'alb';
  pool: string;
  servers: { name: string; weight: number; down: boolean; line: number }[];
  settings: { option: string; value: string; line: number; source: string }[];
  ignored: { line: number; text: string }[];
  notes: { line: number; text: string }[];
  script: string;
}

export default function createLab(options?: EngineOptions): Promise<LabModule>;
