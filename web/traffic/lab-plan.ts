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
import type { Curve, Traffic, TrafficDefaults, TrafficOptions } from '../api/index.js';
import { curesOf, flapOptions, shareOptions, trapOptions, type Cure, type TrafficSettings } from './lab-settings.js';
import type { ScenarioEvent } from './scenario-events.js';
import { trapRate, warmCapacity } from './trap-summary.js';

/** At most this many simulated requests per run keeps a run short (and the page's share of it small). */
export const MAX_INTERACTIVE_REQUESTS = 3_000_000;

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
  /** The script's events (scenario-events.ts) under a curve. */
  events(script: string, curve: Curve): Promise<ScenarioEvent[]>;
  readonly defaults: TrafficDefaults;
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

/** How long the script runs by itself (until 10 s past its last ramp), and its backends, from a cheap pass. */
async function measure(sim: Simulator, script: string, curve: Curve): Promise<{ duration: number; backends: number }> {
  const t = await sim.simulate(script, { rps: 1, bucket: 1e9, curve });
  return { duration: t.duration, backends: t.names.length };
}

/** A run of `script` with `options`, and its command line. */
const runOf = async (sim: Simulator, script: string, options: TrafficOptions): Promise<PlanRun> => ({
  options,
  args: sim.arguments(options),
  traffic: await sim.simulate(script, options),
});

const capRate = (rps: number, duration: number) => Math.max(1, Math.min(rps, Math.floor(MAX_INTERACTIVE_REQUESTS / Math.max(duration, 1e-9))));

export async function runPlan(script: string, s: TrafficSettings, sim: Simulator, emit: (section: Section) => void): Promise<void> {
  const capacity = warmCapacity(sim.defaults);
  let share: PlanRun | null = null;
  try {
    const { duration, backends } = await measure(sim, script, s.curve);
    const rps = capRate(s.rps, duration);
    const options = shareOptions({ ...s, rps }, runBucket(duration, rps, backends));
    share = await runOf(sim, script, options);
    emit({ kind: 'share', run: share, script, askedRps: s.rps, events: await sim.events(script, s.curve) });
  } catch (e) {
    if (isCancel(e)) throw e;
    emit({ kind: 'problem', section: 'share', message: (e as Error).message });
  }
  if (share) {
    try {
      const t = share.traffic;
      const rps = capRate(trapRate(t, s.trapLoad, capacity).rps, t.duration);
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
    const natural = await measure(sim, script, s.curve);
    const duration = s.flapScenario === 'rolling' ? FLAP_SECONDS : Math.max(natural.duration, 120);
    const probe = await sim.simulate(script, { rps: 100, duration, bucket: runBucket(duration, 100, natural.backends), curve: s.curve });
    const rps = capRate(trapRate(probe, s.flapLoad, warmCapacity(sim.defaults)).rps, duration);
    const bucket = runBucket(duration, rps, natural.backends);
    const cures = curesOf(s);
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
