// The time axis's controls, above a group of charts: zoom in and out, move
// earlier and later, the whole run again, and which stretch is shown. The
// pointer does the same on the charts (drag to zoom, double click for the
// whole run), the keyboard on a run's charts (+, −, ← →, 0).
import { h, setText } from '../shared/dom.js';
import type { TimeAxis } from './time-axis.js';
import { seconds } from './time-words.js';

export class ZoomBar {
  readonly element: HTMLDivElement;

  constructor(doc: Document, axis: TimeAxis, label: string) {
    const button = (text: string, name: string, act: () => void) => {
      const b = h(doc, 'button', { class: 'ss-btn ss-zoom-btn', text, attrs: { type: 'button', 'aria-label': name, title: name } });
      b.addEventListener('click', act);
      return b;
    };
    const shown = h(doc, 'span', { class: 'ss-zoom-shown', attrs: { 'aria-live': 'polite' } });
    const whole = button('Whole run', 'Show the whole run', () => axis.reset());
    const out = button('−', 'Zoom out', () => axis.zoom(2, (axis.start + axis.end) / 2));
    const earlier = button('◂', 'Earlier', () => axis.pan(-0.5));
    const later = button('▸', 'Later', () => axis.pan(0.5));
    this.element = h(
      doc,
      'div',
      { class: 'ss-zoom', attrs: { role: 'group', 'aria-label': label } },
      h(doc, 'span', { class: 'ss-zoom-label', text: 'Time' }),
      button('+', 'Zoom in', () => axis.zoom(0.5, (axis.start + axis.end) / 2)),
      out,
      earlier,
      later,
      whole,
      shown,
    );
    const update = () => {
      const full = !axis.zoomed;
      setText(shown, full ? `The whole run, 0–${seconds(axis.duration)}: drag across a chart to zoom in` : `${seconds(axis.start).replace(' s', '')}–${seconds(axis.end)} of ${seconds(axis.duration)}`);
      whole.disabled = out.disabled = full;
      earlier.disabled = axis.start <= 0;
      later.disabled = axis.end >= axis.duration;
    };
    axis.listen((change) => change !== 'cursor' && update());
    update();
  }
}
