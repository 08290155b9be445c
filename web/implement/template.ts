/** The learner's starting point: the rules in comments, two functions to write. */
export const LEARNER_TEMPLATE = `// Slow start, the two rules. The engine parses the script, holds the pool,
// runs the commands and prints; you write how much weight a backend has
// and which backend a PICK chooses.

// The effective weight of a backend that is UP (DOWN ones are 0 already).
//   target: its configured weight (0 ... 1000000)
//   ramp:   its slow-start window in seconds (0 = no ramp)
//   joined: the clock when it joined (ADD) or came back (UP)
//   now:    the clock
// elapsed = max(0, now - joined) (the clock can go back). With no ramp the
// weight is the target; otherwise target * min(elapsed, ramp) / ramp, rounded
// DOWN to a whole number, exactly: the product can pass 2^53 (use BigInt).
function effectiveWeight(target, ramp, joined, now) {
  return target; // TODO: ramp up
}

// One pick, smooth weighted round-robin. backends is the pool in order:
//   [{ name, up, weight, score }, ...]
// 1. Only backends that are UP with weight > 0 take part.
// 2. Add each one's weight to its score.
// 3. The highest score wins; a tie goes to the first in the pool.
// 4. Subtract the total of the taking-part weights from the winner's score.
// Return the winner (or its index), or null when nobody takes part (NONE).
// Scores live from pick to pick: change backend.score, it is kept.
function pick(backends) {
  // TODO
  return null;
}

// A backend that joins (ADD) or comes back (UP) starts a fresh life.
function onJoin(backend) {
  // TODO: what should its score be?
}
`;
