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
  /**
   * A replay (Play at the last step) goes back to step 0: called alone in
   * the frame before the one that moves the views there, for the view whose
   * move draws the most (the editor, scrolled back to the script's top,
   * draws its lines in it). Without it the replay's first frame is the jump.
   */
  onRewind?(): void;
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
  // A replay's first two frames: 'rewind' (onRewind alone), then 'jump' (to step 0).
  #replay: 'rewind' | 'jump' | null = null;

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
    // A replay from the start: the move back to step 0 is the first frame's,
    // followed as any step of a run playing (the editor's strip, the pick
    // view when in sight), not as a seek, whose full update made the first
    // frame of a replay the heaviest (PL-33). Not here: in a click's handler
    // the page has the click's own style to recalculate, and the move's
    // scrolls would make the browser do it there and then; at a frame's
    // start the page is laid out (PL-35).
    this.#playing = true;
    if (this.step >= this.#length - 1) {
      this.#pos = 0;
      // The jump back is spread over two frames: the editor's (onRewind:
      // CodeMirror draws a viewport of the script's top lines), then the
      // other views' move to step 0. Each of them alone was most of a
      // vsync's work on a slow machine, and together (the editor's drawing
      // in a task right after the jump's frame, or in the next frame's
      // scroll event) over it (PL-41, PL-43). The clock starts after the
      // jump, so no step is skipped.
      this.#replay = this.#options.onRewind ? 'rewind' : 'jump';
    }
    this.#options.onPlay?.();
    this.#last = this.#win.performance.now();
    this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
    this.#sync();
  }

  pause(): void {
    if (!this.#playing) return;
    this.#playing = false;
    this.#replay = null;
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
    if (this.#replay === 'rewind') {
      this.#replay = 'jump';
      this.#options.onRewind!();
      this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
      return;
    }
    if (this.#replay === 'jump') {
      this.#replay = null;
      this.#moveTo(0, 0, 'play');
      this.#frame = this.#win.requestAnimationFrame((t) => this.#tick(t));
      return;
    }
    const end = this.#length - 1;
    const pos = Math.min(end, this.#pos + dt * playRate(this.#length));
    const reduced = this.#options.reducedMotion();
    this.#moveTo(pos, reduced ? 0 : pos - Math.floor(pos), 'play');
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
