// The least-request comparison's rate and the sentence under it. Pure: the
// numbers come from the simulations, the words say what they mean.
import type { Traffic, TrafficDefaults } from '../api/index.js';

/** What one warm backend serves per second: workers / service time (the engine's default service model, 128 / 200 ms). */
export function warmCapacity(d: TrafficDefaults): number {
  return d.service.workers / (d.service.baseMs / 1000);
}

/**
 * The comparison's request rate: `loadPercent` of what the busiest backend
 * serves when warm, once every backend has its full weight. Every backend
 * serves as much as any other (the service model gives each 128 workers),
 * but weighted round-robin sends a heavier backend more: at a share of
 * *all* the capacity, a backend with half the weight would be sent more
 * than it can serve and queue for ever, slow start or not, which hid what
 * slow start does (weights 5, 5, 10 at 80 %: a 6,156 ms peak without it). The
 * busiest share is read from the share simulation's last 10 s, by which
 * time every ramp is done. With equal weights this is `loadPercent` of all
 * the backends' capacity, as before.
 */
export function trapRate(share: Traffic, loadPercent: number, capacity: number): { rps: number; busiest: number } {
  // The last 10 s (a scenario runs 10 s past its last ramp): every weight is
  // full there, and 10 s of requests make the share precise.
  const n = share.names.length;
  const from = Math.max(0, share.buckets - Math.ceil(Math.min(10, share.duration) / share.bucket));
  let total = 0;
  const got = new Float64Array(n);
  for (let k = from; k < share.buckets; k++) {
    total += share.total[k];
    for (let id = 0; id < n; id++) got[id] += share.requests[k * n + id];
  }
  let busiest = 0;
  if (total > 0) for (let id = 0; id < n; id++) busiest = Math.max(busiest, got[id] / total);
  // Nobody takes part at the end (all DOWN, or weight 0): spread over the backends there are.
  if (!(busiest > 0)) busiest = 1 / Math.max(1, n);
  return { rps: Math.max(1, Math.round(((loadPercent / 100) * capacity) / busiest)), busiest };
}

/** True when slow start changed nothing: the two runs routed every request alike. */
export function sameRouting(a: Traffic, b: Traffic): boolean {
  if (a.requests.length !== b.requests.length) return false;
  for (let i = 0; i < a.requests.length; i++) if (a.requests[i] !== b.requests[i]) return false;
  return true;
}

export interface TrapFacts {
  /** Peak of the per-slice mean latency, ms, without and with slow start. */
  withoutMs: number;
  withMs: number;
  /** The two runs routed every request alike (no ramp took effect). */
  same: boolean;
  curve: 'linear' | 'envoy' | 'haproxy';
  rps: number;
  loadPercent: number;
  coldFactor: number;
  warmup: number;
  /** The engine's defaults: a warm backend's service time and what it serves a second. */
  baseMs: number;
  capacity: number;
}

const HAPROXY_ADD =
  'HAProxy ramps only a backend that comes back (UP); one that is added (ADD) gets its full weight at once, ' +
  'so under this curve the script has no slow start. Choose Linear or Envoy, or bring a backend back with DOWN and UP.';
const NO_RAMP = 'No backend in this script ramps (every ADD and UP has a ramp of 0 s).';
const NOTHING_TO_PROTECT =
  'With Cold ×1 or no warm-up, a backend that joins is as fast as a warm one: slow start has nothing to protect ' +
  'it from, and while it ramps the other backends carry its share.';
const COSTLY = 'While a backend ramps, the others carry more than their share; here that costs more than the cold start it avoids.';

const ms = (v: number) => `${Math.round(v).toLocaleString('en-US')} ms`;
const times = (r: number) => (r >= 10 ? String(Math.round(r)) : r.toFixed(1));

/** The sentence under the two sides: the peaks, what slow start did, and why when it did nothing or harm. */
export function trapSummary(f: TrapFacts): string {
  let text = `Peak latency ${ms(f.withoutMs)} without slow start, ${ms(f.withMs)} with it`;
  if (f.same) text += `: slow start changed nothing here. ${f.curve === 'haproxy' ? HAPROXY_ADD : NO_RAMP}`;
  else if (Math.abs(f.withMs - f.withoutMs) <= 0.02 * Math.max(f.withMs, f.withoutMs)) text += ': about the same.';
  else if (f.withMs < f.withoutMs) text += `: slow start made it ${times(f.withoutMs / f.withMs)}× lower.`;
  else text += `: slow start made it ${times(f.withMs / f.withoutMs)}× higher. ${f.coldFactor <= 1 || f.warmup === 0 ? NOTHING_TO_PROTECT : COSTLY}`;
  return (
    `${text} ${f.rps.toLocaleString('en-US')} requests a second: once every backend has its full weight, the busiest ` +
    `gets ${f.loadPercent} % of the ${Math.round(f.capacity).toLocaleString('en-US')} a second it can serve when warm (this rate follows Load %, ` +
    `not the Requests/s above). A warm request takes ${Math.round(f.baseMs)} ms; a cold one up to ${Math.round(f.baseMs * f.coldFactor).toLocaleString('en-US')} ms.`
  );
}
