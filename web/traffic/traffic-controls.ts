// The Traffic view's settings: the ramp curve (with Envoy's aggression and
// floor), the weight resolution, the request rate, the service model of
// the least-request comparison, what the flapping comparison runs, and
// every option of the flapping runs (option-form.ts, from the engine's
// option table). Plain labelled form controls, each with a one-line hint in
// plain words (linked with aria-describedby) for a learner who has read
// nothing yet. A value out of range is marked, says what it takes, and
// changes nothing.
import type { Policy, TrafficDefaults, TrafficOptionInfo } from '../api/index.js';
import { DEFAULT_SETTINGS, flapValues, LAB_SET, withFlapValues, type TrafficSettings } from './lab-settings.js';
import { OptionForm } from './option-form.js';
import { h, setText } from '../shared/dom.js';
import { labelledField, takes } from './form-field.js';

/** The plain-words hint under each setting. */
const HINTS: Record<string, string> = {
  kind: 'How a backend’s weight grows during its ramp: a straight line, Envoy’s curve, or HAProxy’s 16 steps.',
  aggression: 'Envoy: above 1 the weight rises fast early on, below 1 late.',
  floor: 'Envoy: the least share of its weight a ramping backend gets, from its first second.',
  resolution:
    'How finely weights are counted. The curve’s own: hundredths for the straight line (nginx-mod, an nginx build with slow start), ' +
    'sixteenths for HAProxy, thousandths for Envoy. ×1 is whole numbers, as your script counts them (weight 1 is 0 or 1, nothing between).',
  rps: 'Requests a second for the share chart, 1 to 100,000.',
  policy: 'How the comparison picks: the host with the fewest requests in flight (Envoy), or the script’s smooth round-robin.',
  trapLoad: 'How busy the busiest backend is at full weight, in % of what it serves when warm.',
  coldFactor: 'How many times slower a backend serves the moment it joins (1: not at all).',
  warmup: 'Seconds until a joined backend is as fast as the others (0: at once).',
  flapScenario: 'What to run: a rolling restart of one backend of four, or the script in the editor.',
  flapLoad: 'How busy the busiest backend is at full weight, in % of what it serves when warm.',
  flapAnswers: 'Modelled: requests take time, can time out and be retried, and the health check ejects. Instant: routing only.',
  flapCompare: 'The cures side by side, or slow start applied two ways: scaling each policy’s weight or score, or skipping warming hosts.',
};

/** The flapping runs' options shown unfolded (the rest are under each group's "More"). */
const PRIMARY = new Set([
  'rps', 'duration', 'policy', 'rampBy',
  'service.baseMs', 'service.coldFactor', 'service.warmup', 'service.warmBy',
  'timeoutMs', 'retries',
  'health.kind', 'health.maxFails', 'health.failTimeout', 'health.errorLimit', 'health.onError', 'health.inter', 'health.rise', 'health.fall',
  'health.consecutive5xx', 'health.interval', 'health.baseEjectionTime', 'health.maxEjectionTime',
  'stableMargin',
]);

/** Labels in plain words (a health check's parameters keep their balancer's names). */
const LABELS: Record<string, string> = {
  rps: 'Rate (requests/s)',
  duration: 'Duration (s)',
  policy: 'Policy',
  rampBy: 'Ramp by',
  seed: 'Seed',
  bias: 'Bias',
  'service.baseMs': 'Service time (ms)',
  'service.coldFactor': 'Cold factor',
  'service.warmup': 'Warm-up (s)',
  'service.workers': 'Workers',
  'service.warmBy': 'Warm by',
  'service.warmupRequests': 'Warm-up requests',
  timeoutMs: 'Timeout ms',
  retries: 'Retries',
  nextUpstreamTimeoutMs: 'next_upstream_timeout (ms)',
  'health.kind': 'Health check',
  'health.maxFails': 'max_fails',
  'health.failTimeout': 'fail_timeout (s)',
  'health.unhealthyLatencyMs': 'unhealthy_latency (ms)',
  'health.errorLimit': 'error-limit',
  'health.onError': 'on-error',
  'health.inter': 'inter (s)',
  'health.fastinter': 'fastinter (s)',
  'health.downinter': 'downinter (s)',
  'health.rise': 'rise',
  'health.fall': 'fall',
  'health.checkMs': 'check time (ms)',
  'health.legacyFastinter': 'fastinter before 2.8',
  'health.consecutive5xx': 'consecutive_5xx',
  'health.interval': 'interval (s)',
  'health.baseEjectionTime': 'base_ejection_time (s)',
  'health.maxEjectionTime': 'max_ejection_time (s)',
  'health.maxEjectionPercent': 'max_ejection_percent',
  // Envoy's success rate, failure percentage and retries (docs/proxy-rules.md E10, E11, E14, E15)
  'health.successRateMinimumHosts': 'success_rate_minimum_hosts',
  'health.successRateRequestVolume': 'success_rate_request_volume',
  'health.successRateStdevFactor': 'success_rate_stdev_factor',
  'health.enforcingSuccessRate': 'enforcing_success_rate (%)',
  'health.failurePercentageThreshold': 'failure_percentage_threshold (%)',
  'health.failurePercentageMinimumHosts': 'failure_percentage_minimum_hosts',
  'health.failurePercentageRequestVolume': 'failure_percentage_request_volume',
  'health.enforcingFailurePercentage': 'enforcing_failure_percentage (%)',
  retryBudget: 'retry_budget',
  retryBudgetPercent: 'budget_percent (%)',
  minRetryConcurrency: 'min_retry_concurrency',
  retryBackOffMs: 'retry back-off base (ms)',
  retryOtherHost: 'previous_hosts: retry elsewhere',
  stableMargin: 'Stable margin (%)',
};

const CHOICE_TEXT: Record<string, Record<string, string>> = {
  policy: {
    wrr: 'Smooth WRR (nginx)',
    'least-request': 'Least request (Envoy)',
    random: 'Weighted random',
    p2c: 'Power of two choices',
    'least-conn': 'Least conn (the balancer’s own)',
    'round-robin': 'Round robin (Caddy)',
    'caddy-least-conn': 'Least conn (Caddy)',
    'nginx-least-conn': 'least_conn (nginx)',
    'haproxy-leastconn': 'leastconn (HAProxy)',
    'static-rr': 'static-rr (HAProxy)',
  },
  rampBy: { scale: 'Scale (each policy)', skip: 'Skip (decorator)' },
  'health.kind': { none: 'None', nginx: 'nginx max_fails', haproxy: 'HAProxy observe layer7', envoy: 'Envoy outlier detection' },
  'service.warmBy': { serving: 'Time serving', time: 'Time', requests: 'Requests' },
};

type Field = HTMLSelectElement | HTMLInputElement;

export class TrafficControls {
  readonly element: HTMLFormElement;
  readonly #fields: Record<string, Field> = {};
  readonly #labels: Record<string, string> = {};
  readonly #errors: Record<string, HTMLElement> = {};
  readonly #envoyOnly: HTMLElement[] = [];
  readonly #doc: Document;
  readonly #onChange: (s: TrafficSettings) => void;
  readonly #onInvalid: (problem: string) => void;
  #settings: TrafficSettings;
  #engineDefaults: TrafficDefaults | null = null;
  #options: OptionForm | null = null;

  /** `onInvalid` gets what is wrong ("Requests/s must be …") while a field is out of range. */
  constructor(
    parent: HTMLElement,
    initial: TrafficSettings,
    onChange: (s: TrafficSettings) => void,
    onInvalid: (problem: string) => void = () => {},
  ) {
    this.#doc = parent.ownerDocument;
    this.#settings = structuredClone(initial);
    this.#onChange = onChange;
    this.#onInvalid = onInvalid;
    const s = this.#settings;
    const aggression = this.#number('aggression', 'Aggression', s.curve.aggression, { min: '0.1', max: '10', step: '0.1' });
    const floor = this.#number('floor', 'Floor %', s.curve.minWeightPercent, { min: '0', max: '100', step: '1' });
    this.#envoyOnly.push(aggression, floor);
    this.element = this.#form('Traffic settings', [
      this.#select('kind', 'Ramp curve', [['linear', 'Linear (as your script, NGINX)'], ['envoy', 'Envoy'], ['haproxy', 'HAProxy (16 steps)']], s.curve.kind),
      aggression,
      floor,
      this.#select('resolution', 'Resolution', [['0', 'the curve’s own'], ['1', '×1 (as your script)'], ['16', '×16'], ['100', '×100'], ['1000', '×1000']], String(s.curve.resolution)),
      this.#number('rps', 'Requests/s', s.rps, { min: '1', max: '100000', step: '1' }),
    ]);
    this.#syncEnvoy();
    parent.append(this.element);
  }

  /** The least-request comparison's own controls (placed by the view). */
  trapControls(doc: Document): HTMLFormElement {
    const s = this.#settings;
    return this.#form(
      'Least-request trap settings',
      [
        this.#select('policy', 'Balancing', [['least-request', 'Least request (Envoy)'], ['wrr', 'Smooth weighted round-robin']], s.policy),
        this.#number('trapLoad', 'Load %', s.trapLoad, { min: '5', max: '200', step: '5' }),
        this.#number('coldFactor', 'Cold ×', s.coldFactor, { min: '1', max: '50', step: '0.5' }),
        this.#number('warmup', 'Warm-up s', s.warmup, { min: '0', max: '600', step: '1' }),
      ],
      doc,
    );
  }

  /** The flapping comparison's own controls (placed by the view). */
  flapControls(doc: Document): HTMLFormElement {
    const s = this.#settings;
    return this.#form(
      'Flapping settings',
      [
        this.#select('flapScenario', 'Scenario', [['rolling', 'Rolling restart of b'], ['script', 'The script above']], s.flapScenario),
        this.#number('flapLoad', 'Flapping load %', s.flapLoad, { min: '5', max: '200', step: '5' }),
        this.#select('flapAnswers', 'Answers', [['model', 'Modelled (time, failures)'], ['instant', 'Instant (routing only)']], s.flapAnswers),
        this.#select('flapCompare', 'Compare', [['cures', 'The cures'], ['ramp-by', 'Ramp by scale vs skip']], s.flapCompare),
      ],
      doc,
    );
  }

  /**
   * Every option of the flapping runs, as a form made from the engine's
   * option table (placed by the view): those the lab sets itself (the rate
   * and duration unless set here, the bucket, each run's slow start, the
   * curve from the settings above, the service model from Answers) left out.
   */
  optionForm(doc: Document, table: readonly TrafficOptionInfo[], onInvalid: (problem: string) => void): HTMLFormElement {
    const defaultOf = (key: string) => table.find((r) => r.key === key)!.default;
    this.#options = new OptionForm(doc, table, {
      exclude: new Set([...LAB_SET].filter((k) => k !== 'rps' && k !== 'duration')),
      primary: PRIMARY,
      auto: { rps: 'from Flapping load %', duration: 'the scenario’s' },
      labels: LABELS,
      choiceText: CHOICE_TEXT,
      values: flapValues(this.#settings),
      context: () => ({
        values: { service: this.#settings.flapAnswers === 'model', 'curve.kind': this.#settings.curve.kind },
        // (instant answers: routing only; no service model, timeout, retry, health check or stable moment)
        groups: (g) => this.#settings.flapAnswers === 'model' || g === 'load' || g === 'policy',
      }),
      onChange: (values) => {
        this.#settings = withFlapValues(this.#settings, values, defaultOf);
        this.#onChange(this.#settings);
      },
      onInvalid,
    });
    return this.#options.element;
  }

  /** The engine's service-model defaults, shown in the fields still holding none. */
  adoptDefaults(d: TrafficDefaults): void {
    this.#engineDefaults = d;
    const s = this.#settings;
    for (const [key, value] of [['coldFactor', d.service.coldFactor], ['warmup', d.service.warmup]] as const) {
      if (!Number.isNaN(s[key])) continue;
      s[key] = value;
      const el = this.#fields[key] as HTMLInputElement | undefined;
      if (el) el.value = String(value);
    }
  }

  get settings(): TrafficSettings {
    return this.#settings;
  }

  /**
   * Starts over from the defaults with these settings on top (a scenario's:
   * a preset gives the same runs whatever was set before), shows them in the
   * fields, and says so (onChange) unless `quiet`.
   */
  reset(patch: Partial<TrafficSettings>, quiet = false): void {
    const next: TrafficSettings = { ...structuredClone(DEFAULT_SETTINGS), ...structuredClone(patch) };
    // (the service model's two, as the engine's defaults say, once known)
    if (Number.isNaN(next.coldFactor)) next.coldFactor = this.#settings.coldFactor;
    if (Number.isNaN(next.warmup)) next.warmup = this.#settings.warmup;
    if (this.#engineDefaults) {
      if (Number.isNaN(next.coldFactor)) next.coldFactor = this.#engineDefaults.service.coldFactor;
      if (Number.isNaN(next.warmup)) next.warmup = this.#engineDefaults.service.warmup;
    }
    this.#settings = next;
    const values: Record<string, unknown> = { ...next, ...next.curve, floor: next.curve.minWeightPercent };
    for (const [key, el] of Object.entries(this.#fields)) {
      const value = values[key];
      if ((typeof value !== 'string' && typeof value !== 'number') || Number.isNaN(value)) continue;
      el.value = String(value);
      el.setAttribute('aria-invalid', 'false');
      if (this.#errors[key]) this.#errors[key].hidden = true;
    }
    this.#syncEnvoy();
    this.#options?.reset(flapValues(next));
    if (!quiet) this.#onChange(this.#settings);
  }

  #form(label: string, fields: HTMLElement[], doc = this.#doc): HTMLFormElement {
    const form = h(doc, 'form', { class: 'ss-traffic-controls', attrs: { 'aria-label': label } }, ...fields);
    form.addEventListener('submit', (e) => e.preventDefault());
    form.addEventListener('change', () => {
      const next = this.#read();
      if (!next) return;
      this.#settings = next;
      this.#syncEnvoy();
      this.#options?.sync();
      this.#onChange(next);
    });
    return form;
  }

  // A labelled field with its hint, and a place for its error.
  #field(key: string, label: string, el: Field): HTMLElement {
    this.#fields[key] = el;
    this.#labels[key] = label;
    const field = labelledField(this.#doc, label, el, HINTS[key] ?? '');
    this.#errors[key] = field.error;
    return field.element;
  }

  #select(key: string, label: string, options: Array<[string, string]>, value: string): HTMLElement {
    const el = h(this.#doc, 'select', { class: 'ss-select' });
    for (const [v, text] of options) el.append(h(this.#doc, 'option', { text, attrs: { value: v } }));
    el.value = value;
    return this.#field(key, label, el);
  }

  #number(key: string, label: string, value: number, attrs: Record<string, string>): HTMLElement {
    const el = h(this.#doc, 'input', { class: 'ss-number', attrs: { type: 'number', inputmode: 'decimal', ...attrs } });
    el.value = String(value);
    return this.#field(key, label, el);
  }

  // Reads every field. An out-of-range number is marked invalid and says
  // what it takes; then nothing changes (null) and onInvalid hears why.
  #read(): TrafficSettings | null {
    const f = this.#fields;
    const problems: string[] = [];
    const num = (key: string, fallback: number) => {
      const el = f[key] as HTMLInputElement | undefined;
      if (!el) return fallback;
      const v = Number(el.value);
      const ok = el.value !== '' && Number.isFinite(v) && el.checkValidity();
      el.setAttribute('aria-invalid', ok ? 'false' : 'true');
      const error = this.#errors[key];
      error.hidden = ok;
      if (ok) return v;
      const message = `${this.#labels[key]} must be ${takes(el)}`;
      setText(error, `${takes(el)[0].toUpperCase()}${takes(el).slice(1)}.`);
      problems.push(message);
      return Number.NaN;
    };
    const next: TrafficSettings = {
      curve: {
        kind: (f.kind?.value ?? 'linear') as TrafficSettings['curve']['kind'],
        resolution: Number(f.resolution?.value ?? 0) as 0 | 1 | 16 | 100 | 1000,
        aggression: num('aggression', this.#settings.curve.aggression),
        minWeightPercent: num('floor', this.#settings.curve.minWeightPercent),
      },
      rps: num('rps', this.#settings.rps),
      trapLoad: num('trapLoad', this.#settings.trapLoad),
      policy: (f.policy?.value ?? this.#settings.policy) as TrafficSettings['policy'],
      coldFactor: num('coldFactor', this.#settings.coldFactor),
      warmup: num('warmup', this.#settings.warmup),
      flapScenario: (f.flapScenario?.value ?? this.#settings.flapScenario) as TrafficSettings['flapScenario'],
      flapPolicy: (f.flapPolicy?.value ?? this.#settings.flapPolicy) as Policy,
      rampBy: (f.rampBy?.value ?? this.#settings.rampBy) as TrafficSettings['rampBy'],
      health: (f.health?.value ?? this.#settings.health) as TrafficSettings['health'],
      timeoutMs: num('timeoutMs', this.#settings.timeoutMs),
      retries: num('retries', this.#settings.retries),
      flapLoad: num('flapLoad', this.#settings.flapLoad),
      warmBy: (f.warmBy?.value ?? this.#settings.warmBy) as TrafficSettings['warmBy'],
      flapAnswers: (f.flapAnswers?.value ?? this.#settings.flapAnswers) as TrafficSettings['flapAnswers'],
      flapCompare: (f.flapCompare?.value ?? this.#settings.flapCompare) as TrafficSettings['flapCompare'],
      flapOptions: this.#settings.flapOptions,
    };
    if (problems.length) {
      this.#onInvalid(problems.join('; '));
      return null;
    }
    return next;
  }

  #syncEnvoy(): void {
    for (const el of this.#envoyOnly) el.hidden = this.#settings.curve.kind !== 'envoy';
  }
}

