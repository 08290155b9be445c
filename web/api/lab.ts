import type {
  LabModule,
  RawHealthCheck,
  RawPolicy,
  RawRules,
  RawSimulationLimits,
  RawSimulationSize,
  RawTraffic,
  RawTrafficDefaults,
  RawTrafficOption,
} from '../wasm/lab.mjs';
import { SlowStartError } from './errors.js';
import { Grading, type BuiltInTest, type Mistake, type MistakeScope, type RunDiagnosis, type TestEvidence, type WeightProblem } from './grading.js';
import { raise } from './raise.js';
import { toUtf16Columns } from './columns.js';
import { toDiagnostics, toRunResult } from './run-result.js';
import { readRun } from './run-view.js';
import { writeInput } from './wasm-io.js';
import type { Diagnostic, RunOptions, RunResult } from './types.js';
import {
  fitCanary,
  importConfig,
  runCommand,
  type CanaryFit,
  type CanaryFitOptions,
  type CommandResult,
  type ImportedConfig,
  type ImportOptions,
} from './your-system.js';

/** A ramp curve and the integer resolution weights are kept at. */
export interface Curve {
  /** `linear` (the SPEC, NGINX Plus), `envoy` or `haproxy`. Default `linear`. */
  kind?: 'linear' | 'envoy' | 'haproxy';
  /**
   * Internal weight scale: 1 (the SPEC's integers), 16, 100 or 1000. Default 0: the
   * curve's own (linear 100 as nginx-mod's factor, haproxy 16 as HAProxy's sixteenths,
   * envoy 1000: Envoy's weights are doubles).
   */
  resolution?: 0 | 1 | 16 | 100 | 1000;
  /** Envoy: the curve's aggression (1 is linear; above 1 starts faster). Default 1. */
  aggression?: number;
  /** Envoy: the ramp never gives less than this percent of the target. Default 10. */
  minWeightPercent?: number;
}

/** The service model: how long requests take, and how much longer while cold. */
export interface ServiceModel {
  /** A warm backend's service time, ms. Default 200. */
  baseMs?: number;
  /** Service time multiplier the moment a backend (re)joins. Default 5. */
  coldFactor?: number;
  /** Seconds for a cold backend's service time to decay to normal. Default 30. */
  warmup?: number;
  /** Requests a backend serves at once; more wait in a FIFO queue. Default 128. */
  workers?: number;
  /**
   * What warms a backend after it (re)starts: `serving` (default) seconds in
   * service, paused while ejected; `time` seconds, ejected or not;
   * `requests` requests served (`warmupRequests` of them).
   */
  warmBy?: 'serving' | 'time' | 'requests';
  /** With `warmBy: 'requests'`: how many requests warm a backend. Default 10000. */
  warmupRequests?: number;
}

/** A passive health check with its software's parameters (each optional: that software's default). */
export type HealthCheck = RawHealthCheck;
/** The balancing policies of the lab. */
export type Policy = RawPolicy;
/** The simulation's defaults (`Lab.trafficDefaults`), said once by the engine. */
export type TrafficDefaults = RawTrafficDefaults;
/**
 * One option of the simulation as the engine's option table has it
 * (`Lab.trafficOptionTable`): its CLI flag, its key in {@link TrafficOptions}
 * (a path such as `service.baseMs`), its key in `--summary json`, its group,
 * range or choices, default and help, and when it takes effect.
 */
export type TrafficOptionInfo = RawTrafficOption;
/**
 * The work budget every simulation is held to, from the CLIs, the API and
 * the Traffic tab alike (`Lab.simulationLimits`): the script's bytes, the
 * requests, the work in the budget's steps, buckets × backends, the requests
 * in flight at once, and a health check's shortest interval.
 */
export type SimulationLimits = RawSimulationLimits;
/** What a simulation would cost, without running it (`Lab.simulationSize`). */
export type SimulationSize = RawSimulationSize;

/** A backend's state in a bucket (`Traffic.state`): the worst the bucket saw. */
export const BackendState = { Out: 0, Serving: 1, Ramping: 2, Ejected: 3 } as const;

/** Options of {@link Lab.simulate}: the traffic, the ramp curve, the policy and the service model. */
export interface TrafficOptions {
  /** Requests per second, arriving at a fixed rate. Default 1000. */
  rps?: number;
  /** Seconds to simulate from 0. Default: until 10 s after the last ramp ends. */
  duration?: number;
  /** Width of a bucket in seconds; bucket k covers [k·bucket, (k+1)·bucket). Default 1. */
  bucket?: number;
  /** The ramp curve and the weights' resolution. Default: linear, at the curve's own resolution (100). */
  curve?: Curve;
  /**
   * `wrr`: smooth weighted round-robin (default). `least-request`: Envoy's: with equal weights and no host ramping, the least active of `choiceCount` random draws; else weight / (active + 1)^bias.
   * `random` (weighted), `p2c` (two at random, fewer active wins), `round-robin` (Caddy's).
   * `least-conn`: the balancer's own least connections: nginx's with `health.kind` nginx, HAProxy's with haproxy,
   * else Caddy's; each by name: `caddy-least-conn` (fewest active, no weights, ties at random), `nginx-least-conn`
   * (conns / weight, smooth WRR among ties), `haproxy-leastconn` ((inflight + 1) × 4096 / eweight, 0 when idle).
   * `static-rr`: HAProxy's static-rr (weighted turns; slowstart does not ramp it).
   */
  policy?: Policy;
  /** false: ignore the ramps (full weight at once). Default true. */
  slowStart?: boolean;
  /**
   * Slow start as the proxies configure it: every backend's window, whole seconds,
   * kept across reloads. Each join or recovery the balancer's own rule ramps
   * (haproxy: not at start or reload; envoy: not after an outlier ejection;
   * linear: `slowStartRule`) ramps over it, and the ramps written on the script's
   * ADD and UP lines are not used. 0 (default): the script's ramps, as written.
   */
  slowStartWindow?: number;
  /** Linear curve with `slowStartWindow`: NGINX Plus's rule (default) or nginx-mod's. */
  slowStartRule?: 'nginx-plus' | 'nginx-mod';
  /** Least-request's active-request bias (its weighted path: unequal weights or a host ramping). Default 1. */
  bias?: number;
  /** Least-request with equal weights and no host ramping: hosts drawn per pick (Envoy's choice_count). Default 2. */
  choiceCount?: number;
  /** Model service times (outstanding requests and latency). Default off. */
  service?: boolean | ServiceModel;
  /** A request slower than this fails (needs the service model). 0: none (default). */
  timeoutMs?: number;
  /** Retries of a failed request on another backend (Envoy: on any host, after a jittered back-off: `retryBackOffMs`, `retryOtherHost`), 0 to 100 (`trafficDefaults().maxRetries`). Default 0. With nginx, each server is tried once at most. */
  retries?: number;
  /** nginx (`health.kind` nginx): no further server is tried once this many ms passed since the first attempt (proxy_next_upstream_timeout). 0: none (default). */
  nextUpstreamTimeoutMs?: number;
  /** Envoy (`health.kind` envoy): the most retries in flight at once (the cluster's max_retries circuit breaker). Default 3. */
  maxRetriesInFlight?: number;
  /** Envoy: a retry budget instead of `maxRetriesInFlight`: retries in flight up to a percent of the requests in flight. Default false. */
  retryBudget?: boolean;
  /** Envoy with `retryBudget`: the budget, percent of the requests in flight (budget_percent). Default 20. */
  retryBudgetPercent?: number;
  /** Envoy with `retryBudget`: the retries in flight the budget always allows (min_retry_concurrency). Default 3. */
  minRetryConcurrency?: number;
  /** Envoy: a retry waits a random whole number of ms below this, doubled for each later retry up to 10 times it (base_interval); 0: at once. Default 25. */
  retryBackOffMs?: number;
  /** Envoy: a retry never goes to a host the request tried (the previous_hosts predicate); without it it may. Default false. */
  retryOtherHost?: boolean;
  /** Passive health checking (needs a timeout). Default none. */
  health?: HealthCheck | null;
  /** How a policy applies the ramp: `scale` (default) or `skip` (leave a warming host out with probability 1 − ramp). */
  rampBy?: 'scale' | 'skip';
  /** Seed of the random choices. Default 1. */
  seed?: number;
  /** Stable: latency within this % of the warm service time. Default 50. */
  stableMargin?: number;
}

// As the CLIs' client_error_rate: 0 when no request was sent.
function errorRate(failed: number, requests: number): number {
  return requests ? failed / requests : 0;
}

/** What a traffic simulation measured, per bucket and backend. */
export class Traffic {
  /** Backend names by id. */
  readonly names: readonly string[];
  /** Width of a bucket, seconds. */
  readonly bucket: number;
  /** How many buckets (the arrays below hold `buckets × names.length` values, or `buckets`). */
  readonly buckets: number;
  /** Seconds simulated. */
  readonly duration: number;
  /** Requests routed, at [bucket × names.length + id]. */
  readonly requests: Uint32Array;
  /** Mean outstanding requests (service model), same layout. */
  readonly outstanding: Float64Array;
  /** Mean latency in ms of the requests that arrived in the bucket (service model), same layout. */
  readonly latencyMs: Float64Array;
  /** Attempts that timed out (they arrived in the bucket), same layout. */
  readonly failed: Uint32Array;
  /** Of those, the ones retried (on another backend; under Envoy on any), same layout. */
  readonly retried: Uint32Array;
  /** `BackendState`, the worst the bucket saw, same layout. */
  readonly state: Uint8Array;
  /** Per backend: times the health check ejected it, and seconds it was out. */
  readonly ejections: Uint32Array;
  /** Per backend: seconds it spent ejected by the health check over the run. */
  readonly secondsEjected: Float64Array;
  /** When the pool became stable (seconds), or null. */
  readonly stableAt: number | null;
  /** Requests with no backend to take them, per bucket. */
  readonly unrouted: Uint32Array;
  /** All requests, per bucket. */
  readonly total: Uint32Array;
  /**
   * p50 and p99 latency in ms of the attempts that arrived in the bucket
   * (service model; a timed-out attempt counts as the timeout; 0 if none), at
   * [bucket × names.length + id]. Nearest rank, read from log-scale histograms
   * of 128 bins an octave: never below the exact value, at most 0.8 % above.
   */
  readonly p50Ms: Float32Array;
  /** p99 of the same attempts, at the same index (see `p50Ms`). */
  readonly p99Ms: Float32Array;
  /** Per bucket: the requests the client sent in it (a retried request once). */
  readonly clientRequests: Uint32Array;
  /** Per bucket: of those, the ones that failed to the client (no backend, or the last attempt timed out). */
  readonly clientFailed: Uint32Array;
  /** Per bucket: p50 and p99 of the client's whole wait, every attempt included (service model; 0 if none). */
  readonly clientP50Ms: Float32Array;
  /** Per bucket: p99 of the client's whole wait (see `clientP50Ms`). */
  readonly clientP99Ms: Float32Array;
  /** Per backend: its attempts' p50 and p99 over the run, or null (no latency). */
  readonly runP50Ms: readonly (number | null)[];
  /** Per backend: its attempts' p99 over the run, or null (no latency). */
  readonly runP99Ms: readonly (number | null)[];
  /** The client's p50 and p99 over the run, or null (no latency). */
  readonly runClientP50Ms: number | null;
  /** The client's p99 over the run, or null (no latency). */
  readonly runClientP99Ms: number | null;
  /** Over the run: requests the client sent, the ones that failed to it, and their ratio (0 when none was sent). */
  readonly runClientRequests: number;
  /** Over the run: the requests that failed to the client. */
  readonly runClientFailed: number;
  /** Over the run: runClientFailed / runClientRequests (0 when none was sent). */
  readonly runClientErrorRate: number;
  /** The script's rejected lines (they changed nothing). */
  readonly diagnostics: Diagnostic[];
  /**
   * With `slowStartWindow`: the script's ADD and UP lines whose written ramp is
   * not used (the window and the balancer's rule decide), as the CLIs' note says.
   */
  readonly ignoredRamps: readonly number[];

  /** @internal Use `Lab.simulate()`. */
  static fromRaw(raw: RawTraffic): Traffic {
    return new Traffic(raw);
  }

  // Not for users: Lab.simulate() makes one.
  private constructor(raw: RawTraffic) {
    this.names = raw.names;
    this.bucket = raw.bucket;
    this.buckets = raw.buckets;
    this.duration = raw.duration;
    this.requests = raw.requests;
    this.outstanding = raw.outstanding;
    this.latencyMs = raw.latencyMs;
    this.failed = raw.failed;
    this.retried = raw.retried;
    this.state = raw.state;
    this.ejections = raw.ejections;
    this.secondsEjected = raw.secondsEjected;
    this.stableAt = raw.stableAt;
    this.unrouted = raw.unrouted;
    this.total = raw.total;
    this.p50Ms = raw.p50Ms;
    this.p99Ms = raw.p99Ms;
    this.clientRequests = raw.clientRequests;
    this.clientFailed = raw.clientFailed;
    this.clientP50Ms = raw.clientP50Ms;
    this.clientP99Ms = raw.clientP99Ms;
    this.runP50Ms = raw.runP50Ms;
    this.runP99Ms = raw.runP99Ms;
    this.runClientP50Ms = raw.runClientP50Ms;
    this.runClientP99Ms = raw.runClientP99Ms;
    this.runClientRequests = raw.clientRequests.reduce((a, b) => a + b, 0);
    this.runClientFailed = raw.clientFailed.reduce((a, b) => a + b, 0);
    this.runClientErrorRate = errorRate(this.runClientFailed, this.runClientRequests);
    this.diagnostics = toDiagnostics(raw.diagnosticText, raw.diagnosticLines, raw.diagnosticColumns);
    this.ignoredRamps = raw.ignoredRamps;
  }

  /** Backend `id`'s share (0…1) of bucket `k`'s requests. */
  share(k: number, id: number): number {
    const t = this.total[k];
    return t ? this.requests[k * this.names.length + id] / t : 0;
  }

  /** Bucket `k`'s client error rate: failed / sent (0 when it sent nothing). */
  clientErrorRate(k: number): number {
    return errorRate(this.clientFailed[k], this.clientRequests[k]);
  }

  /** Start time of bucket `k`, in seconds. */
  time(k: number): number {
    return k * this.bucket;
  }
}

/**
 * Rules written in JavaScript (the implement-it-yourself mode uses them for a
 * learner's code). The engine calls them; whatever they return is floored
 * to an integer. They must not throw: catch and record problems yourself.
 */
export interface ScriptRules {
  effective(target: number, ramp: number, joined: number, now: number, name: string, line: number): number;
  pick(names: string[], weights: Float64Array, scores: Float64Array, up: Uint8Array, line: number): number;
  /** The score a backend (re)joining with ADD or UP starts with; without it, 0. */
  onJoin?(name: string, oldScore: number, line: number): number;
}

/** The lab: traffic simulation, ramp curves, other rules and grading. Get one with `loadLab()`. */
export class Lab {
  readonly #module: LabModule;
  readonly #grading: Grading;

  // Not for users: get one from loadLab().
  private constructor(module: LabModule) {
    this.#module = module;
    this.#grading = new Grading(module);
  }

  /** @internal Use `loadLab()`. */
  static fromModule(module: LabModule): Lab {
    return new Lab(module);
  }

  /** The mistake catalogue: every classic way to get the SPEC wrong, in a fixed order. */
  mistakes(): readonly Mistake[] {
    return this.#grading.mistakes();
  }

  /** The built-in test suite (`rules`: only the tests the implement mode runs). */
  builtInTests(scope?: MistakeScope): readonly BuiltInTest[] {
    return this.#grading.builtInTests(scope);
  }

  /**
   * What one graded test says about the learner's mistake: `expected` is
   * the engine's stdout for the script, `actual` the learner's. `problem`:
   * the learner's code crashed, timed out or returned a bad value, so the
   * output names no mistake. `scope` `rules` leaves out the mistakes only a
   * whole program can make (default `program`). Pass the results of a run
   * to `diagnoseRun`.
   */
  testEvidence(
    script: string,
    expected: string,
    actual: string,
    options: { scope?: MistakeScope; problem?: boolean } = {},
  ): TestEvidence {
    return this.#grading.testEvidence(script, expected, actual, options.scope ?? 'program', options.problem ?? false);
  }

  /** The mistakes a run points to, from each test's evidence (undefined: not graded yet). */
  diagnoseRun(tests: readonly (TestEvidence | undefined)[]): RunDiagnosis {
    return this.#grading.diagnoseRun(tests);
  }

  /** The mistakes (usually one) whose stdout for `script` is exactly `stdout`. */
  nameMistakes(script: string, stdout: string): Mistake[] {
    return this.#grading.nameMistakes(script, stdout);
  }

  /**
   * A weight in `stdout` that is not a whole number (`b=2.5`, `b=NaN`) on a
   * line printed for one of the script's WEIGHTS, or null. No rule and no
   * classic mistake prints one: a problem to fix first, as `slowstart grade` says.
   */
  weightProblem(script: string, stdout: string): WeightProblem | null {
    return this.#grading.weightProblem(script, stdout);
  }

  /**
   * Runs a script with a ramp curve instead of the SPEC's rule. WEIGHTS then
   * prints internal weights (target × resolution × the curve's factor); a
   * script run's resolution is 1 unless the curve sets one (a simulation's is
   * the curve's own).
   */
  run(script: string | Uint8Array, curve: Curve, options: RunOptions = {}): RunResult {
    return this.#run(script, { curve }, options);
  }

  /** Runs a script with rules written in JavaScript; the engine still parses, holds the pool and prints. */
  runWithRules(script: string | Uint8Array, rules: ScriptRules, options: RunOptions = {}): RunResult {
    return this.#run(script, rules, options);
  }

  #run(script: string | Uint8Array, rules: RawRules, options: RunOptions): RunResult {
    const length = writeInput(this.#module, script);
    const view = raise(this.#module.runWithRules(length, options.timeline ?? true, rules));
    try {
      const raw = readRun(this.#module, view);
      if (typeof script === 'string') this.#utf16(length, raw.diagnosticLines, raw.diagnosticColumns);
      return toRunResult(raw);
    } finally {
      this.#module.releaseRun();
    }
  }

  /**
   * Simulates traffic through the script's scenario. Bad options throw; bad
   * script lines are in `diagnostics` and change nothing.
   */
  simulate(script: string | Uint8Array, options: TrafficOptions = {}): Traffic {
    const length = this.#writeScript(script);
    const raw = raise(this.#module.simulate(length, options));
    if (typeof script === 'string') this.#utf16(length, raw.diagnosticLines, raw.diagnosticColumns);
    return Traffic.fromRaw(raw);
  }

  /**
   * Reads a proxy's configuration (nginx, HAProxy, Envoy in YAML or JSON, a
   * Caddyfile, an ALB target group) into the pool and `slowstart simulate`'s
   * options, each with its line, and lists what the lab does not model
   * (docs/YOUR-SYSTEM.md). A file that cannot be read throws a
   * `SlowStartError` `FILE_REJECTED` with its line and column.
   */
  importConfig(text: string | Uint8Array, options: ImportOptions = {}): ImportedConfig {
    return importConfig(this.#module, text, options);
  }

  /**
   * Fits the lab's cold start to a canary restart's log: a CSV (t,
   * latency_ms, optionally in_flight) or, with `logFormat`, the proxy's own
   * access log (docs/YOUR-SYSTEM.md). Data that cannot decide comes back
   * with `refused`; a log that cannot be read throws `FILE_REJECTED`.
   */
  fitCanary(text: string | Uint8Array, options: CanaryFitOptions = {}): CanaryFit {
    return fitCanary(this.#module, text, options);
  }

  /**
   * Runs `slowstart simulate`, `fit` or `recommend` as both CLIs do (the
   * same bytes), on files given by name: `lab.command(['recommend', '--from',
   * 'haproxy.cfg', '--emit', 'haproxy', 'restart.txt'], { 'haproxy.cfg': text,
   * 'restart.txt': script })`. Nothing is read from a disk or the network; a
   * file not given is "cannot open". Bad arguments come back as the CLIs
   * say them (`err`, status 2), not thrown.
   */
  command(args: readonly string[], files: Readonly<Record<string, string | Uint8Array>> = {}): CommandResult {
    return runCommand(this.#module, args, files);
  }

  /**
   * What a simulation of `script` with `options` would cost, without running
   * it: the duration it would run (the default filled in), its requests,
   * rows and work, and `problem` (`tooLarge`) when it is over the work
   * budget, as `simulate` would throw. Cheap: one pass over the script. Bad
   * options throw.
   */
  simulationSize(script: string | Uint8Array, options: TrafficOptions = {}): SimulationSize {
    const length = this.#writeScript(script);
    return raise(this.#module.simulationSize(length, options));
  }

  /** The work budget every simulation is held to (the same from the CLIs). */
  simulationLimits(): SimulationLimits {
    return this.#module.simulationLimits();
  }

  // The script into the module's input buffer; one longer than the budget's
  // limit is refused before it is copied (a string's UTF-8 is at least as
  // long as its UTF-16 units).
  #writeScript(script: string | Uint8Array): number {
    const units = typeof script === 'string' ? script.length : script instanceof Uint8Array ? script.byteLength : 0;
    const max = this.#module.simulationLimits().scriptBytes;
    if (units > max) throw SlowStartError.of('TOO_LARGE', `script too large: more than ${max} bytes (at most ${max})`);
    return writeInput(this.#module, script);
  }

  /** The simulation's defaults: every option's, by its key (the service model, every health check's parameters). */
  trafficDefaults(): TrafficDefaults {
    return this.#module.trafficDefaults();
  }

  /**
   * The simulation's options, one table: what the CLI's `simulate --help`,
   * `--summary json`, {@link TrafficOptions} and this API's checks are made
   * from. A page can build its controls from it.
   */
  trafficOptionTable(): readonly TrafficOptionInfo[] {
    return this.#module.trafficOptionTable();
  }

  /**
   * The arguments of `slowstart simulate` that simulate with these options
   * (those not at their defaults, in the table's order), e.g.
   * `['--rps', '1536', '--health', 'envoy', ...]`: the engine writes them, so
   * both CLIs read them back as the same options. Bad options throw.
   */
  simulateArguments(options: TrafficOptions = {}): string[] {
    return raise(this.#module.simulateArguments(options));
  }

  // Diagnostics' columns in the string's units (the script's bytes are still in the input buffer).
  #utf16(length: number, lines: Uint32Array, columns: Uint32Array): void {
    toUtf16Columns(this.#module.inputBuffer(length), lines, columns);
  }

  /** @internal The raw module, for the CLI. */
  get module(): LabModule {
    return this.#module;
  }
}
