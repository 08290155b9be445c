// The playhead's line in the editor while a run plays. Marking it with a
// CodeMirror line decoration costs a transaction at every move: two lines
// drawn again, then CodeMirror's measure, which lays the page out; with the
// pick view's table, that made the heaviest frames of playing (PL-31). Here
// a strip behind the text, in the editor's scroller, is moved instead, with
// a transform (the compositor's work, no layout, no paint). Its place comes
// from CodeMirror's height map (lineBlockAt: no layout read), and the
// scroller scrolls only when the line leaves it, its size and scroll
// position kept from its own events (no layout read either); a scroll
// beyond the lines CodeMirror has drawn makes it draw them at once. When
// the run stops, the editor's line decoration takes over again (editor.ts).
import type { EditorView } from '@codemirror/view';

export class PlayingLine {
  readonly #view: EditorView;
  readonly #strip: HTMLDivElement;
  #scrollTop = 0;
  #viewH = 0;
  #top = Number.NaN;
  #height = Number.NaN;
  #line = 0; // the line shown, 0 when hidden

  constructor(view: EditorView) {
    this.#view = view;
    const strip = (this.#strip = view.dom.ownerDocument.createElement('div'));
    strip.className = 'ss-line-playing';
    strip.setAttribute('aria-hidden', 'true');
    strip.hidden = true;
    view.scrollDOM.append(strip);
    const scroller = view.scrollDOM;
    // Read before CodeMirror's own scroll handler (a capturing listener runs
    // first at its target): that handler may measure and then write (the
    // line numbers' layer, line-numbers.ts), and a read after those writes
    // would lay the page out in the scroll event, and again at the frame's end.
    scroller.addEventListener('scroll', () => (this.#scrollTop = scroller.scrollTop), { passive: true, capture: true });
    new ResizeObserver((entries) => (this.#viewH = entries[entries.length - 1].contentRect.height)).observe(scroller);
  }

  /** The line shown (1-based), 0 when the strip is hidden. */
  get line(): number {
    return this.#line;
  }

  /**
   * Puts the strip on `line` and, if it is out of the scroller's view,
   * scrolls it a third of the way down. True when that scroll made
   * CodeMirror draw lines now (most of a vsync of work here, PL-55).
   */
  show(line: number): boolean {
    const view = this.#view;
    const doc = view.state.doc;
    if (line < 1 || line > doc.lines) {
      this.hide();
      return false;
    }
    const block = view.lineBlockAt(doc.line(line).from);
    const top = block.top + view.documentPadding.top;
    const height = block.bottom - block.top;
    const strip = this.#strip;
    // Set first: CodeMirror told of a scroll below runs its pending measure
    // requests, and the editor's own scroll to a marked line skips itself
    // once a line is followed (editor.ts, PL-53).
    const first = !this.#line;
    this.#line = line;
    // The scroll before the strip's own writes: setting a scroll position
    // lays out what was written before it in the frame (PL-35).
    const from = this.#scrollTop;
    const viewH = this.#viewH;
    let drew = false;
    if (viewH > 0 && (top < from || top + height > from + viewH)) {
      const to = Math.max(0, top - Math.max(0, (viewH - height) / 3));
      view.scrollDOM.scrollTop = this.#scrollTop = to;
      // Scrolled past the lines CodeMirror has drawn (a replay's jump back
      // to the top): CodeMirror draws those now in view in its scroll
      // event, which comes in the next frame (or in an intersection
      // observer's task after this one), so this frame would show the
      // editor empty. Told now, while the page is still laid out, it draws
      // them in this frame (PL-43). While playing that is about every
      // other scroll (its batches end about half a view below); the caller
      // leaves the step's other views to the next frame then (PL-55). A
      // scroll within what it has drawn is left to its own event.
      drew = !this.#drawn(to, viewH, to - from);
      if (drew) view.scrollDOM.dispatchEvent(new Event('scroll'));
    }
    if (first) {
      strip.hidden = false;
      // Where the text starts (after the gutters): read in CodeMirror's measure, with its own reads.
      view.requestMeasure({
        key: this,
        read: () => view.contentDOM.offsetLeft,
        write: (left) => (strip.style.left = `${left}px`),
      });
    }
    if (top !== this.#top) strip.style.transform = `translateY(${(this.#top = top)}px)`;
    if (height !== this.#height) strip.style.height = `${(this.#height = height)}px`;
    return drew;
  }

  // Whether CodeMirror, scrolled by `delta` px to show [top, top + height) of
  // the scroller, keeps the lines it has drawn (its height map: no layout
  // read). Its own test (@codemirror/view's viewportIsAppropriate) asks for
  // drawn lines beyond the view on the side scrolled to: 10 px, or the
  // scroll's size up to 250 px; with less it draws again in its scroll event,
  // in the next frame beside that frame's step.
  #drawn(top: number, height: number, delta: number): boolean {
    const view = this.#view;
    const { from, to } = view.viewport;
    const pad = view.documentPadding.top;
    const beyond = (d: number) => Math.max(10, Math.min(d, 250));
    return (
      (from === 0 || view.lineBlockAt(from).top + pad <= top - beyond(-delta)) &&
      (to === view.state.doc.length || view.lineBlockAt(to).bottom + pad >= top + height + beyond(delta))
    );
  }

  hide(): void {
    if (!this.#line) return;
    this.#line = 0;
    this.#strip.hidden = true;
  }
}
