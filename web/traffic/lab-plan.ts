// What the lab simulates for one script and one set of settings, in order:
//   1. share: the script at Requests/s, under the chosen curve;
//   2. trap:  the script without and with slow start, with the service model,
//             at Load % of the busiest backend's warm capacity;
//   3. flap:  the flapping scenario (the built-in rolling restart or the
//             script) with timeouts, retries and a health check, once per cure.
// Each section is handed on as soon as its runs are done, so the page draws
// the first while the worker computes the next. The same code runs in the
// lab's worker (lab-worker.ts) and, where no worker can start, on the page.
// Every simulation goes through `sim`, which may throw to cancel the plan
// (a newer one has begun).
import type { Curve, SimulationSize, Traffic, TrafficDefaults, TrafficOptionInfo, TrafficOptions } from '../api/index.js';
import { curesOf, flapOptions, shareOptions, trapOptions, type Cure, type TrafficSettings } from './lab-settings.js';
import type { ScenarioEvent } from './scenario-events.js';
import { trapRate, warmCapacity } from './trap-summary.js';

/** At most this many simulated requests per run keeps a run short (and the page's share of it small). */
export const MAX_INTERACTIVE_REQUESTS = 3_000_000;
/**
 * At most this much work per run (the engine's work budget's steps,
 * `Lab.simulationSize`): 1,000,000 requests with the service model, or
 * 3,000,000 without (the requests' own cap), a fifth of a second or so. A
 * pick that scans many backends costs more steps a request, so gets fewer
 * requests.
 */
export const MAX_INTERACTIVE_STEPS = 100_000_000;

/** The flapping comparison's default scenario: a rolling restart of one backend of a small pool. */
export const ROLLING_RESTART = `# A rolling restart of b in a pool of four: b stops at 30 s
# and comes back at 40 s with a 60 s ramp, cold.
POOL a=1 b=1 c=1 d=1
NOW 30
DOWN b
NOW 40
UP b 60
`;
/** Seconds the flapping comparison runs the rolling restart (long enough for Envoy's escalation to show). */
export const FLAP_SECONDS = 300;

/** A run of the plan: the options it was simulated with, the same as `slowstart simulate`'s arguments (what "Copy as command" says), and its result. */
export interface PlanRun {
  options: TrafficOptions;
  args: string[];
  traffic: Traffic;
}

/** A section of a plan, its runs of type R (PlanRun on either side; the wire's form in a message). */
export type SectionOf<R> =
  | {
      kind: 'share';
      run: R;
      /** The editor's script (the share and trap runs simulate it). */
      script: string;
      /** The rate asked for (the run's may be lower: a run is kept short). */
      askedRps: number;
      events: ScenarioEvent[];
    }
  | { kind: 'trap'; without: R; with: R; rps: number; script: string }
  | {
      kind: 'flap';
      /** What each run is (curesOf: the four cures with Envoy's check, two with nginx's or HAProxy's or instant answers; or the ramp two ways). */
      cures: readonly Cure[];
      /** In the order of `cures`. */
      runs: R[];
      rps: number;
      duration: number;
      /** The scenario's script (the rolling restart's, or the editor's). */
      script: string;
      events: ScenarioEvent[];
    }
  /** A section that could not run (a bad setting, a scenario too large): why. */
  | { kind: 'problem'; section: 'share' | 'trap' | 'flap'; message: string };

export type Section = SectionOf<PlanRun>;

/** The same section with each run passed through `f`. */
export function mapRuns<A, B>(s: SectionOf<A>, f: (run: A) => B): SectionOf<B> {
  switch (s.kind) {
    case 'share':
      return { ...s, run: f(s.run) };
    case 'trap':
      return { ...s, without: f(s.without), with: f(s.with) };
    case 'flap':
      return { ...s, runs: s.runs.map(f) };
    case 'problem':
      return s;
  }
}

export interface Simulator {
  simulate(script: string, options: TrafficOptions): Promise<Traffic>;
  /** The options as `slowstart simulate`'s arguments. */
  arguments(options: TrafficOptions): string[];
  /** What a simulation would cost, without running it (one pass over the script). */
  size(script: string, options: TrafficOptions): SimulationSize;
  /** The script's events (scenario-events.ts) under a curve. */
  events(script: string, curve: Curve): Promise<ScenarioEvent[]>;
  readonly defaults: TrafficDefaults;
  /** The engine's option table (Lab.trafficOptionTable). */
  readonly table: readonly TrafficOptionInfo[];
}

const NICE_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600];
/** A run keeps at most this many buckets, and this many buckets × backends. */
export const MAX_BUCKETS = 3000;
export const MAX_CELLS = 600_000;
/** Each bucket gets at least this many requests (a share of fewer is mostly rounding). */
const MIN_REQUESTS_PER_BUCKET = 20;

/**
 * The bucket a run is simulated at: as fine as the limits allow, so that a
 * lane shows every ejection and readmission to a tenth of a second over a
 * five-minute run (the charts add buckets up to the pixels they have, and
 * again when the time axis is zoomed). Never coarser than 200 buckets.
 */
export function runBucket(duration: number, rps: number, backends: number): number {
  const coarsest = duration / 200; // (the requests' rule gives way to this one)
  const least = Math.max(
    duration / MAX_BUCKETS,
    Math.min(MIN_REQUESTS_PER_BUCKET / rps, coarsest),
    (duration * Math.max(1, backends)) / MAX_CELLS, // (and this one to none)
  );
  for (const b of NICE_BUCKETS) if (b >= least - 1e-12) return b;
  return Math.ceil(least / 3600) * 3600;
}

/**
 * The most backends the lab draws. Each backend is a band, a lane and a
 * line on the page, and every pick of wrr scans them all: a pool of 100,000
 * took 23 s of simulation in the worker and minutes of drawing. The CLI
 * runs any pool the engine's budget allows.
 */
export const MAX_LAB_BACKENDS = 10_000;

/** How long the script runs by itself (until 10 s past its last ramp), and its backends: the engine's estimate, nothing simulated. */
function measure(sim: Simulator, script: string, curve: Curve): { duration: number; backends: number } {
  const z = sim.size(script, { curve });
  if (z.backends > MAX_LAB_BACKENDS)
    throw new Error(`The lab draws at most ${MAX_LAB_BACKENDS.toLocaleString('en-US')} backends; this pool has ${z.backends.toLocaleString('en-US')} (slowstart simulate runs it).`);
  return { duration: z.duration, backends: z.backends };
}

/**
 * The highest rate up to `wanted` (requests a second, possibly below 1) at
 * which a simulation of `script` with `options` stays within the
 * interactive caps, from the engine's own estimate of its work. However long
 * the scenario runs, the run stays small: the rate falls, never the caps
 * (a rate of at least 1 a second once made a script with `NOW 999999000`
 * run a billion requests).
 */
export function interactiveRate(sim: Pick<Simulator, 'size'>, script: string, options: TrafficOptions, wanted: number): number {
  const full = sim.size(script, { ...options, rps: wanted });
  if (full.requests <= MAX_INTERACTIVE_REQUESTS && full.steps <= MAX_INTERACTIVE_STEPS) return wanted;
  const byRequests = Math.min(wanted, MAX_INTERACTIVE_REQUESTS / full.duration);
  // The work grows with the rate from what a run costs with no requests at
  // all (its rows); when that alone is over the cap, the rows are what they
  // are (and the engine says if they are over its budget).
  const idle = sim.size(script, { ...options, rps: wanted * 1e-12 }).steps;
  if (idle >= MAX_INTERACTIVE_STEPS) return byRequests;
  const perRate = Math.max(full.steps - idle, Number.MIN_VALUE) / wanted;
  return Math.min(byRequests, (MAX_INTERACTIVE_STEPS - idle) / perRate);
}

/**
 * The rate and bucket of a run whose other options are `of(rps, bucket)`:
 * the rate capped (interactiveRate, at the bucket the wanted rate would
 * have), then the bucket for that rate (a lower rate, a coarser bucket:
 * never more work).
 */
function rateAndBucket(sim: Simulator, script: string, wanted: number, duration: number, backends: number, of: (rps: number, bucket: number) => TrafficOptions) {
  const rps = interactiveRate(sim, script, of(wanted, runBucket(duration, wanted, backends)), wanted);
  return { rps, bucket: runBucket(duration, rps, backends) };
}

/** A run of `script` with `options`, and its command line. */
const runOf = async (sim: Simulator, script: string, options: TrafficOptions): Promise<PlanRun> => ({
  options,
  args: sim.arguments(options),
  traffic: await sim.simulate(script, options),
});

export async function runPlan(script: string, s: TrafficSettings, sim: Simulator, emit: (section: Section) => void): Promise<void> {
  const capacity = warmCapacity(sim.defaults);
  let share: PlanRun | null = null;
  try {
    const { duration, backends } = measure(sim, script, s.curve);
    const { rps, bucket } = rateAndBucket(sim, script, s.rps, duration, backends, (r, b) => shareOptions({ ...s, rps: r }, b));
    const options = shareOptions({ ...s, rps }, bucket);
    share = await runOf(sim, script, options);
    emit({ kind: 'share', run: share, script, askedRps: s.rps, events: await sim.events(script, s.curve) });
  } catch (e) {
    if (isCancel(e)) throw e;
    emit({ kind: 'problem', section: 'share', message: (e as Error).message });
  }
  if (share) {
    try {
      const t = share.traffic;
      const wanted = trapRate(t, s.trapLoad, capacity).rps;
      // (one rate for both runs, the lower of their caps: they compare at the same load)
      const rps = Math.min(...[false, true].map((on) => rateAndBucket(sim, script, wanted, t.duration, t.names.length, (r, b) => trapOptions(r, s, b, on, sim.defaults)).rps));
      const bucket = runBucket(t.duration, rps, t.names.length);
      const [without, withRamp] = [false, true].map((slowStart) => trapOptions(rps, s, bucket, slowStart, sim.defaults));
      emit({
        kind: 'trap',
        without: await runOf(sim, script, without),
        with: await runOf(sim, script, withRamp),
        rps,
        script,
      });
    } catch (e) {
      if (isCancel(e)) throw e;
      emit({ kind: 'problem', section: 'trap', message: (e as Error).message });
    }
  }
  await runFlapping(s.flapScenario === 'rolling' ? ROLLING_RESTART : script, s, sim, emit);
}

// The flapping comparison: the scenario at Load % of the busiest backend's
// warm capacity, once per cure.
async function runFlapping(script: string, s: TrafficSettings, sim: Simulator, emit: (section: Section) => void): Promise<void> {
  try {
    const natural = measure(sim, script, s.curve);
    const set = s.flapOptions;
    const duration = typeof set.duration === 'number' ? set.duration : s.flapScenario === 'rolling' ? FLAP_SECONDS : Math.max(natural.duration, 120);
    // A routing-only probe tells the busiest backend's weight, so the rate that makes Load %.
    const probeOf = (r: number, b: number): TrafficOptions => ({ rps: r, duration, bucket: b, curve: s.curve });
    const probeRate = rateAndBucket(sim, script, 100, duration, natural.backends, probeOf);
    const probe = await sim.simulate(script, probeOf(probeRate.rps, probeRate.bucket));
    // (a rate set in the option form wins over Flapping load %)
    const wanted = typeof set.rps === 'number' ? set.rps : trapRate(probe, s.flapLoad, warmCapacity(sim.defaults)).rps;
    const cures = curesOf(s);
    // (one rate for every run, the lowest of their caps)
    const rps = Math.min(...cures.map((cure) => rateAndBucket(sim, script, wanted, duration, natural.backends, (r, b) => flapOptions(r, duration, b, s, cure, sim.defaults)).rps));
    const bucket = runBucket(duration, rps, natural.backends);
    const runs: PlanRun[] = [];
    for (const cure of cures) {
      runs.push(await runOf(sim, script, flapOptions(rps, duration, bucket, s, cure, sim.defaults)));
    }
    emit({ kind: 'flap', cures, runs, rps, duration, script, events: await sim.events(script, s.curve) });
  } catch (e) {
    if (isCancel(e)) throw e;
    emit({ kind: 'problem', section: 'flap', message: (e as Error).message });
  }
}

/** What a Simulator throws to stop a plan that a newer one replaced. */
export class PlanCancelled extends Error {
  constructor() {
    super('replaced by a newer run');
  }
}

const isCancel = (e: unknown) => e instanceof PlanCancelled;
