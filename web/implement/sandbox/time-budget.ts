/**
 * How the time limit of a test is enforced, so that the same code always
 * gets the same verdict, however busy the machine is.
 *
 * A wall-clock deadline did not: on a loaded machine (CI's 2 cores, three
 * test files and a browser) a test whose code threw at once was reported
 * as "stopped after 1 s ... (an endless loop?)", because the worker had
 * spent that second on the engine, a garbage collection or waiting for a
 * core, and an allocation bomb that ends in "out of memory" was cut off by
 * the page at 2 s. A bigger number only moves the line; so the limit is
 * measured in work instead:
 *
 * - **Fuel (the verdict).** QuickJS calls its interrupt handler once every
 *   10,000 function calls or loop iterations (and in regular expressions).
 *   Each call spends one unit of fuel; a test gets `FUEL_PER_MS` units per
 *   millisecond of its limit, and code that spends them all is stopped.
 *   The count depends only on the code and the test, never on the clock,
 *   so an endless loop is stopped at the same place every time and code
 *   that finishes within its fuel always finishes. A limit of 1 s is
 *   1,000 units, about 10 million calls or iterations: about a second of
 *   plain loops in QuickJS on this project's 2-core machine while other
 *   work shares it (measured 400–2,700 units a second, by the shape of the
 *   loop, in Node and Chromium), so the message's "after 1 s" stays about
 *   right for the common endless loop.
 * - **A wall-clock backstop (native work).** A native operation spends no
 *   fuel however long it runs (`"x".repeat(1e8)`, filling a large array):
 *   the clock still stops such code, at `BACKSTOP_FACTOR` times the limit,
 *   and it counts only the time spent inside the learner's calls (the
 *   engine, the sandbox's own harness and a reload of QuickJS are not the
 *   learner's). The factor is the slowdown a verdict survives: five times
 *   slower than the limit before slow native work is called "did not
 *   finish" (the allocation bomb takes 0.1–0.8 s alone, and went past 2 s
 *   in CI).
 * - **The page's guard** (client.ts) terminates the worker when it shows
 *   no progress (a test started, a script line reached) for `outerLimitMs`:
 *   for one native operation QuickJS cannot interrupt at all. It is twice
 *   the backstop, so that on a machine that stalls the worker for seconds
 *   at a time the sandbox's own stop, with the loop's line, still comes
 *   first (at 1 s past the backstop, a stalled page's guard once won the race).
 *
 * Whichever stops it, the learner reads "stopped after N s" with N the
 * test's limit (the page's guard says its own, longer time): the limit is
 * a budget of work, said in the seconds it takes on a typical machine.
 */

/** Interrupt-handler calls (each about 10,000 calls or loop iterations) per millisecond of a test's limit. */
export const FUEL_PER_MS = 1;

/** How many times its limit a test's native work may take on the clock before it is stopped. */
export const BACKSTOP_FACTOR = 5;

/** The fuel a limit of `limitMs` gives: interrupt-handler calls the learner's code may cause. */
export function fuelFor(limitMs: number): number {
  return Math.max(1, Math.round(limitMs * FUEL_PER_MS));
}

/** Time inside the learner's calls after which the backstop stops them, ms. */
export function backstopMs(limitMs: number): number {
  return BACKSTOP_FACTOR * limitMs;
}

/** How long the page waits on a worker that shows no progress before it terminates it: twice the backstop. */
export function outerLimitMs(limitMs: number): number {
  return 2 * backstopMs(limitMs);
}
