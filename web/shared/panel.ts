// A titled panel (a section with a heading and a short "meta" note), the
// building block of the runner's and the implement mode's layouts.
import { h, uniqueId } from './dom.js';

export interface Panel {
  section: HTMLElement;
  /** The note at the right of the heading (e.g. "18 lines"). */
  meta: HTMLSpanElement;
}

export function makePanel(doc: Document, level: 'h2' | 'h3' | 'h4' | 'h5' | 'h6', cls: string, title: string): Panel {
  const id = uniqueId('ss-h');
  const meta = h(doc, 'span', { class: 'ss-panel-meta' });
  const section = h(doc, 'section', { class: `ss-panel ${cls}`, attrs: { 'aria-labelledby': id } });
  section.append(h(doc, 'div', { class: 'ss-panel-head' }, h(doc, level, { text: title, attrs: { id } }), meta));
  return { section, meta };
}
