// A seeded random-number generator for generated test scripts: the same
// numbers on every machine, so a failure replays from its seed. Plain
// JavaScript (typed by prng.d.mts) so that worker threads, which Node runs
// without Vitest's TypeScript transform, use the very same generator.

/** mulberry32: small, fast, and the same on every machine. Numbers in [0, 1). */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
