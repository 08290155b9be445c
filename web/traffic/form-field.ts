// A labelled form field of the lab, with its one-line hint in plain words
// and a place for what is wrong with its value, both read with it
// (aria-describedby): the settings (traffic-controls.ts) and the scenario
// picker (scenario-picker.ts) build theirs the same way.
import { h, uniqueId } from '../shared/dom.js';

export interface Field {
  /** The label, the control, the error and the hint. */
  element: HTMLElement;
  /** Shown (with a message) while the value is wrong. */
  error: HTMLElement;
}

export function labelledField(doc: Document, label: string, control: HTMLSelectElement | HTMLInputElement, hint: string): Field {
  control.id = uniqueId('ss-tc');
  const hintEl = h(doc, 'span', { class: 'ss-field-hint', text: hint, attrs: { id: uniqueId('ss-th') } });
  const error = h(doc, 'span', { class: 'ss-field-error', attrs: { id: uniqueId('ss-te') } });
  error.hidden = true;
  control.setAttribute('aria-describedby', `${error.id} ${hintEl.id}`);
  return { element: h(doc, 'span', { class: 'ss-field' }, h(doc, 'label', { text: label, attrs: { for: control.id } }), control, error, hintEl), error };
}

/** What a number field takes, from its own min, max and step: "a whole number from 1 to 100,000". */
export function takes(el: HTMLInputElement): string {
  const step = Number(el.step);
  const kind = step === 1 ? 'a whole number' : Number.isFinite(step) && step > 0 ? `a multiple of ${step}` : 'a number';
  const n = (v: string) => Number(v).toLocaleString('en-US');
  return `${kind} from ${n(el.min)} to ${n(el.max)}`;
}
