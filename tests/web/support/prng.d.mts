/** mulberry32: small, fast, and the same on every machine. Numbers in [0, 1). */
export function prng(seed: number): () => number;
