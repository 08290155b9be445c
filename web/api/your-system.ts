/**
 * Your own system (docs/YOUR-SYSTEM.md): a proxy's configuration read into
 * the lab's pool and options, and a canary restart's log fitted to the
 * lab's cold start. Everything is the engine's (cpp/system/ through the lab
 * module's system_bindings.cpp); this file types it and turns its problems
 * into `SlowStartError`s. Used through {@link Lab.importConfig},
 * {@link Lab.fitCanary} and {@link Lab.command}.
 */
import type { LabModule } from '../wasm/lab.mjs';
import { SlowStartError } from './errors.js';
import { writeInput } from './wasm-io.js';

/** The configurations the lab reads. */
export type ConfigFormat = 'nginx' | 'haproxy' | 'envoy' | 'caddy' | 'alb';
/** The access logs `fitCanary` reads. */
export type LogFormat = 'nginx' | 'haproxy' | 'envoy';

/** Options of {@link Lab.importConfig}. */
export interface ImportOptions {
  /** The file's format; default: told from the text. */
  format?: ConfigFormat;
  /** The upstream, backend, cluster or Caddy site to read; default: the one in use with two servers or more. */
  pool?: string;
}

/** A server of the file, as the script names it. */
export interface ImportedServer {
  /** The server's name as the script may use it (`DOWN a`). */
  name: string;
  /** Its weight in the file (1 where the file gives none). */
  weight: number;
  /** It starts DOWN (nginx `down`, HAProxy `disabled`, Envoy UNHEALTHY or DRAINING). */
  down: boolean;
  /** The file's line that names it. */
  line: number;
}

/** One `slowstart simulate` option as the file sets it. */
export interface ImportedSetting {
  /** The flag without its dashes: `timeout-ms`. */
  option: string;
  /** As the command line takes it ('' for a switch). */
  value: string;
  /** The file's line that set it. */
  line: number;
  /** What the file says there (or the software's default it stands for). */
  source: string;
}

/** A line of the file and what about it. */
export interface ConfigNote {
  /** The file's line. */
  line: number;
  /** What about it, in words. */
  text: string;
}

/** What a proxy's configuration became (`slowstart simulate --from FILE --explain`). */
export interface ImportedConfig {
  /** The format read (given, or detected). */
  format: ConfigFormat;
  /** The upstream, backend, cluster or site read. */
  pool: string;
  /** Its servers, in the file's order. */
  servers: ImportedServer[];
  /** Each `simulate` option the file sets, with its line. */
  settings: ImportedSetting[];
  /** Directives the lab does not model, each with its line. */
  ignored: ConfigNote[];
  /** How things were read: approximations, proposals, choices between servers that disagree. */
  notes: ConfigNote[];
  /** The script lines that build the pool at time 0: `POOL a=1 b=2`, then a `DOWN` per server that starts down. */
  script: string;
  /** The settings as `slowstart simulate` arguments, in the file's order. */
  args: string[];
}

/** Options of {@link Lab.fitCanary}. */
export interface CanaryFitOptions {
  /** Read the proxy's own access log; default: a CSV (t, latency_ms, optionally in_flight). */
  logFormat?: LogFormat;
  /** The canary's address or name in the access log; default: its only backend. */
  backend?: string;
  /** When the canary started, seconds since 1970; default: its first request. */
  started?: number;
  /** The bootstrap's seed (default 1). */
  seed?: number;
}

/** A 95 % band. */
export type Band = [low: number, high: number];

/** The cold start fitted (`slowstart fit --json`), or why the data cannot decide. */
export interface CanaryFit {
  /** Why the data cannot decide (too few rows, no warm phase, queueing); the other numbers are then absent. */
  refused?: string;
  /** Rows of the log read. */
  rows: number;
  /** Seconds from the first row to the last. */
  spanS?: number;
  /** Warm service time, ms. */
  serviceMs?: number;
  /** Its 95 % band. */
  serviceMsBand?: Band;
  /** A cold start was found (else latency does not fall: cold factor 1). */
  coldStart?: boolean;
  /** The first request's service time over the warm one. */
  coldFactor?: number;
  /** Its 95 % band. */
  coldFactorBand?: Band;
  /** What explains the data better (`time` when they cannot be told apart). */
  warmBy?: 'time' | 'requests';
  /** Warm-up in seconds (by time). */
  warmup?: number;
  /** Its 95 % band. */
  warmupBand?: Band;
  /** Warm-up in requests (by requests). */
  warmupRequests?: number;
  /** Its 95 % band. */
  warmupRequestsBand?: Band;
  /** `time` or `requests` when one explains the data clearly better, else null. */
  better?: 'time' | 'requests' | null;
  /** The better model's log-likelihood minus the other's. */
  logLikelihoodGap?: number;
  /** Residuals against requests in flight (above 0.3: a queue, refused). */
  queueCorrelation?: number;
  /** Bootstrap resamples behind the bands. */
  resamples?: number;
  /** The `simulate` options to pass. */
  options?: string;
  /** What was fitted, in words (`slowstart fit`'s standard error). */
  summary: string;
  /** The rows fitted, in order of t: seconds since the start and latency (for a chart). */
  t: Float64Array;
  /** Each row's latency, ms (in the order of `t`). */
  latencyMs: Float64Array;
}

/** The fitted model's latency at `x` (seconds since the start, or requests started before), ms. */
export function coldLatency(fit: CanaryFit, x: number): number {
  const base = fit.serviceMs ?? 0;
  if (!fit.coldStart) return base;
  const warmup = fit.warmBy === 'requests' ? (fit.warmupRequests ?? 1) : (fit.warmup ?? 0);
  const coldness = warmup > 0 ? Math.max(0, 1 - x / warmup) : 0;
  return base * (1 + ((fit.coldFactor ?? 1) - 1) * coldness);
}

function checkText(name: string, text: unknown): asserts text is string | Uint8Array {
  if (typeof text !== 'string' && !(text instanceof Uint8Array))
    throw SlowStartError.of('WRONG_TYPE', `${name} must be a string or a Uint8Array, got ${text === null ? 'null' : typeof text}`);
}

/** @internal {@link Lab.importConfig} */
export function importConfig(module: LabModule, text: string | Uint8Array, options: ImportOptions = {}): ImportedConfig {
  checkText('configuration', text);
  const length = writeInput(module, text);
  const raw = module.importConfig(length, options.format ?? '', options.pool ?? '');
  if (raw instanceof Error) {
    const at = raw as Error & { line?: number; column?: number };
    if (at.line === undefined) throw SlowStartError.of('INVALID_ARGUMENT', raw.message);
    throw SlowStartError.inFile(raw.message, at.line, at.column ?? 0);
  }
  const args: string[] = [];
  for (const s of raw.settings) {
    args.push(`--${s.option}`);
    if (s.value !== '') args.push(s.value);
  }
  return { ...raw, args };
}

/** @internal {@link Lab.fitCanary} */
export function fitCanary(module: LabModule, text: string | Uint8Array, options: CanaryFitOptions = {}): CanaryFit {
  checkText('log', text);
  const length = writeInput(module, text);
  const raw = module.fitCanary(length, options);
  if (raw instanceof Error) {
    const at = /^line (\d+): /.exec(raw.message);
    if (at) throw SlowStartError.inFile(raw.message.slice(at[0].length), Number(at[1]), 0);
    if (/^(log format|--)/.test(raw.message)) throw SlowStartError.of('INVALID_ARGUMENT', raw.message);
    throw SlowStartError.inFile(raw.message, 0, 0);
  }
  const j = JSON.parse(raw.json) as Record<string, unknown>;
  if (typeof j.refused === 'string') return { refused: j.refused, rows: j.rows as number, summary: raw.summary, t: raw.t, latencyMs: raw.latencyMs };
  return {
    rows: j.rows as number,
    spanS: j.span_s as number,
    serviceMs: j.service_ms as number,
    serviceMsBand: j.service_ms_band as Band,
    coldStart: j.cold_start as boolean,
    coldFactor: j.cold_factor as number,
    coldFactorBand: j.cold_factor_band as Band,
    warmBy: j.warm_by as 'time' | 'requests',
    warmup: j.warmup as number,
    warmupBand: j.warmup_band as Band,
    warmupRequests: j.warmup_requests as number,
    warmupRequestsBand: j.warmup_requests_band as Band,
    better: j.better as 'time' | 'requests' | null,
    logLikelihoodGap: j.log_likelihood_gap as number,
    queueCorrelation: j.queue_correlation as number,
    resamples: j.resamples as number,
    options: j.options as string,
    summary: raw.summary,
    t: raw.t,
    latencyMs: raw.latencyMs,
  };
}

/** The commands {@link Lab.command} runs. */
export type SystemCommandName = 'simulate' | 'fit' | 'recommend';

/** What a command printed, as the CLIs print it. */
export interface CommandResult {
  /** What the command printed on standard output. */
  out: string;
  /** What it printed on standard error. */
  err: string;
  /** The CLIs' exit status (0 done; 1 recommend found no window, fit could not decide; 2 bad input). */
  status: number;
}

/** @internal {@link Lab.command} */
export function runCommand(
  module: LabModule,
  args: readonly string[],
  files: Readonly<Record<string, string | Uint8Array>> = {},
): CommandResult {
  if (!Array.isArray(args) || args.some((a) => typeof a !== 'string'))
    throw SlowStartError.of('WRONG_TYPE', 'command arguments must be an array of strings');
  const [name, ...rest] = args;
  if (name !== 'simulate' && name !== 'fit' && name !== 'recommend')
    throw SlowStartError.of('INVALID_ARGUMENT', `command must be simulate, fit or recommend, got ${JSON.stringify(name ?? '')}`);
  for (const [file, text] of Object.entries(files)) checkText(`file ${JSON.stringify(file)}`, text);
  // Only the files given: nothing is read from a disk or the network.
  const read = (path: string, maxBytes: number): Uint8Array | string => {
    const text = Object.prototype.hasOwnProperty.call(files, path) ? files[path] : undefined;
    if (text === undefined) return `cannot open '${path}': no such file (give it in files)`;
    const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
    return bytes.length > maxBytes ? bytes.subarray(0, maxBytes) : bytes;
  };
  const run = name === 'simulate' ? module.simulateCommand : name === 'fit' ? module.fitCommand : module.recommendCommand;
  return run(rest, read);
}
