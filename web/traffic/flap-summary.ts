// The sentence under the cures: how often each run ejected a backend, how
// many requests failed, how long backends were out, and when the pool was
// stable, in numbers. Pure: the numbers come from the simulations.
import type { Traffic } from '../api/index.js';
import { seconds } from './time-words.js';

export interface RunFacts {
  /** "without slow start", "with slow start"... */
  label: string;
  ejections: number;
  failed: number;
  /** Failed attempts the client saw (not retried). */
  clientFailed: number;
  secondsEjected: number;
  unrouted: number;
  stableAt: number | null;
  /** The backend ejected most (or null). */
  worst: string | null;
  /** The highest mean latency of one backend in one bucket (ms, 0: none), and whose. */
  peakMs: number;
  peakName: string | null;
}

export function runFacts(label: string, t: Traffic): RunFacts {
  let failed = 0;
  let retried = 0;
  for (const v of t.failed) failed += v;
  for (const v of t.retried) retried += v;
  let ejections = 0;
  let seconds = 0;
  let worst: string | null = null;
  let most = 0;
  t.ejections.forEach((e, id) => {
    ejections += e;
    seconds += t.secondsEjected[id];
    if (e > most) (most = e), (worst = t.names[id]);
  });
  let unrouted = 0;
  for (const v of t.unrouted) unrouted += v;
  let peakMs = 0;
  let peakName: string | null = null;
  const n = t.names.length;
  t.latencyMs.forEach((v, i) => v > peakMs && ((peakMs = v), (peakName = t.names[i % n])));
  return { label, ejections, failed, clientFailed: failed - retried, secondsEjected: seconds, unrouted, stableAt: t.stableAt, worst, peakMs, peakName };
}

const n = (v: number) => Math.round(v).toLocaleString('en-US');
const times = (v: number) => (v === 1 ? 'once' : `${n(v)} times`);

function stable(f: RunFacts): string {
  return f.stableAt === null ? 'never stable' : `stable from ${seconds(f.stableAt)}`;
}

/** The line under one run's charts: "7 ejections, 2,717 failed, 251 s out; never stable." (instant answers: its 503s). */
export function runLine(f: RunFacts, instant: boolean): string {
  if (instant) return f.unrouted ? `${n(f.unrouted)} requests with no backend (503s).` : 'Every request found a backend.';
  return (
    `${n(f.ejections)} ejection${f.ejections === 1 ? '' : 's'}, ${n(f.failed)} failed, ${n(f.secondsEjected)} s out; ` +
    (f.stableAt === null ? 'never stable' : `stable from ${seconds(f.stableAt)}`) +
    (f.peakName ? `; slowest ${f.peakName} at ${n(f.peakMs)} ms.` : '.') +
    (f.unrouted ? ` ${n(f.unrouted)} with no backend (503s).` : '')
  );
}

/**
 * "Without slow start b was ejected 4 times and 1,617 requests failed; with
 * slow start, 0 and 0. ..." The first run is the baseline; every other run
 * says its own numbers. With instant answers nothing fails or is ejected:
 * the requests that found no backend are what the runs differ in.
 */
export function flapSummary(runs: RunFacts[], instant = false, sameRouting = false): string {
  if (!runs.length) return '';
  if (instant) {
    return (
      `Answers are instant: nothing is in flight, nothing times out, nobody is ejected. Requests with no backend (503s): ` +
      `${runs.map((r) => `${n(r.unrouted)} ${r.label}`).join(', ')}.` +
      (sameRouting ? ' Every request went to the same backend in every run: slow start changed nothing here.' : '')
    );
  }
  const [first, ...rest] = runs;
  const who = first.worst ?? 'no backend';
  let text =
    `${capital(first.label)} ${first.worst ? `${who} was ejected ${times(first.ejections)}` : 'nothing was ejected'}` +
    ` and ${n(first.failed)} requests failed (${n(first.clientFailed)} reached the client), ${n(first.secondsEjected)} s out; ${stable(first)}`;
  for (const r of rest) {
    text += `; ${r.label}, ${n(r.ejections)} and ${n(r.failed)} (${n(r.clientFailed)} to the client), ${n(r.secondsEjected)} s out, ${stable(r)}`;
  }
  const unrouted = runs.filter((r) => r.unrouted > 0);
  if (unrouted.length) text += `. Requests with no backend at all (503s): ${unrouted.map((r) => `${n(r.unrouted)} ${r.label}`).join(', ')}`;
  return `${text}.`;
}

function capital(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
