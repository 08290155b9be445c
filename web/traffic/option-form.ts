// The simulation's options as a form, made from the engine's option table
// (Lab.trafficOptionTable: the rows `slowstart simulate --help` and its
// parser are made from), so that every option that changes a run can be set
// in the lab and none is forgotten or misspelled here. Grouped as the table
// groups them (load, balancer, service model, timeouts and retries, health
// check, the stable moment); in each group the options a learner reaches for
// first are shown, the rest folded under "More". Each field shows the
// option's default (for a health check's parameters: that balancer's), its
// unit, its help and its flag; an option that takes effect only under
// another's value (a health check's parameters, least request's bias) shows
// only then. A value out of range is refused with the table's words for
// what it takes, and changes nothing.
import type { TrafficOptionInfo } from '../api/index.js';
import { h, setText } from '../shared/dom.js';
import { labelledField } from './form-field.js';
import type { OptionValue } from './lab-settings.js';

export type OptionRow = TrafficOptionInfo;

/** The groups, in order, and their headings. */
const GROUPS: Array<[OptionRow['group'], string]> = [
  ['load', 'Load'],
  ['policy', 'Balancer'],
  ['service model', 'Service model'],
  ['retries', 'Timeouts and retries'],
  ['health check', 'Health check'],
  ['output', 'The stable moment'],
];

export interface OptionFormOptions {
  /** Options the lab sets itself (a run's slow start, its bucket...): not in the form. */
  exclude: ReadonlySet<string>;
  /** Options shown unfolded in their group. */
  primary: ReadonlySet<string>;
  /** Options whose empty field means "the lab chooses" (a rate, a duration), with what it says instead of a default. */
  auto?: Readonly<Record<string, string>>;
  /** A field's label, where the table's (the CLI's word) is not the plainest. */
  labels?: Readonly<Record<string, string>>;
  /** A choice's words, by option and value ("policy" → "wrr" → "Smooth WRR (nginx)"). */
  choiceText?: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** The values set at first, by key (the others are the engine's defaults). */
  values: Readonly<Record<string, OptionValue>>;
  /** The values of options the form leaves out that others depend on ("service": true), and which groups apply. */
  context: () => { values: Readonly<Record<string, OptionValue>>; groups?: (group: string) => boolean };
  /** The values in effect (set, and shown: a hidden option's value is not), each time one changes. */
  onChange(values: Record<string, OptionValue>): void;
  /** What is wrong ("interval must be …"), while a field is out of range. */
  onInvalid(problem: string): void;
}

interface Field {
  row: OptionRow;
  el: HTMLInputElement | HTMLSelectElement | null;
  box: HTMLElement;
  error: HTMLElement | null;
}

export class OptionForm {
  readonly element: HTMLFormElement;
  readonly #fields = new Map<string, Field>();
  readonly #groups: Array<{ group: string; set: HTMLFieldSetElement }> = [];
  readonly #options: OptionFormOptions;
  /** Every value set (hidden ones too: shown again, an option has its value back). */
  #values: Record<string, OptionValue>;

  constructor(doc: Document, rows: readonly OptionRow[], options: OptionFormOptions) {
    this.#options = options;
    this.#values = { ...options.values };
    const form = (this.element = h(doc, 'form', { class: 'ss-options', attrs: { 'aria-label': 'Every option of the flapping runs', novalidate: '' } }));
    form.addEventListener('submit', (e) => e.preventDefault());
    for (const [group, title] of GROUPS) {
      const mine = rows.filter((r) => r.group === group && !(r.key && options.exclude.has(r.key)) && (r.key || r.kind === 'fixed'));
      if (!mine.some((r) => r.key)) continue;
      const set = h(doc, 'fieldset', { class: 'ss-option-group' }, h(doc, 'legend', { text: title }));
      const first = h(doc, 'div', { class: 'ss-traffic-controls' });
      const more = h(doc, 'div', { class: 'ss-traffic-controls' });
      // (a rule always applied is said with the options shown)
      for (const row of mine) (!row.key || options.primary.has(row.key) ? first : more).append(this.#field(doc, row));
      set.append(first);
      if (more.childElementCount) set.append(h(doc, 'details', { class: 'ss-option-more' }, h(doc, 'summary', { text: `More: ${this.#labels(mine.filter((r) => r.key && !options.primary.has(r.key)))}` }), more));
      form.append(set);
      this.#groups.push({ group, set });
    }
    form.addEventListener('change', () => this.#read());
    this.#sync();
  }

  /** The values in effect: set, and shown. */
  get values(): Record<string, OptionValue> {
    const out: Record<string, OptionValue> = {};
    for (const [key, value] of Object.entries(this.#values)) if (this.#inEffect(key)) out[key] = value;
    return out;
  }

  /** Starts again from these values (a preset's), without saying so. */
  reset(values: Readonly<Record<string, OptionValue>>): void {
    this.#values = {};
    for (const [key, value] of Object.entries(values)) {
      const f = this.#fields.get(key);
      if (f && String(value) !== String(f.row.default)) this.#values[key] = value;
    }
    for (const f of this.#fields.values()) {
      if (!f.el) continue;
      this.#show(f);
      f.el.setAttribute('aria-invalid', 'false');
      f.error!.hidden = true;
    }
    this.#sync();
  }

  /** Shows and hides what depends on the context (call when it changes). */
  sync(): void {
    this.#sync();
  }

  #labels(rows: OptionRow[]): string {
    return rows.map((r) => this.#label(r)).join(', ');
  }

  #label(row: OptionRow): string {
    return this.#options.labels?.[row.key ?? ''] ?? row.label[0].toUpperCase() + row.label.slice(1);
  }

  #field(doc: Document, row: OptionRow): HTMLElement {
    if (!row.key) {
      // A rule the model always applies (HAProxy's observe layer7): said, not set.
      const box = h(doc, 'p', { class: 'ss-option-fixed', text: `${row.label} ${String(row.default)} (always)` });
      this.#fields.set(`fixed:${row.label}`, { row, el: null, box, error: null });
      return box;
    }
    const key = row.key;
    let el: HTMLInputElement | HTMLSelectElement;
    if (row.kind === 'choice' || row.kind === 'level' || row.kind === 'switch') {
      el = h(doc, 'select', { class: 'ss-select' });
      const choices = row.kind === 'switch' ? ['true', 'false'] : row.choices.map(String);
      const words = this.#options.choiceText?.[key] ?? {};
      for (const c of choices) el.append(h(doc, 'option', { text: words[c] ?? (row.kind === 'switch' ? (c === 'true' ? 'On' : 'Off') : c), attrs: { value: c } }));
    } else {
      const attrs: Record<string, string> = { type: 'number', inputmode: row.kind === 'number' ? 'decimal' : 'numeric', step: row.kind === 'number' ? 'any' : '1' };
      if (row.min !== undefined && row.min !== null) attrs.min = String(row.min);
      if (row.max !== undefined && row.max !== null) attrs.max = String(row.max);
      el = h(doc, 'input', { class: 'ss-number', attrs });
      el.placeholder = this.#options.auto?.[key] ? 'auto' : row.defaultText ? 'auto' : String(row.default);
    }
    const auto = this.#options.auto?.[key];
    const unit = row.unit ? ` ${row.unit}` : '';
    const said = auto ? `Empty: ${auto}.` : `Default: ${row.defaultText || `${String(row.default)}${unit}`}.`;
    const field = labelledField(doc, this.#label(row), el, `${row.help[0].toUpperCase()}${row.help.slice(1)}. ${said}`);
    // (the CLI's flag, in one piece)
    if (row.flag) field.element.querySelector('.ss-field-hint')!.append(' ', h(doc, 'code', { class: 'ss-flag', text: row.flag }));
    field.element.dataset.option = key;
    const f: Field = { row, el, box: field.element, error: field.error };
    this.#fields.set(key, f);
    this.#show(f);
    return field.element;
  }

  // The field shows the value set, else the default (a number field: empty, the default as its placeholder).
  #show(f: Field): void {
    const v = this.#values[f.row.key!];
    if (f.el!.localName === 'select') f.el!.value = String(v ?? f.row.default);
    else f.el!.value = v === undefined ? '' : String(v);
  }

  // An option takes effect when what it depends on has the value it needs (and that one takes effect), and its group applies.
  #inEffect(key: string, seen = 0): boolean {
    const f = this.#fields.get(key);
    if (!f) return false;
    const context = this.#options.context();
    if (context.groups && !context.groups(f.row.group)) return false;
    const w = f.row.when;
    if (!w || seen > 8) return true;
    const dependsOn = this.#fields.get(w.key);
    const value = dependsOn ? (this.#values[w.key] ?? dependsOn.row.default) : context.values[w.key];
    return String(value) === w.value && (!dependsOn || this.#inEffect(w.key, seen + 1));
  }

  #sync(): void {
    const context = this.#options.context();
    for (const { group, set } of this.#groups) set.hidden = Boolean(context.groups && !context.groups(group));
    for (const [key, f] of this.#fields) {
      if (key.startsWith('fixed:')) {
        const w = f.row.when;
        const dependsOn = w && this.#fields.get(w.key);
        f.box.hidden = Boolean(w && dependsOn && String(this.#values[w.key] ?? dependsOn.row.default) !== w.value);
      } else f.box.hidden = !this.#inEffect(key);
    }
  }

  // Reads every field. A value out of range is marked, says what it takes
  // (the table's words), and nothing changes; onInvalid hears why.
  #read(): void {
    const problems: string[] = [];
    const next: Record<string, OptionValue> = {};
    for (const [key, f] of this.#fields) {
      const { row, el, error } = f;
      if (!el || !error) continue;
      // (a hidden option keeps its value: it is not in effect, and its field cannot be seen)
      if (!this.#inEffect(key)) {
        if (key in this.#values) next[key] = this.#values[key];
        continue;
      }
      let value: OptionValue | undefined;
      if (el.localName === 'select') value = row.kind === 'level' ? Number(el.value) : row.kind === 'switch' ? el.value === 'true' : el.value;
      else if (el.value === '') value = undefined;
      else {
        const v = Number(el.value);
        const whole = row.kind !== 'number';
        const ok =
          el.value.trim() !== '' &&
          Number.isFinite(v) &&
          (!whole || Number.isInteger(v)) &&
          (row.min === undefined || row.min === null || (row.aboveMin ? v > row.min : v >= row.min)) &&
          (row.max === undefined || row.max === null || v <= row.max);
        el.setAttribute('aria-invalid', String(!ok));
        error.hidden = ok;
        if (!ok) {
          setText(error, `${row.takes[0].toUpperCase()}${row.takes.slice(1)}.`);
          problems.push(`${this.#label(row)} must be ${row.takes}`);
          continue;
        }
        value = v;
      }
      // Only what differs from the default is kept: the rest is the engine's.
      if (value !== undefined && String(value) !== String(row.default)) next[key] = value;
    }
    if (problems.length) {
      this.#options.onInvalid(problems.join('; '));
      return;
    }
    for (const f of this.#fields.values()) {
      f.el?.setAttribute('aria-invalid', 'false');
      if (f.error) f.error.hidden = true;
    }
    this.#values = next;
    this.#sync();
    this.#options.onChange(this.values);
  }
}
