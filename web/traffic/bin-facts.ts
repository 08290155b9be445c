// The numbers of one stretch of a run (a bin of buckets, as a chart draws
// it): requests, each backend's share, latency and state, the failed
// attempts and what reached the client. The readout under a run's charts
// says them for the bin under the cursor; the table alternative has one row
// per bin. Pure: the numbers are the simulation's, added up.
import type { Traffic } from '../api/index.js';

export interface BackendFacts {
  name: string;
  requests: number;
  /** Of all requests in the bin (0...1). */
  share: number;
  /** Mean latency of its requests, ms (NaN: none, or no service model). */
  latencyMs: number;
  failed: number;
  /** The worst state the bin saw (BackendState). */
  state: number;
}

export interface BinFacts {
  /** Seconds. */
  from: number;
  to: number;
  requests: number;
  backends: BackendFacts[];
  /** Mean latency of every request in the bin, ms (NaN: none). */
  latencyMs: number;
  /** Attempts that timed out. */
  failed: number;
  /** Of those, the ones tried again elsewhere. */
  retried: number;
  /** Requests with no backend to take them (503s). */
  unrouted: number;
  /** What the client saw fail: timed-out attempts not retried, and the 503s. */
  clientErrors: number;
  /**
   * The client's p50 and p99 latency, ms (its whole wait, retries included):
   * the bucket's, or, when the bin adds up several buckets, the highest of
   * theirs (percentiles do not add up). NaN: none.
   */
  clientP50Ms: number;
  clientP99Ms: number;
  /** How many buckets the bin adds up. */
  buckets: number;
}

export const STATE_WORDS = ['out', 'serving', 'ramping', 'ejected'];

/** Buckets [from, to) of `t`, added up (backends past `most` are left out of `backends`). */
export function binFacts(t: Traffic, from: number, to: number, most = 12): BinFacts {
  const n = t.names.length;
  to = Math.min(to, t.buckets);
  const shown = Math.min(n, most);
  const backends: BackendFacts[] = [];
  for (let id = 0; id < shown; id++) backends.push({ name: t.names[id], requests: 0, share: 0, latencyMs: 0, failed: 0, state: 0 });
  let requests = 0;
  let failed = 0;
  let retried = 0;
  let unrouted = 0;
  let latencySum = 0;
  let served = 0;
  let p50 = Number.NaN;
  let p99 = Number.NaN;
  for (let k = from; k < to; k++) {
    requests += t.total[k];
    unrouted += t.unrouted[k];
    // A bucket whose requests all found no backend has no latency (0): left out.
    if (t.clientP99Ms[k] > 0) {
      p50 = Number.isNaN(p50) ? t.clientP50Ms[k] : Math.max(p50, t.clientP50Ms[k]);
      p99 = Number.isNaN(p99) ? t.clientP99Ms[k] : Math.max(p99, t.clientP99Ms[k]);
    }
    for (let id = 0; id < n; id++) {
      const i = k * n + id;
      const r = t.requests[i];
      failed += t.failed[i];
      retried += t.retried[i];
      latencySum += t.latencyMs[i] * r;
      served += r;
      if (id < shown) {
        const b = backends[id];
        b.requests += r;
        b.latencyMs += t.latencyMs[i] * r;
        b.failed += t.failed[i];
        if (t.state[i] > b.state) b.state = t.state[i];
      }
    }
  }
  for (const b of backends) {
    b.latencyMs = b.requests ? b.latencyMs / b.requests : Number.NaN;
    b.share = requests ? b.requests / requests : 0;
  }
  return {
    from: from * t.bucket,
    to: to * t.bucket,
    requests,
    backends,
    latencyMs: served ? latencySum / served : Number.NaN,
    failed,
    retried,
    unrouted,
    clientErrors: failed - retried + unrouted,
    clientP50Ms: p50,
    clientP99Ms: p99,
    buckets: Math.max(0, to - from),
  };
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const ms = (v: number) => (Number.isNaN(v) ? '—' : `${n(v)} ms`);
const pct = (v: number) => `${(v * 100).toFixed(v < 0.1 ? 1 : 0)} %`;
const s = (v: number) => Number(v.toFixed(2)).toLocaleString('en-US');

/** The readout: "39.6–41.4 s: 2,791 requests; a 27 % 200 ms, b 18 % 999 ms (ejected), …. Mean latency 348 ms; the client's p50 up to 201 ms, p99 up to 1,200 ms. 388 failed (388 retried); 0 reached the client." */
export function describeBin(f: BinFacts, service: boolean): string {
  // "b 18 % 999 ms (ejected)": its share and latency, and its state when it was not plain serving (the worst of the bin).
  const who = f.backends
    .map((b) => `${b.name} ${b.requests ? pct(b.share) : 'none'}${service && b.requests ? ` ${ms(b.latencyMs)}` : ''}${b.state === 1 ? '' : ` (${STATE_WORDS[b.state]})`}`)
    .join(', ');
  let text = `${s(f.from)}–${s(f.to)} s: ${n(f.requests)} requests; ${who}.`;
  if (service) {
    text += ` Mean latency ${ms(f.latencyMs)}`;
    // Several buckets: the worst of theirs (percentiles do not add up).
    const upTo = f.buckets > 1 ? 'up to ' : '';
    if (!Number.isNaN(f.clientP99Ms)) text += `; the client's p50 ${upTo}${ms(f.clientP50Ms)}, p99 ${upTo}${ms(f.clientP99Ms)}`;
    text += '.';
  }
  if (f.failed || f.unrouted) {
    text += ` ${n(f.failed)} failed (${n(f.retried)} retried)`;
    if (f.unrouted) text += `, ${n(f.unrouted)} with no backend`;
    text += `; ${n(f.clientErrors)} reached the client.`;
  }
  return text;
}
