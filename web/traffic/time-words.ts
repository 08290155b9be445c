// Times and rates as the lab writes them, in charts, titles, readouts and sentences alike.

/** A time in seconds as the lab writes it: 40, 81.3, 116.25, 1,800 (two decimals at most: a run's finest bucket is 0.01 s). */
export function decimal(t: number): string {
  const v = Number(t.toFixed(2));
  // (toLocaleString is slow: called for every stretch of every lane, it was a tenth of a redraw)
  return Math.abs(v) >= 1000 ? v.toLocaleString('en-US') : String(v);
}

/** "40 s", "81.3 s", "1.25 s". */
export function seconds(t: number): string {
  return `${decimal(t)} s`;
}

/** A request rate: 1,536 or, below 1 a second, in two figures: 0.0031. */
export function rate(rps: number): string {
  return rps >= 1 ? Math.round(rps).toLocaleString('en-US') : String(Number(rps.toPrecision(2)));
}
