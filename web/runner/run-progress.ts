// What a background run looks like in the toolbar: a progress bar (filled
// while the script is read, moving while the engine runs, which is one call
// with no progress of its own), what is happening with the seconds so far,
// and Stop. Hidden when no run is going. Meanwhile the output and the chart
// are dimmed (the runner's root has .ss-bg-running): they show the previous
// run, and the status says so. Also, for a run with more rejected
// lines than the editor marks, the note that says how many more there are.
import type { RunProgress } from './background-run.js';
import { h, setText } from '../shared/dom.js';

export const RUN_PROGRESS_CSS = /* css */ `
.ss-run-progress { display: inline-flex; align-items: center; gap: 8px; font-size: 13px; color: var(--ss-muted); }
.ss-run-progress[hidden] { display: none; }
.ss-run-progress progress { width: 120px; height: 8px; accent-color: var(--ss-accent); }
.ss-bg-running .ss-panel-output, .ss-bg-running .ss-panel-chart { opacity: 0.55; transition: opacity 0.2s; }
.ss-marks-note { margin: 6px 0 0; font-size: 13px; color: var(--ss-muted); }
.ss-marks-note[hidden] { display: none; }
`;

export class RunProgressView {
  readonly element: HTMLSpanElement;
  /** Under the toolbar: how many rejected lines the editor does not mark. */
  readonly marksNote: HTMLParagraphElement;
  readonly #bar: HTMLProgressElement;
  readonly #text: HTMLSpanElement;

  constructor(doc: Document, onStop: () => void) {
    this.#bar = h(doc, 'progress', { attrs: { max: '1', 'aria-label': 'Run progress' } });
    this.#text = h(doc, 'span', { class: 'ss-run-progress-text', attrs: { role: 'status' } });
    const stop = h(doc, 'button', { class: 'ss-btn ss-run-stop', text: 'Stop', attrs: { type: 'button', title: 'Stop this run' } });
    stop.addEventListener('click', onStop);
    this.element = h(doc, 'span', { class: 'ss-run-progress' }, this.#bar, this.#text, stop);
    this.element.hidden = true;
    this.marksNote = h(doc, 'p', { class: 'ss-marks-note' });
    this.marksNote.hidden = true;
  }

  /** Shows a run's progress; null hides it. */
  show(progress: RunProgress | null): void {
    this.element.hidden = progress === null;
    if (!progress) return;
    if (progress.share === null) this.#bar.removeAttribute('value');
    else this.#bar.value = progress.share;
    const seconds = `${(progress.elapsedMs / 1000).toFixed(1)} s`;
    setText(this.#text, progress.phase === 'reading' ? `Reading the script… ${seconds}` : `Running… ${seconds}`);
  }

  /** Says how many rejected lines are not marked in the editor (0 hides the note). */
  unmarked(marked: number, total: number): void {
    this.marksNote.hidden = total <= marked;
    if (total > marked) {
      const more = total - marked;
      setText(
        this.marksNote,
        `The editor marks the first ${marked.toLocaleString('en')} rejected lines; ${more.toLocaleString('en')} more ${more === 1 ? 'is' : 'are'} not marked (the output and the status still count them all).`,
      );
    }
  }
}
