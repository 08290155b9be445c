// One run of the flapping comparison, as a panel: its title, the share of
// requests with the script's events and the stable moment marked, each
// backend's lane, the incident timeline (latency, failures, the readout and
// the table), and a sentence of numbers. The run's charts are one focusable
// group: ← and → move the cursor a bin at a time (Home, End), + and − zoom
// around it, 0 shows the whole run; the readout is spoken while it has the
// focus.
import type { Traffic } from '../api/index.js';
import { h, setText } from '../shared/dom.js';
import { BucketChart } from './bucket-chart.js';
import { CommandBox } from './command-box.js';
import { IncidentTimeline } from './incident-timeline.js';
import { StateLanes } from './state-lanes.js';
import type { TimeAxis } from './time-axis.js';
import type { TimeMarks } from './time-frame.js';

export class RunPanel {
  readonly element: HTMLElement;
  readonly share: BucketChart;
  readonly lanes: StateLanes;
  readonly incident: IncidentTimeline;
  readonly summary: HTMLParagraphElement;
  /** The run's command line (set by the view, with the run's script and arguments). */
  readonly command: CommandBox;
  readonly #axis: TimeAxis;
  readonly #title: HTMLElement;
  readonly #charts: HTMLElement;

  constructor(parent: HTMLElement, title: string, level: number, axis: TimeAxis) {
    const doc = parent.ownerDocument;
    this.#axis = axis;
    this.element = h(doc, 'section', { class: 'ss-flap-side' });
    this.#title = h(doc, `h${level}` as 'h4', { class: 'ss-trap-title', text: title });
    this.element.append(this.#title);
    const charts = (this.#charts = h(doc, 'div', { class: 'ss-run-charts', attrs: { tabindex: '0', role: 'group' } }));
    this.share = new BucketChart(charts, `${title}: share of requests over time`, axis, 150);
    this.lanes = new StateLanes(charts, `${title}: each backend's state over time`, axis);
    this.incident = new IncidentTimeline(charts, title, axis);
    charts.setAttribute('aria-describedby', this.incident.readout.id);
    this.command = new CommandBox(doc, title);
    this.title = title;
    this.element.append(charts);
    this.summary = h(doc, 'p', { class: 'ss-trap-summary' });
    this.element.append(this.summary, this.command.element);
    parent.append(this.element);
    charts.addEventListener('keydown', (e) => this.#key(e));
    charts.addEventListener('focus', () => {
      this.incident.live = true;
      if (axis.cursor === null) axis.cursor = axis.start + this.#binSeconds() / 2;
    });
    charts.addEventListener('blur', () => (this.incident.live = false));
  }

  /** The run's name (its heading, and its charts' name for a screen reader). */
  set title(title: string) {
    setText(this.#title, title);
    this.command.name = title;
    this.#charts.setAttribute('aria-label', `${title}: the run's charts. Left and right arrows move through time, plus and minus zoom, 0 shows the whole run.`);
  }

  /** `service`: the run had the service model (latency; else answers were instant and only 503s can fail). */
  set(t: Traffic, marks: TimeMarks, service: boolean, tops: { latencyMs?: number; failures?: number } = {}): void {
    const n = t.names.length;
    this.share.set({
      mode: 'stack',
      bucket: t.bucket,
      buckets: t.buckets,
      series: t.names.map((name, id) => ({ id, name, at: (k) => t.requests[k * n + id] })),
      total: (k) => t.total[k],
      rest: (k) => t.unrouted[k],
      marks,
      eventLabels: true,
    });
    this.lanes.set(t, marks);
    this.incident.set({ traffic: t, marks, service }, tops.latencyMs, tops.failures);
  }

  #binSeconds(): number {
    const d = this.share.data;
    const bins = this.share.binning();
    return d && bins ? bins.size * d.bucket : 1;
  }

  #key(e: KeyboardEvent): void {
    const axis = this.#axis;
    const step = this.#binSeconds();
    const at = axis.cursor ?? axis.start;
    const keys: Record<string, () => void> = {
      ArrowLeft: () => (axis.cursor = at - step),
      ArrowRight: () => (axis.cursor = Math.min(axis.duration - step / 2, at + step)),
      Home: () => (axis.cursor = axis.start + step / 2),
      End: () => (axis.cursor = axis.end - step / 2),
      '+': () => axis.zoom(0.5, at),
      '=': () => axis.zoom(0.5, at),
      '-': () => axis.zoom(2, at),
      '0': () => axis.reset(),
    };
    const act = keys[e.key];
    if (!act) return;
    e.preventDefault();
    act();
    // The cursor stays in the window: moved past an edge, the window follows.
    const c = axis.cursor;
    if (c !== null && (c < axis.start || c > axis.end)) axis.pan(c < axis.start ? -0.5 : 0.5);
  }
}
