// What predict mode says about an answer: whether it is right (spaces
// aside), and for a WEIGHTS line, which backends' weights were wrong,
// missing or extra, or out of order. Pure functions of two strings.

/** Spaces do not matter; everything else does (names are case-sensitive). */
export function samePrediction(a: string, b: string): boolean {
  const norm = (s: string) => s.trim().split(/\s+/).join(' ');
  return norm(a) === norm(b);
}

/** The rule a WEIGHTS line follows, said once after a wrong answer. */
export const WEIGHTS_RULE =
  'WEIGHTS prints every backend’s effective weight now, target × min(now − joined, ramp) ÷ ramp rounded down ' +
  '(no ramp: the target; DOWN: 0), name=weight, in byte order of name.';

function pairs(text: string): Array<[string, string]> {
  return text
    .trim()
    .split(/\s+/)
    .filter(Boolean)
    .map((token) => {
      const at = token.indexOf('=');
      return at < 0 ? [token, ''] : [token.slice(0, at), token.slice(at + 1)];
    });
}

function list(items: string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/**
 * Where a predicted WEIGHTS line differs from the truth, in a sentence: the
 * wrong weights first ("d is 2, not 1"), then the backends left out or not in
 * the pool, then the order. Empty when nothing particular can be said.
 */
export function weightsDifference(prediction: string, truth: string): string {
  const truthPairs = pairs(truth);
  const said = new Map(pairs(prediction));
  const known = new Set(truthPairs.map(([name]) => name));
  const wrong: string[] = [];
  const missing: string[] = [];
  for (const [name, weight] of truthPairs) {
    const guess = said.get(name);
    if (guess === undefined) missing.push(name);
    else if (guess !== weight) wrong.push(guess === '' ? `${name} is ${weight}` : `${name} is ${weight}, not ${guess}`);
  }
  const extra = [...said.keys()].filter((name) => !known.has(name));
  const parts: string[] = [];
  const cap = (items: string[]) => (items.length > 4 ? [...items.slice(0, 4), `${items.length - 4} more`] : items);
  if (wrong.length) parts.push(`${list(cap(wrong))}.`);
  if (missing.length) parts.push(`Left out: ${list(cap(missing))} (every backend in the pool is listed, a DOWN one as 0).`);
  if (extra.length) parts.push(`Not in the pool: ${list(cap(extra))}.`);
  if (!parts.length) {
    const order = pairs(prediction).map(([name]) => name);
    if (order.length === truthPairs.length && order.some((name, i) => name !== truthPairs[i][0])) {
      parts.push('The weights are right, the order is not: by name, in byte order (upper case before lower case, "b10" before "b9").');
    }
  }
  return parts.join(' ');
}
