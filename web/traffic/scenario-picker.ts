// "Start from a scenario": the presets of scenarios.ts as a small form. The
// learner picks one, sets its few numbers, and Write the script puts an
// ordinary script in the editor (one undoable edit) and sets the lab up for
// it; the sentence under it says what the runs isolate.
import { h, setText } from '../shared/dom.js';
import { labelledField, takes } from './form-field.js';
import { SCENARIOS, type Scenario } from './scenarios.js';
import type { TrafficSettings } from './lab-settings.js';

export interface ScenarioWrite {
  script: string;
  settings: Partial<TrafficSettings>;
  note: string;
  scenario: Scenario;
}

export class ScenarioPicker {
  readonly element: HTMLElement;
  readonly #doc: Document;
  readonly #params: HTMLElement;
  readonly #about: HTMLParagraphElement;
  readonly #note: HTMLParagraphElement;
  readonly #select: HTMLSelectElement;
  #inputs: Array<{ key: string; el: HTMLInputElement | HTMLSelectElement; error: HTMLElement; label: string }> = [];

  constructor(doc: Document, headingLevel: number, onWrite: (w: ScenarioWrite) => void) {
    this.#doc = doc;
    this.#select = h(doc, 'select', { class: 'ss-select' });
    for (const s of SCENARIOS) this.#select.append(h(doc, 'option', { text: s.title, attrs: { value: s.id } }));
    const pick = labelledField(doc, 'Scenario preset', this.#select, 'A starting point: it writes an ordinary script you can edit.');
    this.#params = h(doc, 'span', { class: 'ss-scenario-params' });
    const write = h(doc, 'button', { class: 'ss-btn ss-primary ss-scenario-write', text: 'Write the script', attrs: { type: 'submit' } });
    const form = h(doc, 'form', { class: 'ss-traffic-controls ss-scenario-form', attrs: { 'aria-label': 'Start from a scenario', novalidate: '' } }, pick.element, this.#params, write);
    this.#about = h(doc, 'p', { class: 'ss-traffic-intro ss-scenario-about' });
    this.#note = h(doc, 'p', { class: 'ss-chart-note ss-scenario-note', attrs: { role: 'status' } });
    this.element = h(
      doc,
      'section',
      { class: 'ss-scenarios' },
      h(doc, `h${headingLevel}` as 'h3', { class: 'ss-traffic-heading', text: 'Start from a scenario' }),
      form,
      this.#about,
      this.#note,
    );
    this.#select.addEventListener('change', () => this.#show());
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const w = this.#read();
      if (!w) return;
      setText(this.#note, `${w.scenario.title}: written into the editor (Undo brings your script back). ${w.note}`);
      onWrite(w);
    });
    this.#show();
  }

  get scenario(): Scenario {
    return SCENARIOS.find((s) => s.id === this.#select.value)!;
  }

  /** Picks scenario `id` (for a link or a test). */
  choose(id: string): void {
    this.#select.value = id;
    this.#show();
  }

  // The chosen scenario's parameters as fields.
  #show(): void {
    const doc = this.#doc;
    const s = this.scenario;
    setText(this.#about, s.about);
    setText(this.#note, '');
    this.#inputs = [];
    const fields: HTMLElement[] = [];
    for (const p of s.parameters) {
      const el = h(doc, 'input', { class: 'ss-number', attrs: { type: 'number', inputmode: 'numeric', min: String(p.min), max: String(p.max), step: '1' } });
      el.value = String(p.value);
      const f = labelledField(doc, p.label, el, p.hint);
      this.#inputs.push({ key: p.key, el, error: f.error, label: p.label });
      fields.push(f.element);
    }
    for (const c of s.choices ?? []) {
      const el = h(doc, 'select', { class: 'ss-select' });
      for (const [value, text] of c.options) el.append(h(doc, 'option', { text, attrs: { value } }));
      el.value = c.value;
      const f = labelledField(doc, c.label, el, c.hint);
      this.#inputs.push({ key: c.key, el, error: f.error, label: c.label });
      fields.push(f.element);
    }
    this.#params.replaceChildren(...fields);
  }

  // The script and settings for the fields' values; null (each wrong field saying why) when one is out of range.
  #read(): ScenarioWrite | null {
    const numbers: Record<string, number> = {};
    const choices: Record<string, string> = {};
    let ok = true;
    for (const { key, el, error } of this.#inputs) {
      if (el.localName === 'select') {
        choices[key] = el.value;
        continue;
      }
      const input = el as HTMLInputElement;
      const v = Number(input.value);
      const good = input.value !== '' && Number.isFinite(v) && input.checkValidity();
      input.setAttribute('aria-invalid', String(!good));
      error.hidden = good;
      if (!good) {
        const t = takes(input);
        setText(error, `${t[0].toUpperCase()}${t.slice(1)}.`);
        ok = false;
      }
      numbers[key] = v;
    }
    if (!ok) {
      setText(this.#note, 'Not written: a number above is out of range.');
      return null;
    }
    const s = this.scenario;
    return { ...s.write(numbers, choices), scenario: s };
  }
}
