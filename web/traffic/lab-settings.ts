// The lab's settings and the simulation options they make: the share run,
// the least-request trap's two runs, and the flapping comparison's runs
// (which, and how each is set). Pure, so that the lab's worker builds the
// same options as the page (lab-plan.ts); the forms are traffic-controls.ts
// and option-form.ts (the flapping runs' every option, from the engine's
// option table).
import type { Curve, HealthCheck, Policy, TrafficDefaults, TrafficOptions } from '../api/index.js';

export interface TrafficSettings {
  curve: Required<Curve>;
  rps: number;
  /**
   * The comparison's load, in percent of what the busiest backend can serve
   * when warm once every backend has its full weight (trap-summary.ts).
   * Queues form only under real load, so it is shown at a load, not a rate.
   */
  trapLoad: number;
  policy: 'least-request' | 'wrr';
  coldFactor: number;
  warmup: number;
  /** The flapping comparison: its scenario, balancer, health check, timeout, retries, load and warmth. */
  flapScenario: 'rolling' | 'script';
  flapPolicy: Policy;
  rampBy: 'scale' | 'skip';
  health: HealthCheck['kind'];
  timeoutMs: number;
  retries: number;
  flapLoad: number;
  warmBy: 'serving' | 'time' | 'requests';
  /** `model`: service times, timeouts, retries and the health check; `instant`: routing only (nothing is in flight, nothing fails). */
  flapAnswers: 'model' | 'instant';
  /** What the runs compare: the cures (slow start, escalating ejection), or slow start's ramp by scale against by skip. */
  flapCompare: 'cures' | 'ramp-by';
  /**
   * The flapping runs' other options, by their key in the option table
   * ("service.baseMs", "health.consecutive5xx", "seed", "rps"...): only those
   * set (the rest are the engine's defaults, or the lab's choice: the rate
   * from Load %, the duration from the scenario).
   */
  flapOptions: Readonly<Record<string, OptionValue>>;
}

/** An option's value as the option form keeps it. */
export type OptionValue = number | string | boolean;

/**
 * The flapping runs' options that have a setting of their own (a preset sets
 * them, sentences name them), by their key in the option table: the option
 * form shows them with the others.
 */
export const FLAP_FIELDS = {
  policy: 'flapPolicy',
  rampBy: 'rampBy',
  timeoutMs: 'timeoutMs',
  retries: 'retries',
  'health.kind': 'health',
  'service.warmBy': 'warmBy',
} as const satisfies Record<string, keyof TrafficSettings>;

/** The values the flapping runs' option form shows: the settings' own (FLAP_FIELDS) and the others set. */
export function flapValues(s: TrafficSettings): Record<string, OptionValue> {
  const out: Record<string, OptionValue> = { ...s.flapOptions };
  for (const [key, field] of Object.entries(FLAP_FIELDS)) out[key] = s[field];
  return out;
}

/**
 * The settings with the option form's values: those of FLAP_FIELDS into
 * their settings (one the form leaves out is at the engine's default,
 * `defaultOf`), the others into flapOptions.
 */
export function withFlapValues(s: TrafficSettings, values: Readonly<Record<string, OptionValue>>, defaultOf: (key: string) => OptionValue): TrafficSettings {
  const next: TrafficSettings = { ...s, flapOptions: {} };
  const rest: Record<string, OptionValue> = {};
  for (const [key, value] of Object.entries(values)) if (!(key in FLAP_FIELDS)) rest[key] = value;
  for (const [key, field] of Object.entries(FLAP_FIELDS)) (next as unknown as Record<string, OptionValue>)[field] = values[key] ?? defaultOf(key);
  next.flapOptions = rest;
  return next;
}

/** Options as the API takes them, from values by key path ("service.baseMs": 300 → { service: { baseMs: 300 } }). */
export function optionsOf(values: Readonly<Record<string, OptionValue>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [path, value] of Object.entries(values)) {
    const parts = path.split('.');
    let at = out;
    for (const p of parts.slice(0, -1)) {
      if (typeof at[p] !== 'object' || at[p] === null) at[p] = {};
      at = at[p] as Record<string, unknown>;
    }
    at[parts[parts.length - 1]] = value;
  }
  return out;
}

export const DEFAULT_SETTINGS: TrafficSettings = {
  // Resolution 0: the curve's own, as the CLIs' and the API's default.
  curve: { kind: 'linear', resolution: 0, aggression: 1, minWeightPercent: 10 },
  rps: 1000,
  trapLoad: 60,
  policy: 'least-request',
  // The service model's defaults are the engine's (Lab.trafficDefaults):
  // TrafficControls.adoptDefaults sets these two once the lab has loaded.
  coldFactor: Number.NaN,
  warmup: Number.NaN,
  flapScenario: 'rolling',
  flapPolicy: 'wrr',
  rampBy: 'scale',
  health: 'envoy',
  timeoutMs: 1000,
  retries: 1,
  flapLoad: 60,
  warmBy: 'serving',
  flapAnswers: 'model',
  flapCompare: 'cures',
  flapOptions: {},
};

/** Simulation options from settings. */
export function shareOptions(s: TrafficSettings, bucket: number): TrafficOptions {
  return { rps: s.rps, bucket, curve: s.curve };
}

/**
 * The service model's settings that differ from the engine's defaults: one
 * not set yet (NaN), or set to the default, is left out, so that a run's
 * options (and the command line that reproduces it) say only what was chosen.
 */
function serviceOf(s: TrafficSettings, defaults?: TrafficDefaults): { coldFactor?: number; warmup?: number } {
  const out: { coldFactor?: number; warmup?: number } = {};
  if (!Number.isNaN(s.coldFactor) && s.coldFactor !== defaults?.service.coldFactor) out.coldFactor = s.coldFactor;
  if (!Number.isNaN(s.warmup) && s.warmup !== defaults?.service.warmup) out.warmup = s.warmup;
  return out;
}

/** One run of the flapping comparison: with slow start or not, escalating ejection or not, and how the ramp applies. */
export interface Cure {
  /** In sentences: "without slow start", "with slow start"... */
  label: string;
  /** Its panel's title. */
  title: string;
  slowStart: boolean;
  escalate: boolean;
  /** How the ramp applies, when the run says (else the setting's). */
  rampBy?: 'scale' | 'skip';
}

/** The four cures of the flapping comparison, in order. */
export const CURES: readonly Cure[] = [
  { label: 'without slow start', title: 'No slow start', slowStart: false, escalate: false },
  { label: 'with slow start', title: 'Slow start', slowStart: true, escalate: false },
  { label: 'with escalating ejection', title: 'Escalating ejection', slowStart: false, escalate: true },
  { label: 'with both', title: 'Both', slowStart: true, escalate: true },
];

/** Slow start two ways (the Caddy review's question), against none. */
export const RAMP_BY_RUNS: readonly Cure[] = [
  { label: 'without slow start', title: 'No slow start', slowStart: false, escalate: false },
  { label: 'ramping by scale', title: 'Slow start, ramp by scale', slowStart: true, escalate: false, rampBy: 'scale' },
  { label: 'ramping by skip', title: 'Slow start, ramp by skip', slowStart: true, escalate: false, rampBy: 'skip' },
];

/**
 * The runs the flapping comparison makes for these settings: the cures (all
 * four with Envoy's health check; nginx and HAProxy have no escalating
 * ejection, and instant answers no health check at all: the first two), or
 * slow start by scale and by skip.
 */
export function curesOf(s: TrafficSettings): readonly Cure[] {
  if (s.flapCompare === 'ramp-by') return RAMP_BY_RUNS;
  return s.health === 'envoy' && s.flapAnswers === 'model' ? CURES : CURES.slice(0, 2);
}

/** Options of the flapping runs that the lab sets itself (its rate, duration and bucket; each run's slow start) or takes from elsewhere (the curve, from the share's settings; the service model, from Answers). */
export const LAB_SET = new Set(['rps', 'duration', 'bucket', 'slowStart', 'service', 'curve.kind', 'curve.resolution', 'curve.aggression', 'curve.minWeightPercent']);

/**
 * One run of the flapping comparison: the options set (flapOptions and the
 * settings of FLAP_FIELDS) with the lab's rate, duration, bucket and curve,
 * and the run's own slow start. Escalating ejection is Envoy's
 * (base_ejection_time × times ejected); without it the ejection time is
 * base_ejection_time every time (max_ejection_time = base_ejection_time).
 * Instant answers: routing only (no service model, so no timeout, retry or
 * health check).
 */
export function flapOptions(rps: number, duration: number, bucket: number, s: TrafficSettings, cure: Cure, defaults: TrafficDefaults): TrafficOptions {
  const set = optionsOf(Object.fromEntries(Object.entries(s.flapOptions).filter(([k]) => !LAB_SET.has(k)))) as TrafficOptions & { service?: Record<string, unknown>; health?: Record<string, unknown> };
  const { service, health: healthSet, timeoutMs: _t, retries: _r, stableMargin, ...routingSet } = set;
  const routing: TrafficOptions = { ...routingSet, rps, duration, bucket, curve: s.curve, policy: s.flapPolicy, rampBy: cure.rampBy ?? s.rampBy, slowStart: cure.slowStart };
  if (s.flapAnswers === 'instant') return routing;
  const health = { ...healthSet, kind: s.health } as HealthCheck;
  // Current Envoy ejects a host only while (ejected + 1) / hosts stays within
  // max_ejection_percent (10 %): none of fewer than 10 hosts. Unless the form
  // says otherwise, the flapping comparison sets always_eject_one_host
  // (Envoy 1.31+) so that the one restarted host may go, and says so.
  if (s.health === 'envoy' && health.alwaysEjectOneHost === undefined) health.alwaysEjectOneHost = true;
  if (s.health === 'envoy' && !cure.escalate) health.maxEjectionTime = (health.baseEjectionTime as number | undefined) ?? defaults.health.baseEjectionTime;
  const out: TrafficOptions = { ...routing, service: { ...(service as object), warmBy: s.warmBy }, timeoutMs: s.timeoutMs, retries: s.retries, health };
  if (stableMargin !== undefined) out.stableMargin = stableMargin;
  return out;
}

export function trapOptions(rps: number, s: TrafficSettings, bucket: number, slowStart: boolean, defaults?: TrafficDefaults): TrafficOptions {
  return {
    rps,
    bucket,
    curve: s.curve,
    policy: s.policy,
    slowStart,
    service: serviceOf(s, defaults),
  };
}
