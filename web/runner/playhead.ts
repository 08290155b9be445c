// The playhead: which step of the run is shown, and the transport that moves
// it (play/pause, step back/forward, a scrub slider). While playing it glides
// between steps; with prefers-reduced-motion it jumps from step to step.
import { h, setText, svg } from '../shared/dom.js';

export type MoveCause = 'play' | 'user' | 'program';

export interface PlayheadOptions {
  /** The playhead moved: to `step`, `frac` (0..1) of the way to the next while gliding. */
  onMove(step: number, frac: number, cause: MoveCause): void;
  /** What the readout and the slider say about a step. */
  describe(step: number): string;
  /** Read on every frame, so a change of the OS setting applies at once. */
  reducedMotion(): boolean;
  /** Play was pressed: called at once, before the first frame moves the playhead. */
  onPlay?(): void;
}

/** Steps per second: a short script takes a few seconds, a long one at most ~15 s. */
export function playRate(steps: number): number {
  return Math.min(800, Math.max(3, steps / 15));
}

export class Playhead {
  readonly element: HTMLDivElement;
  readonly #options: PlayheadOptions;
  readonly #back: HTMLButtonElement;
  readonly #play: HTMLButtonElement;
  readonly #forward: HTMLButtonElement;
  readonly #range: HTMLInputElement;
  readonly #readout: HTMLOutputElement;
  readonly #win: Window;
  #length = 0;
  #pos = 0; // fractional step while playing
  #playing = false;
  #frame = 0;
  #last = 0;
  // A replay moved to step 0 in play(): its first frame paints that and moves nothing.
  #replayShown = false;
  #inFrame = false;

  constructor(parent: HTMLElement, options: PlayheadOptions) {
    const doc = parent.ownerDocument;
    this.#win = doc.defaultView ?? window;
    this.#options = options;
    this.#back = iconButton(doc, 'Step back', 'M5 4h2v12H5zM16 4v12l-8-6z');
    this.#play = iconButton(doc, 'Play', PLAY_ICON);
    this.#forward = iconButton(doc, 'Step forward', 'M13 4h2v12h-2zM4 4v12l8-6z');
    this.#range = h(doc, 'input', {
      class: 'ss-scrub',
      attrs: { type: 'range', min: '0', max: '0', step: '1', value: '0', 'aria-label': 'Step' },
    });
    this.#readout = h(doc, 'output', { class: 'ss-readout', attrs: { 'aria-live': 'off' } });
    this.element = h(doc, 'div', { class: 'ss-transport', attrs: { role: 'group', 'aria-label': 'Playhead' } });
    this.element.append(this.#back, this.#play, this.#forward, this.#range, this.#readout);
    parent.append(this.element);

    this.#back.addEventListener('click', () => this.stepBy(-1));
    this.#forward.addEventListener('click', () => this.stepBy(1));
    this.#play.addEventListener('click', () => (this.#playing ? this.pause() : this.play()));
    this.#range.addEventListener('input', () => {
      // Read first: pausing puts the slider back on the step it was playing.
      const step = Number(this.#range.value);
      this.pause();
      this.#moveTo(step, 0, 'user');
    });
    this.#sync();
  }

  get step(): number {
    return Math.floor(this.#pos);
  }

  get length(): number {
    return this.#length;
  }

  get playing(): boolean {
    return this.#playing;
  }

  /** True while an animation frame of a play moves the playhead (not in Play's own task, a seek or a pause). */
  get inFrame(): boolean {
    return this.#inFrame;
  }

  /** A new run with `length` steps; the playhead goes to `step` (clamped). */
  setLength(length: number, step: number): void {
    this.#length = length;
    this.#range.max = String(Math.max(0, length - 1));
    this.#range.disabled = length === 0;
    if (length === 0) this.pause();
    this.#moveTo(step, 0, 'program');
  }

  /** Moves to a step (a click on the output, chart or editor). Pauses. */
  seek(step: number, cause: MoveCause = 'user'): void {
    this.pause();
    this.#moveTo(step, 0, cause);
  }

  stepBy(delta: number): void {
    this.seek(this.step + delta);
  }

  play(): void {
    if (this.#playing || this.#length < 2) return;
    this.#playing = true;
    this.#options.onPlay?.();
    if (this.step >= this.#length - 1) {
      // A replay from the start: the move back to step 0 is done here, in
      // Play's own task (a click), before any frame, followed as a step of
      // a run playing (the editor's strip, the pick view when in sight), not
      // as a seek, whose full update made a replay's first frame the
      // heaviest (PL-33). The editor scrolls back to the script's top and
      // CodeMirror draws and lays out the lines there, most of a vsync's
      // work here; in an animation frame, with or without the other views'
      // move, that was the heaviest frame of a play (PL-35, PL-43, PL-49).
      // In the click's task it delays Play's first paint by that much and
      // drops no frame: nothing was moving. The first frame paints step 0
      // and moves nothing; the clock starts there, so no step is skipped (PL-53).
      this.#moveTo(0, 0, 'play');
      this.#replayShown = true;
    }
    this.#last = this.#win.performance.now();
    this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
    this.#sync();
  }

  pause(): void {
    if (!this.#playing) return;
    this.#playing = false;
    this.#replayShown = false;
    this.#win.cancelAnimationFrame(this.#frame);
    this.#pos = Math.floor(this.#pos);
    this.#options.onMove(this.step, 0, 'play');
    this.#sync();
  }

  /** Stops the animation for good (the runner is going away). */
  destroy(): void {
    this.pause();
  }

  #tick(time: number): void {
    if (!this.#playing) return;
    const dt = Math.min(0.25, Math.max(0, (time - this.#last) / 1000));
    this.#last = time;
    if (this.#replayShown) {
      this.#replayShown = false;
      this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
      return;
    }
    const end = this.#length - 1;
    const pos = Math.min(end, this.#pos + dt * playRate(this.#length));
    const reduced = this.#options.reducedMotion();
    this.#inFrame = true;
    try {
      this.#moveTo(pos, reduced ? 0 : pos - Math.floor(pos), 'play');
    } finally {
      this.#inFrame = false;
    }
    if (pos >= end) {
      this.pause();
      return;
    }
    this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
  }

  #moveTo(pos: number, frac: number, cause: MoveCause): void {
    const end = Math.max(0, this.#length - 1);
    const clamped = Math.max(0, Math.min(end, pos));
    const before = this.step;
    this.#pos = clamped;
    this.#options.onMove(this.step, frac, cause);
    if (this.step !== before || cause !== 'play') this.#sync();
  }

  // Brings the controls in line with the state.
  #sync(): void {
    const step = this.step;
    const empty = this.#length === 0;
    this.#range.value = String(step);
    const text = empty ? 'No steps yet' : this.#options.describe(step);
    this.#range.setAttribute('aria-valuetext', text);
    setText(this.#readout, text);
    // A focused button that becomes disabled would drop the focus to <body>:
    // it moves to the other step button (or the slider) first.
    const root = this.#back.getRootNode() as Document | ShadowRoot;
    const focused = root.activeElement;
    this.#back.disabled = empty || step === 0;
    this.#forward.disabled = empty || step >= this.#length - 1;
    this.#play.disabled = this.#length < 2;
    if (focused instanceof HTMLButtonElement && focused.disabled) {
      const other = focused === this.#back ? this.#forward : this.#back;
      (other.disabled ? this.#range : other).focus();
    }
    const label = this.#playing ? 'Pause' : 'Play';
    if (this.#play.getAttribute('aria-label') !== label) {
      this.#play.setAttribute('aria-label', label);
      this.#play.title = label;
      this.#play.querySelector('path')!.setAttribute('d', this.#playing ? PAUSE_ICON : PLAY_ICON);
    }
  }
}

const PLAY_ICON = 'M6 4v12l10-6z';
const PAUSE_ICON = 'M5 4h4v12H5zM11 4h4v12h-4z';

function iconButton(doc: Document, label: string, d: string): HTMLButtonElement {
  const icon = svg(doc, 'svg', { attrs: { viewBox: '0 0 20 20', width: '18', height: '18', 'aria-hidden': 'true' } });
  icon.append(svg(doc, 'path', { attrs: { d } }));
  return h(doc, 'button', { class: 'ss-btn ss-icon-btn', attrs: { type: 'button', 'aria-label': label, title: label } }, icon);
}
