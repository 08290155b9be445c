// `slowstart simulate`'s arguments for a lab run's options, as the command
// line spells them (the lab's options are the API's TrafficOptions): what a
// run's "Copy as command" says, what the recipes in docs/WHY-SLOW-START.md
// print, and how the tests run a lab's run through the CLI. Only the
// options the lab sets are spelled; an option left out is the CLI's default.
import type { TrafficOptions } from '../api/index.js';

export function simulateArgs(o: TrafficOptions): string[] {
  const a: string[] = [];
  for (const [flag, value] of [['--rps', o.rps], ['--duration', o.duration], ['--bucket', o.bucket]] as const) if (value !== undefined) a.push(flag, String(value));
  const c = o.curve ?? {};
  if (c.kind && c.kind !== 'linear') a.push('--curve', c.kind);
  if (c.resolution && c.resolution !== 1) a.push('--resolution', String(c.resolution));
  if (c.kind === 'envoy') a.push('--aggression', String(c.aggression ?? 1), '--min-weight', String(c.minWeightPercent ?? 10));
  if (o.policy && o.policy !== 'wrr') a.push('--policy', o.policy);
  if (o.rampBy && o.rampBy !== 'scale') a.push('--ramp-by', o.rampBy);
  if (o.slowStart === false) a.push('--no-slow-start');
  if (o.service) {
    const s = typeof o.service === 'object' ? o.service : {};
    if (s.coldFactor !== undefined) a.push('--cold-factor', String(s.coldFactor));
    if (s.warmup !== undefined) a.push('--warmup', String(s.warmup));
    if (s.warmBy && s.warmBy !== 'serving') a.push('--warm-by', s.warmBy);
    if (!o.timeoutMs) a.push('--service');
  }
  if (o.timeoutMs) a.push('--timeout-ms', String(o.timeoutMs));
  if (o.retries) a.push('--retries', String(o.retries));
  if (o.health && o.health.kind !== 'none') {
    a.push('--health', o.health.kind);
    if (o.health.maxEjectionTime !== undefined) a.push('--max-ejection-time', String(o.health.maxEjectionTime));
  }
  return a;
}
