// The Traffic view: what the script's scenario means for real requests.
//  - Share of requests over time, stacked, under a chosen ramp curve and
//    weight resolution (the granularity problem made visible), with each
//    backend's state lane under it.
//  - The least-request trap: the same scenario with cold backends, side by
//    side without and with slow start.
//  - Flapping and its cures: requests time out, a balancer's passive health
//    check ejects the cold backend and readmits it; the same scenario with no
//    slow start, slow start, escalating ejection and both.
// Opt-in and lazy: the lab module (the simulation) loads the first time the
// view is shown. The script's own output is not affected.
import type { Lab, Traffic, TrafficDefaults, TrafficOptions } from '../api/index.js';
import { h, setText } from '../shared/dom.js';
import { MAX_SERIES, seriesClasses } from '../shared/palette.js';
import { BucketChart, type BucketSeries } from './bucket-chart.js';
import { flapSummary, runFacts } from './flap-summary.js';
import { StateLanes } from './state-lanes.js';
import { CURES, DEFAULT_SETTINGS, flapOptions, shareOptions, TrafficControls, trapOptions, type TrafficSettings } from './traffic-controls.js';
import { sameRouting, trapRate, trapSummary, warmCapacity } from './trap-summary.js';
import { YourSystemPanel } from './your-system-panel.js';

export interface TrafficViewOptions {
  /** Loads the lab module (called once, when first needed). */
  lab: () => Promise<Lab>;
  /** Heading level of the view's sections (default 3). */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
}

/** At most this many simulated requests per run keeps the page interactive. */
export const MAX_INTERACTIVE_REQUESTS = 3_000_000;
/**
 * At most this much work per run (the engine's work budget's steps,
 * `Lab.simulationSize`): 1,000,000 requests with the service model, or
 * 3,000,000 without (the requests' own cap), a fifth of a second or so. A
 * pick that scans many backends costs more steps a request, so gets fewer
 * requests.
 */
export const MAX_INTERACTIVE_STEPS = 100_000_000;

/**
 * The highest rate up to `wanted` (requests a second, possibly below 1) at
 * which one simulation of `script` with `options` stays within the
 * interactive caps, from the engine's own estimate of its work. However long
 * the scenario runs, the run stays small: the rate falls, never the caps
 * (a rate of at least 1 a second once made a script with `NOW 999999000`
 * run a billion requests on the page thread).
 */
export function interactiveRate(lab: Lab, script: string, options: TrafficOptions, wanted: number): number {
  const full = lab.simulationSize(script, { ...options, rps: wanted });
  if (full.requests <= MAX_INTERACTIVE_REQUESTS && full.steps <= MAX_INTERACTIVE_STEPS) return wanted;
  const byRequests = Math.min(wanted, MAX_INTERACTIVE_REQUESTS / full.duration);
  // The work grows with the rate from what a run costs with no requests at
  // all (its rows); when that alone is over the cap, the rows are what they
  // are (and the engine says if they are over its budget).
  const idle = lab.simulationSize(script, { ...options, rps: wanted * 1e-12 }).steps;
  if (idle >= MAX_INTERACTIVE_STEPS) return byRequests;
  const perRate = Math.max(full.steps - idle, Number.MIN_VALUE) / wanted;
  return Math.min(byRequests, (MAX_INTERACTIVE_STEPS - idle) / perRate);
}

/** A request rate for a sentence: 1,536 or, below 1 a second, in two figures: 0.0031. */
export function rateText(rps: number): string {
  return rps >= 1 ? Math.round(rps).toLocaleString('en-US') : String(Number(rps.toPrecision(2)));
}

/** The flapping comparison's default scenario: a rolling restart of one backend of a small pool. */
export const ROLLING_RESTART = `# A rolling restart of b in a pool of four: b stops at 30 s
# and comes back at 40 s with a 60 s ramp, cold.
POOL a=1 b=1 c=1 d=1
NOW 30
DOWN b
NOW 40
UP b 60
`;
/** Seconds the flapping comparison runs (long enough for Envoy's escalation to show). */
export const FLAP_SECONDS = 300;

/** A bucket width giving 80 to 200 buckets: 0.25, 0.5, 1, 2, 5, 10 s... */
export function chooseBucket(duration: number): number {
  for (const b of [0.25, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600]) if (duration / b <= 200) return b;
  return Math.ceil(duration / 200 / 3600) * 3600;
}

function sharesOf(t: Traffic): { series: BucketSeries[]; rest: Float64Array } {
  const series = t.names.map((name, id) => {
    const values = new Float64Array(t.buckets);
    for (let k = 0; k < t.buckets; k++) values[k] = t.share(k, id);
    return { id, name, values };
  });
  const rest = new Float64Array(t.buckets);
  for (let k = 0; k < t.buckets; k++) rest[k] = t.total[k] ? t.unrouted[k] / t.total[k] : 0;
  return { series, rest };
}

function latencyOf(t: Traffic): BucketSeries[] {
  const n = t.names.length;
  return t.names.map((name, id) => {
    const values = new Float64Array(t.buckets);
    for (let k = 0; k < t.buckets; k++) values[k] = t.latencyMs[k * n + id];
    return { id, name, values };
  });
}

function peak(t: Traffic): { id: number; ms: number } {
  let best = { id: -1, ms: 0 };
  const n = t.names.length;
  for (let k = 0; k < t.buckets; k++)
    for (let id = 0; id < n; id++) if (t.latencyMs[k * n + id] > best.ms) best = { id, ms: t.latencyMs[k * n + id] };
  return best;
}

// One run of the flapping comparison: shares, state lanes, numbers.
class FlapSide {
  readonly element: HTMLElement;
  readonly share: BucketChart;
  readonly lanes: StateLanes;
  readonly summary: HTMLParagraphElement;
  constructor(parent: HTMLElement, title: string, level: number) {
    const doc = parent.ownerDocument;
    this.element = h(doc, 'section', { class: 'ss-flap-side' });
    this.element.append(h(doc, `h${level}` as 'h4', { class: 'ss-trap-title', text: title }));
    this.share = new BucketChart(this.element, `${title}: share of requests over time`, 140);
    this.lanes = new StateLanes(this.element, `${title}: each backend's state over time`);
    this.summary = h(doc, 'p', { class: 'ss-trap-summary' });
    this.element.append(this.summary);
    parent.append(this.element);
  }
}

class TrapSide {
  readonly share: BucketChart;
  readonly latency: BucketChart;
  readonly summary: HTMLParagraphElement;
  constructor(parent: HTMLElement, title: string, level: number) {
    const doc = parent.ownerDocument;
    const box = h(doc, 'section', { class: 'ss-trap-side' });
    box.append(h(doc, `h${level}` as 'h4', { class: 'ss-trap-title', text: title }));
    box.append(h(doc, 'p', { class: 'ss-chart-caption', text: 'Share of requests' }));
    this.share = new BucketChart(box, `${title}: share of requests over time`, 150);
    box.append(h(doc, 'p', { class: 'ss-chart-caption', text: 'Mean latency of the requests that arrived, per backend' }));
    this.latency = new BucketChart(box, `${title}: mean latency over time`, 150);
    this.summary = h(doc, 'p', { class: 'ss-trap-summary' });
    box.append(this.summary);
    parent.append(box);
  }
}

const HEALTH_NAMES = { nginx: 'nginx max_fails / fail_timeout', haproxy: 'HAProxy observe layer7 / error-limit', envoy: 'Envoy outlier detection' } as const;

export class TrafficView {
  readonly element: HTMLElement;
  readonly #options: TrafficViewOptions;
  readonly #controls: TrafficControls;
  readonly #status: HTMLParagraphElement;
  readonly #shareChart: BucketChart;
  readonly #legend: HTMLUListElement;
  readonly #without: TrapSide;
  readonly #with: TrapSide;
  readonly #trapNote: HTMLParagraphElement;
  readonly #trapIntro: HTMLParagraphElement;
  readonly #shareNote: HTMLParagraphElement;
  readonly #lanes: StateLanes;
  readonly #flapSides: FlapSide[];
  readonly #flapNote: HTMLParagraphElement;
  readonly #flapStatus: HTMLParagraphElement;
  /** The "Your system" panel: a proxy's configuration and a canary's log in, a window and settings out. */
  readonly system: YourSystemPanel;
  #defaults: TrafficDefaults | null = null;
  #flap: Traffic[] = [];
  #lab: Promise<Lab> | null = null;
  #shown = DEFAULT_SETTINGS.rps; // the request rate the share chart shows
  #last: { share: Traffic; without: Traffic; with: Traffic } | null = null;
  #script = '';
  #visible = false;
  #stale = true;
  #generation = 0;

  constructor(parent: HTMLElement, options: TrafficViewOptions) {
    const doc = parent.ownerDocument;
    this.#options = options;
    const level = options.headingLevel ?? 3;
    const heading = (text: string, l = level) => h(doc, `h${l}` as 'h3', { class: 'ss-traffic-heading', text });
    this.element = h(doc, 'div', { class: 'ss-traffic' });
    this.element.append(
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'The script as a scenario in real time: requests arrive at a steady rate and each goes to the backend ' +
          'the balancer picks at that instant. WEIGHTS and PICK lines are not used here.',
      }),
    );
    this.#controls = new TrafficControls(this.element, DEFAULT_SETTINGS, () => this.#changed(), (problem) => this.#invalid(problem));
    this.#status = h(doc, 'p', { class: 'ss-traffic-status', attrs: { role: 'status' } });
    this.element.append(heading('Share of requests'), this.#status);
    this.#shareChart = new BucketChart(this.element, 'Share of requests per backend over time', 210);
    this.#lanes = new StateLanes(this.element, 'Each backend’s state over time');
    this.#legend = h(doc, 'ul', { class: 'ss-traffic-legend', attrs: { 'aria-label': 'Backends' } });
    this.element.append(this.#legend);
    this.element.append(
      h(doc, 'p', {
        class: 'ss-chart-note',
        text:
          'Resolution ×1 counts weights in whole numbers, as your script does: a weight-1 backend can only be 0 or 1, so it jumps from no ' +
          'traffic to its full share at the end of its ramp. ×100 keeps weights in hundredths, as nginx-mod (an ' +
          'nginx build with slow start) does with its 0–100 factor.',
      }),
    );
    // Said where it shows: a curve under which the script has no ramp at all.
    this.#shareNote = h(doc, 'p', { class: 'ss-chart-note ss-traffic-warn' });
    this.#shareNote.hidden = true;
    this.element.append(this.#shareNote);

    this.element.append(heading('The least-request trap'));
    this.#trapIntro = h(doc, 'p', { class: 'ss-traffic-intro' });
    this.element.append(this.#trapIntro);
    this.element.append(this.#controls.trapControls(doc));
    const sides = h(doc, 'div', { class: 'ss-trap' });
    this.#without = new TrapSide(sides, 'Without slow start', level + 1);
    this.#with = new TrapSide(sides, 'With slow start', level + 1);
    this.element.append(sides);
    this.#trapNote = h(doc, 'p', { class: 'ss-chart-note' });
    this.element.append(this.#trapNote);

    this.element.append(heading('Flapping: failures, ejection and the cures'));
    this.element.append(
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'A request slower than the timeout fails and is retried elsewhere; the balancer’s passive health check ' +
          'counts the failures and ejects the backend, then lets it back. A backend restarted cold and handed its ' +
          'full share fails, is ejected, comes back still cold and is ejected again: flapping. The same scenario ' +
          'four ways: no slow start; slow start (the curve chosen above); escalating ejection (Envoy: each ejection ' +
          'longer than the last); both. Lanes show each backend serving, ramping or ejected.',
      }),
    );
    this.element.append(this.#controls.flapControls(doc));
    this.#flapStatus = h(doc, 'p', { class: 'ss-flap-status', attrs: { role: 'status' } });
    this.element.append(this.#flapStatus);
    const cures = h(doc, 'div', { class: 'ss-flap' });
    this.#flapSides = CURES.map((c) => new FlapSide(cures, c.title, level + 1));
    this.element.append(cures);
    this.#flapNote = h(doc, 'p', { class: 'ss-flap-note' });
    this.element.append(this.#flapNote);
    // Your own system: its own inputs, the same lab (loaded when first used).
    this.system = new YourSystemPanel(this.element, () => (this.#lab ??= this.#options.lab()), level);
    parent.append(this.element);
  }

  /** The script to simulate; simulated now if the view is visible, else when shown. */
  update(script: string): void {
    this.#script = script;
    this.#stale = true;
    if (this.#visible) void this.#run();
  }

  /** Simulations only run while the view is visible. */
  set visible(v: boolean) {
    this.#visible = v;
    if (v && this.#stale) void this.#run();
  }

  get settings(): TrafficSettings {
    return this.#controls.settings;
  }

  /** The last simulations drawn (share view, then the trap without and with slow start). */
  get last(): { share: Traffic; without: Traffic; with: Traffic } | null {
    return this.#last;
  }

  /** The flapping comparison's last runs, in CURES order (two with nginx or HAProxy). */
  get flapRuns(): readonly Traffic[] {
    return this.#flap;
  }

  /** Resolves when the latest simulation has been drawn (for tests and benchmarks). */
  ready: Promise<void> = Promise.resolve();

  #changed(): void {
    this.#stale = true;
    if (this.#visible) void this.#run();
  }

  #run(): Promise<void> {
    this.#stale = false;
    const generation = ++this.#generation;
    this.#lab ??= this.#options.lab();
    if (!this.#script.trim()) setText(this.#status, 'Write a script with POOL, ADD, DOWN, UP and NOW to see its traffic.');
    else setText(this.#status, 'Simulating…');
    this.ready = this.#lab.then(
      (lab) => {
        if (generation !== this.#generation) return;
        return this.#simulate(lab, generation);
      },
      (e: unknown) => setText(this.#status, `The simulation could not load: ${(e as Error).message}`),
    );
    return this.ready;
  }

  // The three parts (the share, the trap, the flapping) run in three tasks,
  // so that the page answers input between them; a newer script or setting
  // (another generation) stops the older run between parts.
  async #simulate(lab: Lab, generation: number): Promise<void> {
    if (!this.#defaults) {
      const d = (this.#defaults = lab.trafficDefaults());
      this.#controls.adoptDefaults(d);
      setText(
        this.#trapIntro,
        'Backends that join (ADD) or come back (UP) start cold: their requests take several times longer until ' +
          `they warm up. Each backend serves ${d.service.workers} requests at once (${Math.round(warmCapacity(d))} a second when warm), whatever its ` +
          'weight; more wait in line. Least request sends the most to the host with the fewest requests in flight, ' +
          'and a host that just joined has none. This comparison sets its own request rate from Load %.',
      );
    }
    const defaults = this.#defaults;
    const capacity = warmCapacity(defaults);
    const s = this.#controls.settings;
    const script = this.#script;
    let traffic: Traffic;
    let bucket: number;
    let rps = s.rps;
    try {
      // The engine's estimate (one pass over the script, nothing simulated)
      // tells how long the scenario runs, and what rate keeps the run small.
      const duration = lab.simulationSize(script, { curve: s.curve }).duration;
      bucket = chooseBucket(duration);
      rps = interactiveRate(lab, script, shareOptions(s, bucket), s.rps);
      traffic = lab.simulate(script, shareOptions({ ...s, rps }, bucket));
    } catch (e) {
      setText(this.#status, (e as Error).message);
      return;
    }
    const requests = Math.ceil(rps * traffic.duration).toLocaleString('en-US');
    setText(
      this.#status,
      `${requests} requests over ${traffic.duration.toLocaleString('en-US')} s at ${rateText(rps)}/s` +
        (rps < s.rps ? ' (rate lowered to keep the page responsive)' : '') +
        `; shares are counted in slices of ${bucket} s.` +
        (traffic.diagnostics.length ? ` ${traffic.diagnostics.length} rejected line(s) ignored.` : ''),
    );
    this.#shown = rps;
    const shares = sharesOf(traffic);
    const stale = async () => {
      await new Promise((resolve) => setTimeout(resolve, 0));
      return generation !== this.#generation;
    };
    this.#shareChart.set({ mode: 'stack', bucket, buckets: traffic.buckets, series: shares.series, rest: shares.rest });
    this.#lanes.set(traffic);
    this.#drawLegend(traffic.names);

    // The comparison's rate: Load % of the busiest backend's warm capacity
    // at full weight (trap-summary.ts says why), capped like the share view's.
    if (await stale()) return;
    const wantedTrapRps = trapRate(traffic, s.trapLoad, capacity).rps;
    const trapRps = Math.min(...[false, true].map((slowStart) => interactiveRate(lab, script, trapOptions(wantedTrapRps, s, bucket, slowStart), wantedTrapRps)));
    let without: Traffic;
    let withRamp: Traffic;
    try {
      [without, withRamp] = [false, true].map((slowStart) => lab.simulate(script, trapOptions(trapRps, s, bucket, slowStart)));
    } catch (e) {
      setText(this.#trapNote, (e as Error).message);
      return;
    }
    // One latency scale for both sides, so they compare at a glance.
    let top = 0;
    for (const t of [without, withRamp]) for (const v of t.latencyMs) if (v > top) top = v;
    const peaks: Array<{ id: number; ms: number }> = [];
    for (const [side, t] of [
      [this.#without, without],
      [this.#with, withRamp],
    ] as const) {
      const sh = sharesOf(t);
      side.share.set({ mode: 'stack', bucket, buckets: t.buckets, series: sh.series, rest: sh.rest });
      side.latency.set({ mode: 'lines', bucket, buckets: t.buckets, series: latencyOf(t), unit: 'ms', yMax: top });
      const p = peak(t);
      peaks.push(p);
      setText(side.summary, p.id < 0 ? 'No requests were served.' : `Slowest: ${t.names[p.id]} at ${Math.round(p.ms).toLocaleString('en-US')} ms on average in one slice.`);
    }
    this.#last = { share: traffic, without, with: withRamp };
    const same = sameRouting(without, withRamp);
    const noRampUnderHaproxy = same && s.curve.kind === 'haproxy';
    this.#shareNote.hidden = !noRampUnderHaproxy;
    setText(
      this.#shareNote,
      noRampUnderHaproxy
        ? 'Under the HAProxy curve nothing in this script ramps: HAProxy ramps only a backend that comes back (UP), ' +
            'and one added with ADD gets its full weight at once.'
        : '',
    );
    setText(
      this.#trapNote,
      peaks[0].ms > 0 && peaks[1].ms > 0
        ? trapSummary({
            withoutMs: peaks[0].ms,
            withMs: peaks[1].ms,
            same,
            curve: s.curve.kind,
            rps: trapRps,
            loadPercent: s.trapLoad,
            coldFactor: s.coldFactor,
            warmup: s.warmup,
            baseMs: defaults.service.baseMs,
            capacity,
          })
        : '',
    );
    if (await stale()) return;
    await this.#simulateFlapping(lab, script, defaults, stale);
  }

  // The flapping comparison: the rolling-restart example (or the script),
  // at Load % of the busiest backend's warm capacity, with each cure.
  // Each run in a task of its own (`stale` yields to the page, and says when
  // a newer run has started).
  async #simulateFlapping(lab: Lab, editorScript: string, defaults: TrafficDefaults, stale: () => Promise<boolean>): Promise<void> {
    const s = this.#controls.settings;
    const script = s.flapScenario === 'rolling' ? ROLLING_RESTART : editorScript;
    const runs: Traffic[] = [];
    let rps: number;
    let duration: number;
    try {
      const natural = lab.simulationSize(script, { curve: s.curve }).duration;
      duration = s.flapScenario === 'rolling' ? FLAP_SECONDS : Math.max(natural, 120);
      const bucket = chooseBucket(duration);
      const shareOnly = { duration, bucket, curve: s.curve };
      const share = lab.simulate(script, { ...shareOnly, rps: interactiveRate(lab, script, shareOnly, 100) });
      const wanted = trapRate(share, s.flapLoad, warmCapacity(defaults)).rps;
      const cures = s.health === 'envoy' ? CURES : CURES.slice(0, 2);
      rps = Math.min(...cures.map((cure) => interactiveRate(lab, script, flapOptions(wanted, duration, bucket, s, cure, defaults), wanted)));
      for (const cure of cures) {
        if (await stale()) return;
        runs.push(lab.simulate(script, flapOptions(rps, duration, bucket, s, cure, defaults)));
      }
    } catch (e) {
      setText(this.#flapStatus, (e as Error).message);
      this.#flap = [];
      return;
    }
    this.#flap = runs;
    setText(
      this.#flapStatus,
      `${s.flapScenario === 'rolling' ? 'The rolling restart' : 'The script'} at ${rateText(rps)} requests/s for ${duration.toLocaleString('en-US')} s, ` +
        `timeout ${s.timeoutMs.toLocaleString('en-US')} ms, ${s.retries} ${s.retries === 1 ? 'retry' : 'retries'}, ${HEALTH_NAMES[s.health]}.`,
    );
    this.#flapSides.forEach((side, i) => {
      const t = runs[i];
      side.element.hidden = !t;
      if (!t) return;
      const sh = sharesOf(t);
      side.share.set({ mode: 'stack', bucket: t.bucket, buckets: t.buckets, series: sh.series, rest: sh.rest });
      side.lanes.set(t);
      const f = runFacts(CURES[i].label, t);
      setText(
        side.summary,
        `${f.ejections.toLocaleString('en-US')} ejection${f.ejections === 1 ? '' : 's'}, ` +
          `${f.failed.toLocaleString('en-US')} failed, ${Math.round(f.secondsEjected).toLocaleString('en-US')} s out; ` +
          (f.stableAt === null ? 'never stable.' : `stable from ${f.stableAt} s.`),
      );
    });
    setText(
      this.#flapNote,
      flapSummary(runs.map((t, i) => runFacts(CURES[i].label, t))) +
        (s.health === 'envoy' ? '' : ` ${HEALTH_NAMES[s.health]} has no escalating ejection (Envoy's base_ejection_time × times ejected): its two runs are shown.`),
    );
  }

  // A setting that is not valid: say which and what it takes, and that the
  // charts still show the last valid settings.
  #invalid(problem: string): void {
    setText(this.#status, `Not updated: ${problem}. The charts still show ${this.#shown.toLocaleString('en-US')} requests/s.`);
  }

  #drawLegend(names: readonly string[]): void {
    const doc = this.element.ownerDocument;
    this.#legend.replaceChildren(
      ...names.slice(0, MAX_SERIES).map((name, id) => {
        const sw = h(doc, 'span', { class: `ss-swatch ${seriesClasses(id)}`, attrs: { 'aria-hidden': 'true' } });
        return h(doc, 'li', {}, sw, h(doc, 'span', { class: 'ss-traffic-name', text: name }));
      }),
    );
  }
}
