// Builds the SVG path of one backend's weight as a step line (weights are
// integers held until the next change, never interpolated), with gaps where
// the backend is DOWN or out of the pool. Coordinates are pixels; changes
// that land in one pixel column are folded into at most three vertical
// strokes, so the path stays small however long the script is.

const round = (v: number) => Math.round(v * 2) / 2; // half-pixel grid
const BACKWARDS_STUB = 4; // px

export class StepPath {
  #d: string[] = [];
  #down = false; // pen down: a stretch is being drawn
  #x = 0; // current column
  #yIn = 0; // y where the pen entered the column
  #lo = 0; // y range visited in the column, not written yet
  #hi = 0;
  #y = 0; // latest y

  /** True while a stretch is open (the backend is UP in the pool). */
  get drawing(): boolean {
    return this.#down;
  }

  /** From pixel x on, the weight is at pixel y. */
  to(xPx: number, yPx: number): void {
    const x = round(xPx);
    const y = round(yPx);
    if (!this.#down || x < this.#x) {
      // A new stretch: after a gap, or the clock went backwards. In that
      // case the old stretch gets a short stub, so its last value shows.
      if (this.#down) this.end(this.#x + BACKWARDS_STUB);
      this.#d.push(`M${x} ${y}`);
      this.#down = true;
      this.#x = x;
      this.#yIn = this.#lo = this.#hi = this.#y = y;
      return;
    }
    if (x !== this.#x) {
      this.#flush();
      this.#d.push(`H${x}`);
      this.#x = x;
    }
    if (y < this.#lo) this.#lo = y;
    if (y > this.#hi) this.#hi = y;
    this.#y = y;
  }

  /** The stretch ends at pixel x: DOWN, removed from the pool, or the chart's end. */
  end(xPx: number): void {
    if (!this.#down) return;
    this.#flush();
    const x = round(xPx);
    if (x > this.#x) this.#d.push(`H${x}`);
    this.#down = false;
  }

  /** The path data ("" when nothing was drawn). */
  finish(): string {
    this.#flush();
    return this.#d.join('');
  }

  // Writes the column's vertical strokes: cover the visited range, then
  // settle on the latest value.
  #flush(): void {
    if (!this.#down) return;
    let at = this.#yIn;
    if (this.#lo < at) this.#d.push(`V${(at = this.#lo)}`);
    if (this.#hi > at) this.#d.push(`V${(at = this.#hi)}`);
    if (this.#y !== at) this.#d.push(`V${this.#y}`);
    this.#yIn = this.#lo = this.#hi = this.#y;
  }
}
