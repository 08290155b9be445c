// Comparing two outputs line by line, the way a learner reads them: the
// first line that differs is the one worth looking at (every later line
// usually differs because of it). One function for the exercise's verdict,
// the "Compare with my program" box and the implement mode's tests.

/** Where two lists first differ, and what each holds there (undefined past its end). */
export interface ListDifference<T> {
  /** 0-based index of the first item that differs. */
  index: number;
  expected: T | undefined;
  actual: T | undefined;
}

/**
 * The first index where `expected` and `actual` differ (a list that ends
 * early differs there), or null when they are equal. `same` says when two
 * items are equal (default: ===).
 */
export function firstDifference<T>(
  expected: readonly T[],
  actual: readonly T[],
  same: (a: T, b: T) => boolean = (a, b) => a === b,
): ListDifference<T> | null {
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    if (i >= expected.length || i >= actual.length || !same(expected[i], actual[i])) {
      return { index: i, expected: expected[i], actual: actual[i] };
    }
  }
  return null;
}
