// A run's incident timeline, under its share chart and lanes: latency and
// failures per bucket on the same time axis, the script's events and the
// moment the run became stable marked on each, a readout with the numbers
// of the bin under the cursor (the pointer over any chart of the run, or
// the arrow keys once the run's charts have the focus), and the same numbers
// as a table for a screen reader (built when opened). Latency is each
// backend's mean, and the client's p50 and p99 per bucket (its whole wait,
// retries included) drawn over them as two more lines (LATENCY_COLUMNS).
import type { Traffic } from '../api/index.js';
import { h, setText, uniqueId } from '../shared/dom.js';
import { binFacts, describeBin, STATE_WORDS } from './bin-facts.js';
import { BucketChart, type BucketSeries } from './bucket-chart.js';
import type { TimeAxis } from './time-axis.js';
import type { TimeMarks } from './time-frame.js';
import { seconds } from './time-words.js';

/** The client's latency columns (one value per bucket), drawn over the backends' means. */
const LATENCY_COLUMNS = [
  { key: 'clientP50Ms', name: 'client p50', className: 'ss-p50' },
  { key: 'clientP99Ms', name: 'client p99', className: 'ss-p99' },
] as const;

const latencyText = (v: number) => (Number.isNaN(v) ? '—' : `${Math.round(v).toLocaleString('en-US')} ms`);

/** Rows of the table at most: past it, rows cover several bins. */
const TABLE_ROWS = 150;

export interface IncidentRun {
  traffic: Traffic;
  marks: TimeMarks;
  /** The run had the service model (latency is meaningful). */
  service: boolean;
}

export class IncidentTimeline {
  readonly element: HTMLDivElement;
  readonly latency: BucketChart;
  readonly failures: BucketChart;
  readonly readout: HTMLParagraphElement;
  readonly #table: HTMLDetailsElement;
  readonly #axis: TimeAxis;
  readonly #latencyCaption: HTMLParagraphElement;
  #run: IncidentRun | null = null;

  constructor(parent: HTMLElement, title: string, axis: TimeAxis) {
    const doc = parent.ownerDocument;
    this.#axis = axis;
    this.element = h(doc, 'div', { class: 'ss-incident' });
    parent.append(this.element);
    this.#latencyCaption = h(doc, 'p', { class: 'ss-chart-caption', text: 'Latency: each backend’s mean (its colour); the client’s p50 (plain) and p99 (dashed), its whole wait with retries' });
    this.element.append(this.#latencyCaption);
    this.latency = new BucketChart(this.element, `${title}: latency over time`, axis, 110);
    this.element.append(h(doc, 'p', { class: 'ss-chart-caption', text: 'Failed requests: retried elsewhere, or seen by the client' }));
    this.failures = new BucketChart(this.element, `${title}: failed requests over time`, axis, 80);
    this.readout = h(doc, 'p', { class: 'ss-readout', attrs: { id: uniqueId('ss-ro'), 'aria-live': 'off' } });
    this.element.append(this.readout);
    const summary = h(doc, 'summary', { text: 'The numbers as a table' });
    this.#table = h(doc, 'details', { class: 'ss-incident-table' }, summary);
    this.#table.addEventListener('toggle', () => this.#table.open && this.#fillTable());
    this.element.append(this.#table);
    axis.listen((change) => {
      if (change === 'cursor') this.#say();
      else if (this.#table.open) this.#fillTable();
    });
  }

  set(run: IncidentRun | null, latencyTop?: number, failuresTop?: number): void {
    this.#run = run;
    this.element.hidden = !run;
    if (!run) return;
    // Instant answers have no latency to draw.
    this.#latencyCaption.hidden = this.latency.element.hidden = !run.service;
    const t = run.traffic;
    const n = t.names.length;
    const shown = t.names.slice(0, 10);
    const latency: BucketSeries[] = shown.map((name, id) => ({
      id,
      name,
      at: (k) => t.latencyMs[k * n + id],
      weight: (k) => t.requests[k * n + id],
    }));
    for (const c of LATENCY_COLUMNS) {
      const values = t[c.key];
      latency.push({ id: -1, name: c.name, className: c.className, at: (k) => values[k] });
    }
    this.latency.set({ mode: 'lines', bucket: t.bucket, buckets: t.buckets, series: latency, unit: 'ms', yMax: latencyTop, marks: run.marks });
    const sum = (column: Uint32Array, k: number) => {
      let v = 0;
      for (let id = 0; id < n; id++) v += column[k * n + id];
      return v;
    };
    this.failures.set({
      mode: 'bars',
      bucket: t.bucket,
      buckets: t.buckets,
      series: [
        { id: -1, name: 'seen by the client (not retried, or no backend)', className: 'ss-client-errors', at: (k) => sum(t.failed, k) - sum(t.retried, k) + t.unrouted[k] },
        { id: -1, name: 'retried elsewhere', className: 'ss-retried', at: (k) => sum(t.retried, k) },
      ],
      yMax: failuresTop,
      marks: run.marks,
    });
    this.#say();
    if (this.#table.open) this.#fillTable();
  }

  /** Makes the readout spoken (while the run's charts have the focus). */
  set live(on: boolean) {
    this.readout.setAttribute('aria-live', on ? 'polite' : 'off');
  }

  // The readout: the bin under the cursor, or how to get one.
  #say(): void {
    const run = this.#run;
    const bins = this.failures.binning();
    const cursor = this.#axis.cursor;
    if (!run || !bins) return;
    if (cursor === null) {
      setText(this.readout, 'Point at a chart, or focus the run and use ← →, to read a moment’s numbers; drag across a chart to zoom in.');
      return;
    }
    const t = run.traffic;
    const b = Math.floor(cursor / t.bucket / bins.size);
    setText(this.readout, describeBin(binFacts(t, b * bins.size, (b + 1) * bins.size), run.service));
  }

  // One row per bin of the window (fewer, wider rows past TABLE_ROWS).
  #fillTable(): void {
    const run = this.#run;
    const bins = this.failures.binning();
    const doc = this.element.ownerDocument;
    this.#table.querySelector('table')?.remove();
    if (!run || !bins) return;
    const t = run.traffic;
    const per = Math.max(1, Math.ceil((bins.last - bins.first + 1) / TABLE_ROWS));
    const names = t.names.slice(0, 12);
    const cell = (tag: 'td' | 'th', text: string, scope?: string) => h(doc, tag, { text, attrs: scope ? { scope } : {} });
    const head = h(doc, 'tr', {}, cell('th', 'Time', 'col'), cell('th', 'Requests', 'col'), ...names.map((n) => cell('th', `${n}`, 'col')), cell('th', 'Mean latency', 'col'), cell('th', 'Client p50', 'col'), cell('th', 'Client p99', 'col'), cell('th', 'Failed', 'col'), cell('th', 'Seen by the client', 'col'));
    const rows: HTMLTableRowElement[] = [];
    for (let b = bins.first; b <= bins.last; b += per) {
      const f = binFacts(t, b * bins.size, (b + per) * bins.size);
      rows.push(
        h(
          doc,
          'tr',
          {},
          cell('th', `${Number(f.from.toFixed(2))}–${seconds(f.to)}`, 'row'),
          cell('td', f.requests.toLocaleString('en-US')),
          ...f.backends.map((x) => cell('td', `${STATE_WORDS[x.state]}, ${(x.share * 100).toFixed(1)} %`)),
          cell('td', latencyText(f.latencyMs)),
          // Several buckets in a row: the highest of theirs.
          cell('td', (f.buckets > 1 && !Number.isNaN(f.clientP50Ms) ? 'up to ' : '') + latencyText(f.clientP50Ms)),
          cell('td', (f.buckets > 1 && !Number.isNaN(f.clientP99Ms) ? 'up to ' : '') + latencyText(f.clientP99Ms)),
          cell('td', f.failed.toLocaleString('en-US')),
          cell('td', f.clientErrors.toLocaleString('en-US')),
        ),
      );
    }
    const marks = run.marks;
    const caption = h(doc, 'caption', {
      text:
        `${seconds(this.#axis.start)} to ${seconds(this.#axis.end)}` +
        (marks.events?.length ? `; events: ${marks.events.map((e) => `${e.label} at ${seconds(e.time)}`).join(', ')}` : '') +
        (marks.stableAt !== undefined ? `; ${marks.stableAt === null ? 'never stable' : `stable from ${seconds(marks.stableAt)}`}` : ''),
    });
    this.#table.append(h(doc, 'table', { class: 'ss-table' }, caption, h(doc, 'thead', {}, head), h(doc, 'tbody', {}, ...rows)));
  }
}
