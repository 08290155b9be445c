/**
 * The reference rules in the learner's shape, and the classic mistakes as
 * rules that make them. When a learner's output equals a mistake's output,
 * the runner names that mistake.
 */
import type { LearnerRules, PickBackend } from './learner-rules.js';

/** The SPEC's ramp, exact for any size (BigInt: target × ramp can pass 2^53). */
function rampExact(target: number, ramp: number, joined: number, now: number): number {
  if (ramp === 0) return target;
  const elapsed = Math.max(0, now - joined);
  return Number((BigInt(target) * BigInt(Math.min(elapsed, ramp))) / BigInt(ramp));
}

function smoothPick(backends: PickBackend[], options: { takesPart?: (b: PickBackend) => boolean; tieToLast?: boolean; subtract?: boolean } = {}) {
  const takesPart = options.takesPart ?? ((b) => b.up && b.weight > 0);
  let best: PickBackend | null = null;
  let total = 0;
  for (const b of backends) {
    if (!takesPart(b)) continue;
    b.score += b.weight;
    total += b.weight;
    if (best === null || b.score > best.score || (options.tieToLast && b.score === best.score)) best = b;
  }
  if (best && options.subtract !== false) best.score -= total;
  return best;
}

export const REFERENCE: LearnerRules = {
  effectiveWeight: rampExact,
  pick: (backends) => smoothPick(backends),
  onJoin: (b) => {
    b.score = 0;
  },
};

export interface Mistake {
  id: string;
  /** What the learner did, in plain words. */
  title: string;
  /** Why it matters. */
  why: string;
  rules: LearnerRules;
}

const withRamp = (effectiveWeight: LearnerRules['effectiveWeight']): LearnerRules => ({ ...REFERENCE, effectiveWeight });
const withPick = (pick: LearnerRules['pick']): LearnerRules => ({ ...REFERENCE, pick });

export const MISTAKES: readonly Mistake[] = [
  {
    id: 'round-up',
    title: 'The ramp rounds up instead of down.',
    why: '10 × 5 / 20 is 2.5 and the weight is 2. Rounding up hands a cold backend more traffic than the ramp allows, and at the very start gives it traffic it should not get at all.',
    rules: withRamp((t, r, j, n) => (r === 0 ? t : Math.ceil((t * Math.min(Math.max(0, n - j), r)) / r))),
  },
  {
    id: 'round-nearest',
    title: 'The ramp rounds to the nearest whole number instead of down.',
    why: 'Weights are whole numbers taken by integer division: 10 × 15 / 20 is 7.5 and the weight is 7, not 8. Every balancer in the course truncates, so your weights drift half a step ahead of theirs.',
    rules: withRamp((t, r, j, n) => (r === 0 ? t : Math.round((t * Math.min(Math.max(0, n - j), r)) / r))),
  },
  {
    id: 'no-cap',
    title: 'The weight keeps growing after the ramp window.',
    why: 'Once the window is over the weight is the target and stays there. Without the cap (min(elapsed, ramp)) a backend that joined long ago ends up with many times its configured share.',
    rules: withRamp((t, r, j, n) => (r === 0 ? t : Math.floor((t * Math.max(0, n - j)) / r))),
  },
  {
    id: 'pool-ramped',
    title: 'A ramp of 0 is treated as a ramp: the initial POOL never gets its weight.',
    why: 'POOL members (and ADD or UP with ramp 0) have no ramp: their weight is the target at once. Dividing by a ramp of 0 gives NaN, and the whole pool goes quiet.',
    rules: withRamp((t, r, j, n) => Math.floor((t * Math.min(Math.max(0, n - j), r)) / r)),
  },
  {
    id: 'weight-zero-takes-part',
    title: 'A backend with weight 0 takes part in the pick.',
    why: 'Only backends that are UP and have a weight above 0 take part. A weight-0 backend is not "very unlikely": it is absent. Let it in and a backend at the start of its ramp (or set back by the clock) can still win a pick.',
    rules: withPick((bs) => smoothPick(bs, { takesPart: (b) => b.up })),
  },
  {
    id: 'reset-every-pick',
    title: 'The scores are reset on every pick.',
    why: 'Scores live from pick to pick; only the weights fed in change. Resetting them throws away the interleaving smooth weighted round-robin exists for: the heaviest backend wins every time.',
    rules: withPick((bs) => {
      for (const b of bs) b.score = 0;
      return smoothPick(bs);
    }),
  },
  {
    id: 'ties-to-last',
    title: 'Ties go to the last backend instead of the first.',
    why: 'On equal scores the backend earliest in the pool wins. Graders compare byte for byte, and the order of equal backends is part of the contract (nginx breaks ties the same way).',
    rules: withPick((bs) => smoothPick(bs, { tieToLast: true })),
  },
  {
    id: 'no-reset-on-join',
    title: 'A backend that (re)joins with ADD or UP keeps its old score.',
    why: 'A backend that rejoins starts a fresh life with score 0. An old score, high or low, makes it win or lose picks it has no claim to, right when it is coldest.',
    rules: { ...REFERENCE, onJoin: () => {} },
  },
  {
    id: 'no-subtract',
    title: 'The winner does not lose the total weight.',
    why: 'Step 4 of the pick subtracts the sum of the participants\' weights from the winner. Without it the winner\'s score only grows, and it wins forever.',
    rules: withPick((bs) => smoothPick(bs, { subtract: false })),
  },
];
