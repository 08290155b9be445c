// The Traffic view's settings: the ramp curve (with Envoy's aggression and
// floor), the weight resolution, the request rate, and the service model of
// the least-request comparison. Plain labelled form controls.
import type { Curve, TrafficOptions } from '../api/index.js';
import { h, uniqueId } from '../runner/dom.js';

export interface TrafficSettings {
  curve: Required<Curve>;
  rps: number;
  /**
   * The trap's load, in percent of what all backends can serve when warm
   * (each serves 128 at once at 200 ms: 640 requests/s). Queues form only
   * under real load, so the trap is shown at a load, not a fixed rate.
   */
  trapLoad: number;
  policy: 'least-request' | 'wrr';
  coldFactor: number;
  warmup: number;
}

export const DEFAULT_SETTINGS: TrafficSettings = {
  curve: { kind: 'linear', resolution: 100, aggression: 1, minWeightPercent: 10 },
  rps: 1000,
  trapLoad: 60,
  policy: 'least-request',
  coldFactor: 5,
  warmup: 30,
};

type Field = HTMLSelectElement | HTMLInputElement;

export class TrafficControls {
  readonly element: HTMLFormElement;
  readonly #fields: Record<string, Field> = {};
  readonly #envoyOnly: HTMLElement[] = [];
  #settings: TrafficSettings;

  constructor(parent: HTMLElement, initial: TrafficSettings, onChange: (s: TrafficSettings) => void) {
    const doc = parent.ownerDocument;
    this.#settings = structuredClone(initial);
    this.element = h(doc, 'form', { class: 'ss-traffic-controls', attrs: { 'aria-label': 'Traffic settings' } });
    this.element.addEventListener('submit', (e) => e.preventDefault());

    const select = (key: string, label: string, options: Array<[string, string]>, value: string) => {
      const id = uniqueId('ss-tc');
      const el = h(doc, 'select', { class: 'ss-select', attrs: { id } });
      for (const [v, text] of options) el.append(h(doc, 'option', { text, attrs: { value: v } }));
      el.value = value;
      this.#fields[key] = el;
      return h(doc, 'span', { class: 'ss-field' }, h(doc, 'label', { text: label, attrs: { for: id } }), el);
    };
    const number = (key: string, label: string, value: number, attrs: Record<string, string>) => {
      const id = uniqueId('ss-tc');
      const el = h(doc, 'input', { class: 'ss-number', attrs: { id, type: 'number', inputmode: 'decimal', ...attrs } });
      el.value = String(value);
      this.#fields[key] = el;
      return h(doc, 'span', { class: 'ss-field' }, h(doc, 'label', { text: label, attrs: { for: id } }), el);
    };

    const s = this.#settings;
    const aggression = number('aggression', 'Aggression', s.curve.aggression, { min: '0.1', max: '10', step: '0.1' });
    const floor = number('floor', 'Floor %', s.curve.minWeightPercent, { min: '0', max: '100', step: '1' });
    this.#envoyOnly.push(aggression, floor);
    this.element.append(
      select('kind', 'Ramp curve', [['linear', 'Linear (SPEC, NGINX)'], ['envoy', 'Envoy'], ['haproxy', 'HAProxy (16 steps)']], s.curve.kind),
      aggression,
      floor,
      select('resolution', 'Resolution', [['1', '×1 (SPEC)'], ['16', '×16'], ['100', '×100'], ['1000', '×1000']], String(s.curve.resolution)),
      number('rps', 'Requests/s', s.rps, { min: '1', max: '100000', step: '1' }),
    );
    this.#syncEnvoy();
    parent.append(this.element);
    this.element.addEventListener('change', () => {
      const next = this.#read();
      if (next) {
        this.#settings = next;
        this.#syncEnvoy();
        onChange(next);
      }
    });
  }

  /** The least-request comparison's own controls (placed by the view). */
  trapControls(doc: Document, onChange: (s: TrafficSettings) => void): HTMLFormElement {
    const form = h(doc, 'form', { class: 'ss-traffic-controls', attrs: { 'aria-label': 'Least-request trap settings' } });
    form.addEventListener('submit', (e) => e.preventDefault());
    const add = (key: string, label: string, el: Field) => {
      const id = uniqueId('ss-tc');
      el.id = id;
      this.#fields[key] = el;
      form.append(h(doc, 'span', { class: 'ss-field' }, h(doc, 'label', { text: label, attrs: { for: id } }), el));
    };
    const policy = h(doc, 'select', { class: 'ss-select' });
    policy.append(
      h(doc, 'option', { text: 'Least request (Envoy)', attrs: { value: 'least-request' } }),
      h(doc, 'option', { text: 'Smooth weighted round-robin', attrs: { value: 'wrr' } }),
    );
    policy.value = this.#settings.policy;
    add('policy', 'Balancing', policy);
    const load = h(doc, 'input', { class: 'ss-number', attrs: { type: 'number', min: '5', max: '200', step: '5' } });
    load.value = String(this.#settings.trapLoad);
    add('trapLoad', 'Load %', load);
    const cold = h(doc, 'input', { class: 'ss-number', attrs: { type: 'number', min: '1', max: '50', step: '0.5' } });
    cold.value = String(this.#settings.coldFactor);
    add('coldFactor', 'Cold ×', cold);
    const warm = h(doc, 'input', { class: 'ss-number', attrs: { type: 'number', min: '0', max: '600', step: '1' } });
    warm.value = String(this.#settings.warmup);
    add('warmup', 'Warm-up s', warm);
    form.addEventListener('change', () => {
      const next = this.#read();
      if (next) {
        this.#settings = next;
        onChange(next);
      }
    });
    return form;
  }

  get settings(): TrafficSettings {
    return this.#settings;
  }

  // Reads every field; an out-of-range number is marked invalid and ignored.
  #read(): TrafficSettings | null {
    const f = this.#fields;
    const num = (key: string, fallback: number) => {
      const el = f[key] as HTMLInputElement | undefined;
      if (!el) return fallback;
      const v = Number(el.value);
      const ok = el.value !== '' && Number.isFinite(v) && el.checkValidity();
      el.setAttribute('aria-invalid', ok ? 'false' : 'true');
      return ok ? v : Number.NaN;
    };
    const next: TrafficSettings = {
      curve: {
        kind: (f.kind?.value ?? 'linear') as TrafficSettings['curve']['kind'],
        resolution: Number(f.resolution?.value ?? 100) as 1 | 16 | 100 | 1000,
        aggression: num('aggression', this.#settings.curve.aggression),
        minWeightPercent: num('floor', this.#settings.curve.minWeightPercent),
      },
      rps: num('rps', this.#settings.rps),
      trapLoad: num('trapLoad', this.#settings.trapLoad),
      policy: (f.policy?.value ?? this.#settings.policy) as TrafficSettings['policy'],
      coldFactor: num('coldFactor', this.#settings.coldFactor),
      warmup: num('warmup', this.#settings.warmup),
    };
    const values = [next.curve.aggression, next.curve.minWeightPercent, next.rps, next.trapLoad, next.coldFactor, next.warmup];
    return values.every(Number.isFinite) && next.curve.aggression > 0 && next.rps > 0 && next.trapLoad > 0 ? next : null;
  }

  #syncEnvoy(): void {
    for (const el of this.#envoyOnly) el.hidden = this.#settings.curve.kind !== 'envoy';
  }
}

/** Simulation options from settings. */
export function shareOptions(s: TrafficSettings, bucket: number): TrafficOptions {
  return { rps: s.rps, bucket, curve: s.curve };
}

/** What one warm backend serves per second: 128 workers / 200 ms (the engine's default service model). */
export const WARM_CAPACITY_RPS = 128 / 0.2;

export function trapOptions(rps: number, s: TrafficSettings, bucket: number, slowStart: boolean): TrafficOptions {
  return {
    rps,
    bucket,
    curve: s.curve,
    policy: s.policy,
    slowStart,
    service: { coldFactor: s.coldFactor, warmup: s.warmup },
  };
}
