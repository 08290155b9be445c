// The Traffic lab: what the script's scenario means for real requests.
//  - Share of requests over time, stacked, under a chosen ramp curve and
//    weight resolution (the granularity problem made visible), with each
//    backend's state lane under it.
//  - The least-request trap: the same scenario with cold backends, side by
//    side without and with slow start.
//  - Flapping and its cures: requests time out, a balancer's passive health
//    check ejects the cold backend and readmits it; the same scenario with no
//    slow start, slow start, escalating ejection and both, each with its
//    incident timeline (latency, failures, the script's events, when it
//    became stable).
// Every simulation runs in the lab's worker (lab-client.ts), a plan at a
// time (lab-plan.ts); this view only draws what comes back, section by
// section. Charts of a section share a zoomable time axis (time-axis.ts).
// Opt-in and lazy: the view and the lab module load the first time the
// view is shown. The script's own output is not affected.
import type { Lab, Traffic, TrafficDefaults, TrafficOptionInfo } from '../api/index.js';
import { nextTask } from '../shared/big-text.js';
import { h, setText } from '../shared/dom.js';
import { MAX_SERIES, seriesClasses } from '../shared/palette.js';
import { BucketChart, type BucketSeries } from './bucket-chart.js';
import { CommandBox } from './command-box.js';
import { flapSummary, runFacts, runLine } from './flap-summary.js';
import { LabRuns } from './lab-client.js';
import type { PlanRun, Section } from './lab-plan.js';
import { RunPanel } from './run-panel.js';
import { ScenarioPicker } from './scenario-picker.js';
import type { ScenarioEvent } from './scenario-events.js';
import { StateLanes } from './state-lanes.js';
import { TimeAxis } from './time-axis.js';
import { rate, seconds } from './time-words.js';
import { CURES, DEFAULT_SETTINGS, type TrafficSettings } from './lab-settings.js';
import { TrafficControls } from './traffic-controls.js';
import { sameRouting, trapSummary, warmCapacity } from './trap-summary.js';
import { YourSystemPanel } from './your-system-panel.js';
import { ZoomBar } from './zoom-bar.js';

export { FLAP_SECONDS, MAX_INTERACTIVE_REQUESTS, ROLLING_RESTART } from './lab-plan.js';

export interface TrafficViewOptions {
  /** Loads the lab module on the page (only where no worker can start). */
  lab: () => Promise<Lab>;
  /** Heading level of the view's sections (default 3). */
  headingLevel?: 2 | 3 | 4 | 5 | 6;
  /** Makes the lab's worker (tests and hosts may pass their own). */
  createWorker?: () => Worker;
  /** Puts a script in the editor (one undoable edit) and runs it: the scenario presets are offered when the host gives this. */
  setScript?: (script: string) => void;
}

/** What a section's drawing depends on: its runs' options and its script (null: a problem, always said). */
function sectionKey(s: Section): string | null {
  if (s.kind === 'problem') return null;
  const runs = s.kind === 'share' ? [s.run] : s.kind === 'trap' ? [s.without, s.with] : s.runs;
  return `${JSON.stringify(runs.map((r) => r.options))}\n${s.script}`;
}

/** A stretch of the script's requests, per backend, in the share chart's form. */
function shareSeries(t: Traffic): BucketSeries[] {
  const n = t.names.length;
  return t.names.map((name, id) => ({ id, name, at: (k: number) => t.requests[k * n + id] }));
}

function latencySeries(t: Traffic): BucketSeries[] {
  const n = t.names.length;
  return t.names.slice(0, MAX_SERIES).map((name, id) => ({
    id,
    name,
    at: (k: number) => t.latencyMs[k * n + id],
    weight: (k: number) => t.requests[k * n + id],
  }));
}

/** The highest mean latency of one backend in one bucket, and whose. */
function peak(t: Traffic): { id: number; ms: number } {
  let best = { id: -1, ms: 0 };
  const n = t.names.length;
  for (let k = 0; k < t.buckets; k++)
    for (let id = 0; id < n; id++) if (t.latencyMs[k * n + id] > best.ms) best = { id, ms: t.latencyMs[k * n + id] };
  return best;
}

class TrapSide {
  readonly share: BucketChart;
  readonly latency: BucketChart;
  readonly summary: HTMLParagraphElement;
  readonly command: CommandBox;
  constructor(parent: HTMLElement, title: string, level: number, axis: TimeAxis) {
    const doc = parent.ownerDocument;
    const box = h(doc, 'section', { class: 'ss-trap-side' });
    box.append(h(doc, `h${level}` as 'h4', { class: 'ss-trap-title', text: title }));
    box.append(h(doc, 'p', { class: 'ss-chart-caption', text: 'Share of requests' }));
    this.share = new BucketChart(box, `${title}: share of requests over time`, axis, 150);
    box.append(h(doc, 'p', { class: 'ss-chart-caption', text: 'Mean latency of the requests that arrived, per backend' }));
    this.latency = new BucketChart(box, `${title}: mean latency over time`, axis, 150);
    this.summary = h(doc, 'p', { class: 'ss-trap-summary' });
    this.command = new CommandBox(doc, title);
    box.append(this.summary, this.command.element);
    parent.append(box);
  }
}

const HEALTH_NAMES = { none: 'no health check', nginx: 'nginx max_fails / fail_timeout', haproxy: 'HAProxy observe layer7 / error-limit', envoy: 'Envoy outlier detection' } as const;
/** What the flapping runs set beyond the balancer's defaults, said in the status line. */
const HEALTH_SETTINGS = {
  none: '',
  nginx: '',
  haproxy: '',
  envoy: ' with always_eject_one_host (at its default max_ejection_percent of 10 %, current Envoy ejects none of fewer than 10 hosts)',
} as const;

export class TrafficView {
  readonly element: HTMLElement;
  readonly #controls: TrafficControls;
  readonly #runs: LabRuns;
  readonly #status: HTMLParagraphElement;
  readonly #shareAxis = new TimeAxis();
  readonly #flapAxis = new TimeAxis();
  readonly #shareChart: BucketChart;
  readonly #legend: HTMLUListElement;
  readonly #without: TrapSide;
  readonly #with: TrapSide;
  readonly #trapNote: HTMLParagraphElement;
  readonly #trapIntro: HTMLParagraphElement;
  readonly #shareNote: HTMLParagraphElement;
  readonly #shareCommand: CommandBox;
  readonly #lanes: StateLanes;
  readonly #flapPanels: RunPanel[];
  readonly #flapNote: HTMLParagraphElement;
  readonly #flapStatus: HTMLParagraphElement;
  readonly #optionsBox: HTMLElement;
  /** The "Your system" panel: a proxy's configuration and a canary's log in, a window and settings out. */
  readonly system: YourSystemPanel;
  #defaults: TrafficDefaults | null = null;
  #flap: Extract<Section, { kind: 'flap' }> | null = null;
  #shown = DEFAULT_SETTINGS.rps; // the request rate the share chart shows
  #share: PlanRun | null = null;
  #shareMarks: { events: ScenarioEvent[] } = { events: [] }; // the script's events, on the share and trap charts
  #trap: { without: Traffic; with: Traffic } | null = null;
  #script = '';
  #visible = false;
  #stale = true;
  #plan = 0; // the newest plan's id; 0: none going
  #waiting: Array<() => void> = [];
  #settingsOfPlan: TrafficSettings = DEFAULT_SETTINGS;
  // Sections are drawn one after the other, a run panel per task (each task stays short);
  // a section whose runs are those drawn already is not drawn again.
  #drawing: Promise<void> = Promise.resolve();
  readonly #drawn = new Map<Section['kind'], string>();

  constructor(parent: HTMLElement, options: TrafficViewOptions) {
    const doc = parent.ownerDocument;
    const level = options.headingLevel ?? 3;
    const heading = (text: string, l = level) => h(doc, `h${l}` as 'h3', { class: 'ss-traffic-heading', text });
    this.#runs = new LabRuns({
      lab: options.lab,
      createWorker: options.createWorker,
      onDefaults: (d, table) => this.#adoptDefaults(d, table),
      onSection: (id, section) => id === this.#plan && this.#queue(id, section),
      // (settled once what came before is drawn)
      onDone: (id) => id === this.#plan && void this.#drawing.then(() => id === this.#plan && this.#settle()),
      onFailed: (id, message) => {
        if (id !== this.#plan) return;
        setText(this.#status, `The simulation could not run: ${message}`);
        this.#settle();
      },
    });
    this.element = h(doc, 'div', { class: 'ss-traffic' });
    this.element.append(
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'The script as a scenario in real time: requests arrive at a steady rate and each goes to the backend ' +
          'the balancer picks at that instant. WEIGHTS and PICK lines are not used here.',
      }),
    );
    const setScript = options.setScript;
    if (setScript) {
      const picker = new ScenarioPicker(doc, level, (w) => {
        this.#controls.reset(w.settings, true);
        const same = this.#script === w.script;
        setScript(w.script); // (the runner runs it, and the view hears of it: a plan with the new settings)
        if (same) this.#changed();
      });
      this.element.append(picker.element);
    }
    this.#controls = new TrafficControls(this.element, DEFAULT_SETTINGS, () => this.#changed(), (problem) => this.#invalid(problem));

    const share = h(doc, 'section', { class: 'ss-traffic-section ss-share-section' });
    this.#status = h(doc, 'p', { class: 'ss-traffic-status', attrs: { role: 'status' } });
    share.append(heading('Share of requests'), this.#status, new ZoomBar(doc, this.#shareAxis, 'Time axis of the share and least-request charts').element);
    this.#shareChart = new BucketChart(share, 'Share of requests per backend over time', this.#shareAxis, 220);
    this.#lanes = new StateLanes(share, 'Each backend’s state over time', this.#shareAxis);
    this.#legend = h(doc, 'ul', { class: 'ss-traffic-legend', attrs: { 'aria-label': 'Backends' } });
    this.#shareCommand = new CommandBox(doc, 'the share of requests');
    share.append(this.#legend);
    share.append(
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
    share.append(this.#shareNote, this.#shareCommand.element);
    this.element.append(share);

    const trap = h(doc, 'section', { class: 'ss-traffic-section ss-trap-section' });
    trap.append(heading('The least-request trap'));
    this.#trapIntro = h(doc, 'p', { class: 'ss-traffic-intro' });
    trap.append(this.#trapIntro, this.#controls.trapControls(doc));
    const sides = h(doc, 'div', { class: 'ss-trap' });
    this.#without = new TrapSide(sides, 'Without slow start', level + 1, this.#shareAxis);
    this.#with = new TrapSide(sides, 'With slow start', level + 1, this.#shareAxis);
    this.#trapNote = h(doc, 'p', { class: 'ss-chart-note ss-trap-note' });
    trap.append(sides, this.#trapNote);
    this.element.append(trap);

    const flap = h(doc, 'section', { class: 'ss-traffic-section ss-flap-section' });
    flap.append(heading('Flapping: failures, ejection and the cures'));
    flap.append(
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'A request slower than the timeout fails and is retried elsewhere; the balancer’s passive health check ' +
          'counts the failures and ejects the backend, then lets it back. A backend restarted cold and handed its ' +
          'full share fails, is ejected, comes back still cold and is ejected again: flapping. The same scenario ' +
          'run several ways (Compare): no slow start; slow start (the curve chosen above); escalating ejection (Envoy: each ' +
          'ejection longer than the last); both; or slow start applied by scaling against by skipping. Under each run: each ' +
          'backend’s lane (serving, ramping, ejected), its latency and its failed requests, with the script’s events ' +
          '(dashed) and the moment it became stable (green) marked.',
      }),
    );
    flap.append(this.#controls.flapControls(doc));
    // Every option of the runs, made from the engine's option table when the worker has said it.
    this.#optionsBox = h(doc, 'section', { class: 'ss-option-box' }, heading('Every option of the runs', Math.min(6, level + 1) as 4));
    this.#optionsBox.append(
      h(doc, 'p', {
        class: 'ss-traffic-intro',
        text:
          'Each option of slowstart simulate that changes these runs, grouped, with its default (a health check’s: that balancer’s). ' +
          'The lab sets a run’s slow start itself, its curve from the settings above, and its bucket.',
      }),
    );
    flap.append(this.#optionsBox);
    this.#flapStatus = h(doc, 'p', { class: 'ss-flap-status', attrs: { role: 'status' } });
    flap.append(this.#flapStatus, new ZoomBar(doc, this.#flapAxis, 'Time axis of the flapping runs').element);
    const cures = h(doc, 'div', { class: 'ss-flap' });
    this.#flapPanels = CURES.map((c) => new RunPanel(cures, c.title, level + 1, this.#flapAxis));
    flap.append(cures);
    this.#flapNote = h(doc, 'p', { class: 'ss-flap-note' });
    flap.append(this.#flapNote);
    this.element.append(flap);
    // Your own system: its own inputs; the lab module on the page, loaded when the panel is first used.
    let lab: Promise<Lab> | undefined;
    this.system = new YourSystemPanel(this.element, () => (lab ??= options.lab()), level);
    parent.append(this.element);
  }

  /** The script to simulate; simulated now if the view is visible, else when shown. */
  update(script: string): void {
    this.#script = script;
    this.#stale = true;
    if (this.#visible) this.#run();
  }

  /** Simulations only run while the view is visible. */
  set visible(v: boolean) {
    this.#visible = v;
    if (v && this.#stale) this.#run();
  }

  get settings(): TrafficSettings {
    return this.#controls.settings;
  }

  /** The last simulations drawn (share view, then the trap without and with slow start). */
  get last(): { share: Traffic; without: Traffic; with: Traffic } | null {
    return this.#share && this.#trap ? { share: this.#share.traffic, ...this.#trap } : null;
  }

  /** The flapping comparison's last runs, in CURES order (two with nginx or HAProxy). */
  get flapRuns(): readonly Traffic[] {
    return this.#flap?.runs.map((r) => r.traffic) ?? [];
  }

  /** The flapping comparison's last section: its script, and each run's options and result. */
  get flapSection(): Extract<Section, { kind: 'flap' }> | null {
    return this.#flap;
  }

  /** Resolves when the newest plan has been drawn in full (for tests and benchmarks). */
  get ready(): Promise<void> {
    return this.#plan === 0 ? Promise.resolve() : new Promise((resolve) => this.#waiting.push(resolve));
  }

  /** Ends the worker. */
  destroy(): void {
    this.#runs.destroy();
    this.#settle();
  }

  #changed(): void {
    this.#stale = true;
    if (this.#visible) this.#run();
  }

  #run(): void {
    this.#stale = false;
    if (!this.#script.trim()) setText(this.#status, 'Write a script with POOL, ADD, DOWN, UP and NOW to see its traffic.');
    else setText(this.#status, 'Simulating…');
    this.#settingsOfPlan = structuredClone(this.#controls.settings);
    this.#plan = this.#runs.plan(this.#script, this.#settingsOfPlan);
  }

  #settle(): void {
    this.#plan = 0;
    for (const resolve of this.#waiting.splice(0)) resolve();
  }

  #adoptDefaults(d: TrafficDefaults, table: readonly TrafficOptionInfo[]): void {
    this.#defaults = d;
    this.#controls.adoptDefaults(d);
    this.#optionsBox.append(
      this.#controls.optionForm(this.element.ownerDocument, table, (problem) =>
        setText(this.#flapStatus, `Not updated: ${problem}. The runs below have the last valid options.`),
      ),
    );
    setText(
      this.#trapIntro,
      'Backends that join (ADD) or come back (UP) start cold: their requests take several times longer until ' +
        `they warm up. Each backend serves ${d.service.workers} requests at once (${Math.round(warmCapacity(d))} a second when warm), whatever its ` +
        'weight; more wait in line. Least request sends the most to the host with the fewest requests in flight, ' +
        'and a host that just joined has none. This comparison sets its own request rate from Load %.',
    );
  }

  #queue(id: number, section: Section): void {
    this.#drawing = this.#drawing.then(async () => {
      if (id !== this.#plan) return; // a newer plan began: its sections come
      const key = sectionKey(section);
      if (key !== null && this.#drawn.get(section.kind) === key) return;
      await nextTask(); // (a section arrives in the task that read its message: the drawing gets its own)
      if (id !== this.#plan) return;
      if (section.kind === 'share') this.#drawShare(section.run, section.askedRps, section.events, section.script);
      else if (section.kind === 'trap') await this.#drawTrap(section, () => id === this.#plan);
      else if (section.kind === 'flap') await this.#drawFlap(section, () => id === this.#plan);
      else setText(section.section === 'flap' ? this.#flapStatus : this.#status, section.message);
      if (id === this.#plan && key !== null) this.#drawn.set(section.kind, key);
      else this.#drawn.delete(section.kind);
    });
  }

  #drawShare(run: PlanRun, askedRps: number, events: ScenarioEvent[], script: string): void {
    const t = run.traffic;
    this.#shareCommand.set(script, run.args);
    const rps = run.options.rps ?? askedRps;
    this.#share = run;
    this.#shown = rps;
    let requests = 0;
    for (const v of t.total) requests += v;
    setText(
      this.#status,
      `${requests.toLocaleString('en-US')} requests over ${seconds(t.duration)} at ${rate(rps)}/s` +
        (rps < askedRps ? ' (lowered to keep each run short)' : '') +
        `; shares are counted in slices of ${seconds(t.bucket)} (zoom in to see each).` +
        (t.diagnostics.length ? ` ${t.diagnostics.length} rejected line(s) ignored.` : ''),
    );
    this.#shareAxis.setExtent(t.duration, t.bucket);
    const marks = (this.#shareMarks = { events });
    this.#shareChart.set({ mode: 'stack', bucket: t.bucket, buckets: t.buckets, series: shareSeries(t), total: (k) => t.total[k], rest: (k) => t.unrouted[k], marks, eventLabels: true });
    this.#lanes.set(t, marks);
    this.#drawLegend(t.names);
  }

  async #drawTrap({ without: withoutRun, with: withRun, rps, script }: Extract<Section, { kind: 'trap' }>, current: () => boolean): Promise<void> {
    const s = this.#settingsOfPlan;
    const [without, withRamp] = [withoutRun.traffic, withRun.traffic];
    this.#without.command.set(script, withoutRun.args);
    this.#with.command.set(script, withRun.args);
    const defaults = this.#defaults;
    // One latency scale for both sides, so they compare at a glance.
    let top = 0;
    for (const t of [without, withRamp]) for (const v of t.latencyMs) if (v > top) top = v;
    const peaks: Array<{ id: number; ms: number }> = [];
    for (const [side, t] of [
      [this.#without, without],
      [this.#with, withRamp],
    ] as const) {
      // Each side in a task of its own, as the flapping panels: the learner's keys come in between.
      if (side === this.#with) {
        await nextTask();
        if (!current()) return;
      }
      const marks = this.#shareMarks;
      side.share.set({ mode: 'stack', bucket: t.bucket, buckets: t.buckets, series: shareSeries(t), total: (k) => t.total[k], rest: (k) => t.unrouted[k], marks });
      side.latency.set({ mode: 'lines', bucket: t.bucket, buckets: t.buckets, series: latencySeries(t), unit: 'ms', yMax: top, marks });
      const p = peak(t);
      peaks.push(p);
      setText(side.summary, p.id < 0 ? 'No requests were served.' : `Slowest: ${t.names[p.id]} at ${Math.round(p.ms).toLocaleString('en-US')} ms on average in one slice.`);
    }
    this.#trap = { without, with: withRamp };
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
      peaks[0].ms > 0 && peaks[1].ms > 0 && defaults
        ? trapSummary({
            withoutMs: peaks[0].ms,
            withMs: peaks[1].ms,
            same,
            curve: s.curve.kind,
            rps,
            loadPercent: s.trapLoad,
            coldFactor: Number.isNaN(s.coldFactor) ? defaults.service.coldFactor : s.coldFactor,
            warmup: Number.isNaN(s.warmup) ? defaults.service.warmup : s.warmup,
            baseMs: defaults.service.baseMs,
            capacity: warmCapacity(defaults),
          })
        : '',
    );
  }

  async #drawFlap(section: Extract<Section, { kind: 'flap' }>, current: () => boolean): Promise<void> {
    const s = this.#settingsOfPlan;
    const runs = section.runs.map((r) => r.traffic);
    const instant = section.runs.every((r) => !r.options.service);
    this.#flap = section;
    setText(
      this.#flapStatus,
      `${s.flapScenario === 'rolling' ? 'The rolling restart' : 'The script'} at ${rate(section.rps)} requests/s for ${seconds(section.duration)}, ` +
        (instant
          ? 'answers instant (routing only: nothing is in flight, nothing times out, no health check).'
          : `${s.timeoutMs ? `timeout ${s.timeoutMs.toLocaleString('en-US')} ms` : 'no timeout'}, ${s.retries} ${s.retries === 1 ? 'retry' : 'retries'}, ${HEALTH_NAMES[s.health]}${HEALTH_SETTINGS[s.health]}.`),
    );
    if (runs.length) this.#flapAxis.setExtent(runs[0].duration, runs[0].bucket);
    // One scale for every run's latency and failures, so the runs compare at a glance.
    let latencyTop = 0;
    let failuresTop = 0;
    for (const t of runs) {
      const n = t.names.length;
      for (const v of t.latencyMs) if (v > latencyTop) latencyTop = v;
      for (let k = 0; k < t.buckets; k++) {
        let f = t.unrouted[k];
        for (let id = 0; id < n; id++) f += t.failed[k * n + id];
        if (f > failuresTop) failuresTop = f;
      }
    }
    const facts = runs.map((t, i) => runFacts(section.cures[i].label, t));
    for (const [i, panel] of this.#flapPanels.entries()) {
      const t = runs[i];
      panel.element.hidden = !t;
      if (!t) continue;
      if (i > 0) {
        await nextTask();
        if (!current()) return;
      }
      panel.title = section.cures[i].title;
      panel.set(t, { events: section.events, stableAt: instant ? undefined : t.stableAt }, !instant, { latencyMs: latencyTop, failures: failuresTop });
      setText(panel.summary, runLine(facts[i], instant));
      panel.command.set(section.script, section.runs[i].args);
    }
    setText(
      this.#flapNote,
      flapSummary(facts, instant, runs.every((t) => sameRouting(runs[0], t))) +
        (s.health === 'envoy' || instant || s.flapCompare !== 'cures'
          ? ''
          : ` ${HEALTH_NAMES[s.health]} has no escalating ejection (Envoy's base_ejection_time × times ejected): its two runs are shown.`),
    );
  }

  // A setting that is not valid: say which and what it takes, and that the
  // charts still show the last valid settings.
  #invalid(problem: string): void {
    setText(this.#status, `Not updated: ${problem}. The charts still show ${rate(this.#shown)} requests/s.`);
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
