// The Traffic lab's plumbing, without a browser: the plan of simulations
// (what runs, at which bucket, and that a newer plan stops an older one),
// its sections' trip through a worker message (columns transferred, the
// same Traffic on arrival), the client's handling of a worker that goes
// silent or cannot start, the script's events, and the numbers a readout
// and a lane give for a bin. The engine is the real lab module.
import { describe, expect, it } from 'vitest';
import type { Traffic, TrafficOptions } from '../../../web/api/index.js';
import { binFacts, describeBin } from '../../../web/traffic/bin-facts.js';
import { CachedLab } from '../../../web/traffic/cached-lab.js';
import { LabRuns, STUCK_MS } from '../../../web/traffic/lab-client.js';
import { FLAP_SECONDS, PlanCancelled, runBucket, runPlan, type Section, type Simulator } from '../../../web/traffic/lab-plan.js';
import type { PlanReply, PlanRequest } from '../../../web/traffic/lab-protocol.js';
import { scenarioEvents } from '../../../web/traffic/scenario-events.js';
import { SCENARIOS } from '../../../web/traffic/scenarios.js';
import { listStretches, stretches } from '../../../web/traffic/state-lanes.js';
import { TimeAxis } from '../../../web/traffic/time-axis.js';
import { CURES, DEFAULT_SETTINGS, flapOptions, flapValues, withFlapValues, type TrafficSettings } from '../../../web/traffic/lab-settings.js';
import { sectionOf, wireSection } from '../../../web/traffic/traffic-wire.js';
import { lab } from '../support/lab.js';

const ROLLING = 'POOL a=1 b=1 c=1 d=1\nNOW 30\nDOWN b\nNOW 40\nUP b 60\n';
const WELCOME = 'POOL web1=5 web2=5\nADD web3=10 20\nNOW 5\nNOW 10\nNOW 20\n';

/** The lab as the plan sees it, counting its simulations (and stopping the plan after `stopAfter` of them). */
function counted(stopAfter = Infinity) {
  const calls: TrafficOptions[] = [];
  const inner = new CachedLab(lab as never).simulator(() => calls.length < stopAfter);
  const sim: Simulator = {
    defaults: inner.defaults,
    table: inner.table,
    simulate: async (script, options) => {
      const t = await inner.simulate(script, options);
      calls.push(options);
      return t;
    },
    arguments: inner.arguments,
    size: inner.size,
    events: inner.events,
  };
  return { sim, calls };
}

async function plan(script: string, settings: TrafficSettings = DEFAULT_SETTINGS, stopAfter = Infinity) {
  const { sim, calls } = counted(stopAfter);
  const sections: Section[] = [];
  let error: unknown = null;
  await runPlan(script, settings, sim, (s) => sections.push(s)).catch((e: unknown) => (error = e));
  return { sections, calls, error };
}

describe('the plan', () => {
  it('runs share, trap and flapping in order, each section as soon as it is done', async () => {
    const { sections, calls, error } = await plan(WELCOME);
    expect(error).toBeNull();
    expect(sections.map((s) => s.kind)).toEqual(['share', 'trap', 'flap']);
    // The share run, two trap runs; for the rolling restart a probe at 100/s
    // for its rate, and four cures (Envoy). (Durations are the engine's
    // estimates, Lab.simulationSize: nothing simulated.)
    expect(calls.length).toBe(1 + 2 + 1 + 4);
    const flap = sections[2] as Extract<Section, { kind: 'flap' }>;
    expect(flap.runs.map((r) => r.options.slowStart)).toEqual([false, true, false, true]);
    expect(flap.duration).toBe(FLAP_SECONDS);
    // 60 % of a warm backend's 640 a second, for the busiest of four equal backends: 1,536.
    expect(flap.rps).toBe(1536);
    // A tenth of a second: 3,000 buckets over five minutes, 153 requests in each.
    expect(flap.runs[0].traffic.bucket).toBe(0.1);
    expect(flap.runs[0].traffic.buckets).toBe(3000);
    expect(flap.events.map((e) => [e.time, e.label])).toEqual([
      [0, 'POOL a=1 b=1 c=1 d=1'],
      [30, 'DOWN b'],
      [40, 'UP b 60'],
    ]);
  });

  it('stops at its next simulation once a newer plan is wanted, and emits nothing more', async () => {
    const { sections, calls, error } = await plan(WELCOME, DEFAULT_SETTINGS, 2);
    expect(error).toBeInstanceOf(PlanCancelled);
    expect(calls.length).toBe(2);
    expect(sections.map((s) => s.kind)).toEqual(['share']);
  });

  it('says what is wrong with a section and goes on with the next', async () => {
    // The share run fails (so the trap, made from it, cannot run): the share says why, flapping still runs.
    const { sim } = counted();
    const failing: Simulator = { ...sim, simulate: async (script, o) => (o.duration === undefined ? Promise.reject(new Error('no room')) : sim.simulate(script, o)) };
    const sections: Section[] = [];
    await runPlan(WELCOME, DEFAULT_SETTINGS, failing, (x) => sections.push(x));
    expect(sections.map((x) => x.kind)).toEqual(['problem', 'flap']);
    expect(sections[0]).toEqual({ kind: 'problem', section: 'share', message: 'no room' });
  });

  it('lowers the rate below one a second rather than run a billion requests, and keeps each run in the caps', async () => {
    // 999,999,040 s (10 s past the ramp that starts at 999,999,000): 3,000,000 requests / 999,999,040 s = 0.003 a second.
    const { sections, error } = await plan('POOL a=1 b=1\nNOW 999999000\nADD c=1 30\n');
    expect(error).toBeNull();
    const share = sections[0] as Extract<Section, { kind: 'share' }>;
    expect(share.run.traffic.duration).toBe(999_999_040);
    expect(share.run.options.rps).toBeCloseTo(3_000_000 / 999_999_040, 12);
    const trap = sections[1] as Extract<Section, { kind: 'trap' }>;
    const requests = (t: { total: ArrayLike<number> }) => Array.from(t.total).reduce((a, b) => a + b, 0);
    // With the service model a request costs more of the budget: a million requests or so, not three.
    expect(requests(trap.with.traffic)).toBeGreaterThan(0);
    expect(requests(trap.with.traffic)).toBeLessThanOrEqual(1_000_010);
    expect(trap.with.options.rps).toBe(trap.without.options.rps);
  });

  it('picks a bucket as fine as its limits allow: 3,000 buckets, 20 requests in each, 600,000 cells', () => {
    expect(runBucket(300, 1536, 4)).toBe(0.1);
    expect(runBucket(30, 1000, 3)).toBe(0.02);
    // A slow rate: 20 requests a bucket (10 a second: 2 s), but never coarser than 200 buckets.
    expect(runBucket(300, 10, 4)).toBe(2);
    expect(runBucket(30, 1, 4)).toBe(0.2);
    // Many backends: buckets × backends at most 600,000.
    expect(runBucket(300, 100000, 10000)).toBe(5);
  });
});

describe('the flapping runs’ every option', () => {
  const defaults = lab.trafficDefaults() as never;
  const defaultOf = (key: string) => lab.trafficOptionTable().find((r) => r.key === key)!.default;

  it('keeps the settings’ own options in their settings and the others by key; one left out is the engine’s default', () => {
    const s = withFlapValues(DEFAULT_SETTINGS, { policy: 'p2c', 'health.kind': 'haproxy', 'health.errorLimit': 3, 'service.baseMs': 50, seed: 7 }, defaultOf);
    expect([s.flapPolicy, s.health, s.rampBy, s.timeoutMs, s.retries, s.warmBy]).toEqual(['p2c', 'haproxy', 'scale', 0, 0, 'serving']);
    expect(s.flapOptions).toEqual({ 'health.errorLimit': 3, 'service.baseMs': 50, seed: 7 });
    expect(flapValues(s)).toEqual({ policy: 'p2c', rampBy: 'scale', timeoutMs: 0, retries: 0, 'health.kind': 'haproxy', 'service.warmBy': 'serving', 'health.errorLimit': 3, 'service.baseMs': 50, seed: 7 });
  });

  it('makes each run’s options from them: the lab’s rate, bucket, curve and slow start; no escalation is max = base', () => {
    const s: TrafficSettings = { ...DEFAULT_SETTINGS, flapOptions: { 'health.baseEjectionTime': 12, 'health.consecutive5xx': 3, 'service.workers': 16, stableMargin: 20, seed: 9, rps: 5 } };
    // The first cure: no slow start, no escalation (max_ejection_time = the base set, 12 s).
    expect(flapOptions(900, 300, 0.1, s, CURES[0], defaults)).toEqual({
      seed: 9,
      rps: 900,
      duration: 300,
      bucket: 0.1,
      curve: DEFAULT_SETTINGS.curve,
      policy: 'wrr',
      rampBy: 'scale',
      slowStart: false,
      service: { workers: 16, warmBy: 'serving' },
      timeoutMs: 1000,
      retries: 1,
      health: { baseEjectionTime: 12, consecutive5xx: 3, kind: 'envoy', maxEjectionTime: 12, alwaysEjectOneHost: true },
      stableMargin: 20,
    });
    // Escalating ejection keeps Envoy's max_ejection_time (none set: the engine's 300 s).
    expect(flapOptions(900, 300, 0.1, s, CURES[2], defaults).health).toEqual({ baseEjectionTime: 12, consecutive5xx: 3, kind: 'envoy', alwaysEjectOneHost: true });
    // Instant answers: routing only, whatever the service model, timeout or health check say.
    expect(flapOptions(900, 300, 0.1, { ...s, flapAnswers: 'instant' }, CURES[1], defaults)).toEqual({ seed: 9, rps: 900, duration: 300, bucket: 0.1, curve: DEFAULT_SETTINGS.curve, policy: 'wrr', rampBy: 'scale', slowStart: true });
  });

  it('runs at a rate and for a duration set, instead of Load % and the scenario’s', async () => {
    const { sections } = await plan(WELCOME, { ...DEFAULT_SETTINGS, flapOptions: { rps: 400, duration: 200 } });
    const flap = sections.at(-1) as Extract<Section, { kind: 'flap' }>;
    expect([flap.rps, flap.duration]).toEqual([400, 200]);
    expect(flap.runs[0].args.slice(0, 4)).toEqual(['--rps', '400', '--duration', '200']);
  });
});

describe('a section through a worker message', () => {
  it('arrives as the same Traffic, every column handed over, the rejected lines kept', async () => {
    const t = lab.simulate('POOL a=1 b=2\nBOGUS 1\nADD c=1 10\n', { rps: 100, bucket: 0.5, service: true, timeoutMs: 500 }) as unknown as Traffic;
    const transfer: Transferable[] = [];
    const wire = wireSection({ kind: 'trap', without: { options: {}, args: [], traffic: t }, with: { options: { rps: 1 }, args: ['--rps', '1'], traffic: t }, rps: 5, script: '' }, transfer);
    // A copy's buffers (the worker keeps its own for its cache): every typed column, twice.
    const columns = Object.values(t).filter((v) => ArrayBuffer.isView(v)).length;
    expect(transfer.length).toBe(2 * (columns + 2));
    const copy = structuredClone(wire, { transfer });
    const back = sectionOf(copy) as Extract<Section, { kind: 'trap' }>;
    const u = back.with.traffic;
    expect(u.names).toEqual(['a', 'b', 'c']);
    expect([...u.requests]).toEqual([...t.requests]);
    expect([...u.latencyMs]).toEqual([...t.latencyMs]);
    expect(u.stableAt).toBe(t.stableAt);
    expect(u.diagnostics).toEqual([{ line: 2, message: t.diagnostics[0].message, from: 0, to: 5 }]);
    expect(u.share(3, 1)).toBe(t.share(3, 1));
    expect(back.with.options).toEqual({ rps: 1 });
    expect(back.with.args).toEqual(['--rps', '1']);
  });
});

/** A worker that does what it is told, when told. */
class FakeWorker {
  readonly posted: PlanRequest[] = [];
  readonly wasm: unknown[] = [];
  terminated = false;
  onmessage: ((e: MessageEvent<PlanReply>) => void) | null = null;
  onerror: ((e: ErrorEvent) => void) | null = null;
  postMessage(m: PlanRequest | { type: 'slowstart-wasm' }): void {
    if (m.type === 'plan') this.posted.push(m);
    else this.wasm.push(m);
  }
  addEventListener(): void {}
  terminate(): void {
    this.terminated = true;
  }
  reply(r: PlanReply): void {
    this.onmessage?.({ data: r } as MessageEvent<PlanReply>);
  }
}

function client() {
  const workers: FakeWorker[] = [];
  const heard: Array<[string, number]> = [];
  const runs = new LabRuns({
    lab: async () => lab as never,
    createWorker: () => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as Worker;
    },
    onDefaults: () => heard.push(['defaults', 0]),
    onSection: (id) => heard.push(['section', id]),
    onDone: (id) => heard.push(['done', id]),
    onFailed: (id) => heard.push(['failed', id]),
  });
  return { runs, workers, heard };
}

const problem = { kind: 'problem', section: 'share', message: 'x' } as const;

describe('the client of the worker', () => {
  it('sends a newer plan to the same worker while it answers, and hears only the newest', () => {
    const { runs, workers, heard } = client();
    const first = runs.plan('POOL a=1\n', DEFAULT_SETTINGS);
    const second = runs.plan('POOL b=1\n', DEFAULT_SETTINGS);
    expect(workers.length).toBe(1);
    // Started as every worker of the package: told where the lab's .wasm is, first.
    expect(workers[0].wasm).toEqual([{ type: 'slowstart-wasm', urls: { lab: expect.stringMatching(/\/lab\.wasm$/) } }]);
    expect(workers[0].posted.map((p) => [p.id, p.script])).toEqual([
      [first, 'POOL a=1\n'],
      [second, 'POOL b=1\n'],
    ]);
    workers[0].reply({ type: 'section', id: first, section: problem });
    workers[0].reply({ type: 'section', id: second, section: problem });
    workers[0].reply({ type: 'done', id: second });
    expect(heard).toEqual([
      ['section', second],
      ['done', second],
    ]);
  });

  it(`ends a worker silent for ${STUCK_MS} ms when a newer plan comes, and sends it to a new one`, async () => {
    const { runs, workers } = client();
    runs.plan('POOL a=1\n', DEFAULT_SETTINGS);
    // Loading its lab module, a worker is never ended (a new one would load it again).
    await new Promise((resolve) => setTimeout(resolve, STUCK_MS + 100));
    runs.plan('POOL a=2\n', DEFAULT_SETTINGS);
    expect(workers[0].terminated).toBe(false);
    workers[0].reply({ type: 'defaults', defaults: lab.trafficDefaults() as never, table: lab.trafficOptionTable() });
    await new Promise((resolve) => setTimeout(resolve, STUCK_MS + 100));
    const second = runs.plan('POOL b=1\n', DEFAULT_SETTINGS);
    expect(workers[0].terminated).toBe(true);
    expect(workers.length).toBe(2);
    expect(workers[1].posted.map((p) => p.id)).toEqual([second]);
    expect(workers[0].posted.length).toBe(2);
  });

  it('runs the plan on the page when no worker can start', async () => {
    const heard: string[] = [];
    let done!: () => void;
    const finished = new Promise<void>((resolve) => (done = resolve));
    const runs = new LabRuns({
      lab: async () => lab as never,
      createWorker: () => {
        throw new Error('Refused by the Content-Security-Policy');
      },
      onDefaults: (d) => heard.push(`defaults ${d.service.workers}`),
      onSection: (_id, s) => heard.push(s.kind),
      onDone: () => done(),
      onFailed: (_id, m) => heard.push(`failed ${m}`),
    });
    runs.plan(WELCOME, DEFAULT_SETTINGS);
    await finished;
    expect(runs.onPage).toBe(true);
    expect(heard).toEqual(['defaults 128', 'share', 'trap', 'flap']);
  });
});

describe('what the lab reads out of a run', () => {
  const t = lab.simulate(ROLLING, {
    rps: 1536,
    duration: 300,
    bucket: 0.1,
    curve: { resolution: 100 },
    slowStart: false,
    service: true,
    timeoutMs: 1000,
    retries: 1,
    // Every failure retried (Envoy's circuit breaker of 3 retries in flight would let some reach the client).
    maxRetriesInFlight: 1_000_000,
    // As the lab runs its flapping comparison: current Envoy ejects none of 4 hosts without always_eject_one_host.
    health: { kind: 'envoy', maxEjectionTime: 30, alwaysEjectOneHost: true },
  }) as unknown as Traffic;
  const b = t.names.indexOf('b');

  it("lists b's every ejection and readmission, a stretch per change of state", () => {
    const ejected = stretches(t, b).filter((s) => s.state === 3);
    // The engine's own count: seven ejections, each a stretch of its own.
    expect(t.ejections[b]).toBe(7);
    expect(ejected.length).toBe(7);
    // b comes back at each 10 s sweep after its 30 s are up, from 80 s on, and serves a little before the next ejection.
    const serving = stretches(t, b).filter((s) => s.state === 1 && s.from * t.bucket >= 40);
    expect(serving.map((s) => Math.round(s.from * t.bucket))).toEqual([40, 80, 120, 160, 200, 240, 280]);
    for (const s of serving) expect((s.to - s.from) * t.bucket).toBeLessThan(2);
    expect(listStretches(ejected.slice(0, 2), t.bucket)).toMatch(/^41\.\d–80, 81\.\d–120 s$/);
  });

  it('adds a bin up: requests, shares, what failed and what the client saw', () => {
    // The bin from 40 s to 42 s: b back, cold, failing; every failure retried.
    const f = binFacts(t, 400, 420);
    let failed = 0;
    let retried = 0;
    for (let k = 400; k < 420; k++) (failed += t.failed[k * 4 + b]), (retried += t.retried[k * 4 + b]);
    expect(f.failed).toBe(failed);
    expect(f.retried).toBe(retried);
    expect(f.clientErrors).toBe(0);
    expect(f.backends[b].state).toBe(3);
    expect(f.backends.reduce((s, x) => s + x.share, 0)).toBeCloseTo(1, 9);
    expect(describeBin(f, true)).toMatch(/^40–42 s: [\d,]+ requests; a \d+ % 200 ms, b \d+ % \d+ ms \(ejected\), .*failed \([\d,]+ retried\); 0 reached the client\.$/);
  });

  it("finds the script's events at the clock the engine ran them, its rejected lines left out", () => {
    const script = 'POOL a=1 b=1\n# a comment\nNOW 5\nDOWN b\nDOWN zz\nNOW 7\nUP b 10\nADD c=1 5\nWEIGHTS\n';
    const events = scenarioEvents(script, lab.run(script, { kind: 'linear' }).timeline! as never);
    expect(events.map((e) => [e.time, e.line, e.command, e.label])).toEqual([
      [0, 1, 'POOL', 'POOL a=1 b=1'],
      [5, 4, 'DOWN', 'DOWN b'],
      [7, 7, 'UP', 'UP b 10'],
      [7, 8, 'ADD', 'ADD c=1 5'],
    ]);
  });
});

describe('the time axis', () => {
  it('zooms around a point, pans inside the run, keeps a zoom that fits a new run', () => {
    const axis = new TimeAxis();
    const changes: string[] = [];
    axis.listen((c) => changes.push(c));
    axis.setExtent(300, 0.1);
    expect([axis.start, axis.end, axis.zoomed]).toEqual([0, 300, false]);
    axis.zoom(0.5, 80);
    expect([axis.start, axis.end]).toEqual([40, 190]);
    axis.pan(-1);
    expect([axis.start, axis.end]).toEqual([0, 150]);
    axis.show(81, 81.1); // narrower than 8 buckets: widened around its middle
    expect(axis.end - axis.start).toBeCloseTo(0.8, 9);
    axis.setExtent(300, 0.1); // a new run of the same length keeps the zoom
    expect(axis.zoomed).toBe(true);
    axis.setExtent(30, 0.02); // a shorter one it does not fit: the whole run
    expect([axis.start, axis.end, axis.zoomed]).toEqual([0, 30, false]);
    axis.cursor = 1000;
    expect(axis.cursor).toBe(30);
    expect(changes.at(-1)).toBe('cursor');
  });

  it('says a new run\'s extent apart from a window the learner moved, and only when something changed', () => {
    const axis = new TimeAxis();
    const changes: string[] = [];
    axis.listen((c) => changes.push(c));
    axis.setExtent(300, 0.1);
    axis.setExtent(300, 0.1); // the same run length, bucket and window: a keystroke that changed none
    expect(changes).toEqual(['extent']);
    axis.zoom(0.5, 80);
    axis.setExtent(300, 0.1); // the zoom kept: nothing changed
    expect(changes).toEqual(['extent', 'window']);
    axis.setExtent(301, 0.1); // a longer run: the zoom is kept, the extent is new
    axis.setExtent(301, 0.05); // a finer bucket
    axis.setExtent(100, 0.05); // a shorter run the zoom does not fit
    expect(changes).toEqual(['extent', 'window', 'extent', 'extent', 'extent']);
    expect([axis.start, axis.end, axis.zoomed]).toEqual([0, 100, false]);
  });
});

describe('the scenario presets', () => {
  const write = (id: string, params: Record<string, number> = {}, choices: Record<string, string> = {}) => {
    const s = SCENARIOS.find((x) => x.id === id)!;
    const p = Object.fromEntries(s.parameters.map((x) => [x.key, params[x.key] ?? x.value]));
    const c = Object.fromEntries((s.choices ?? []).map((x) => [x.key, choices[x.key] ?? x.value]));
    return s.write(p, c);
  };
  const flapOf = async (id: string, params: Record<string, number> = {}, choices: Record<string, string> = {}) => {
    const w = write(id, params, choices);
    const { sections } = await plan(w.script, { ...DEFAULT_SETTINGS, ...w.settings });
    return { w, flap: sections.find((s) => s.kind === 'flap') as Extract<Section, { kind: 'flap' }> };
  };
  const sum = (a: ArrayLike<number>) => Array.from(a).reduce((x, y) => x + y, 0);

  it('each writes a script the engine takes whole', () => {
    for (const s of SCENARIOS) {
      const w = write(s.id);
      expect(lab.run(w.script, { kind: 'linear' }).diagnostics, s.id).toEqual([]);
      expect(w.settings.flapScenario, s.id).toBe('script');
    }
  });

  it('a rolling deploy: a batch of `surge` new instances every interval, as many old ones a batch later', () => {
    const { script } = write('rolling-deploy', { instances: 5, surge: 2, interval: 20, ramp: 15 });
    const events = scenarioEvents(script, lab.run(script, { kind: 'linear' }).timeline! as never).map((e) => `${e.time} ${e.label}`);
    expect(events).toEqual([
      '0 POOL old1=1 old2=1 old3=1 old4=1 old5=1',
      '30 ADD new1=1 15',
      '30 ADD new2=1 15',
      '50 DOWN old1',
      '50 DOWN old2',
      '50 ADD new3=1 15',
      '50 ADD new4=1 15',
      '70 DOWN old3',
      '70 DOWN old4',
      '70 ADD new5=1 15',
      '90 DOWN old5',
    ]);
  });

  it('autoscale: k cold instances join n at 30 s, at the chosen load once all are in', async () => {
    const { w, flap } = await flapOf('autoscale', { backends: 3, added: 2, load: 50 });
    expect(w.script.split('\n').filter((l) => l.startsWith('ADD'))).toEqual(['ADD web4=1 60', 'ADD web5=1 60']);
    // 50 % of 640 for each of the five at full weight: 1,600 a second; the three alone carry 83 %.
    expect(flap.rps).toBe(1600);
    expect(w.note).toContain('before 30 s the 3 running carry 83 %');
  });

  it("Caddy's least_conn: with instant answers slow start routes every request alike; under load it does not", async () => {
    const instant = (await flapOf('caddy-least-conn', {}, { answers: 'instant' })).flap;
    expect(instant.runs.map((r) => r.options.service)).toEqual([undefined, undefined]);
    expect([...instant.runs[1].traffic.requests]).toEqual([...instant.runs[0].traffic.requests]);
    // c takes a third of the requests from its first second (0 in flight everywhere, ties at random).
    const t = instant.runs[1].traffic;
    const c = t.names.indexOf('c');
    let got = 0;
    let all = 0;
    for (let k = Math.round(10 / t.bucket); k < Math.round(11 / t.bucket); k++) (got += t.requests[k * 3 + c]), (all += t.total[k]);
    expect(got / all).toBeGreaterThan(0.3);
    const load = (await flapOf('caddy-least-conn', {}, { answers: 'load' })).flap;
    expect(load.runs[0].options.service).toBeTruthy();
    expect([...load.runs[1].traffic.requests]).not.toEqual([...load.runs[0].traffic.requests]);
  });

  it("Caddy's skip decorator: weighted random leaves no host only at t = 0 by scale, (1 − t/R)^hosts of the time by skip", async () => {
    const { flap } = await flapOf('caddy-skip', { backends: 3, ramp: 30 });
    expect(flap.cures.map((c) => c.title)).toEqual(['No slow start', 'Slow start, ramp by scale', 'Slow start, ramp by skip']);
    const [none, scale, skip] = flap.runs.map((r) => sum(r.traffic.unrouted));
    const requests = sum(flap.runs[2].traffic.total);
    expect(none).toBe(0);
    expect(scale / requests).toBeLessThan(1e-4);
    // All three skipped with probability (1 − t/30)^3: over the ramp, 30 / 4 = 7.5 s of requests.
    const expected = flap.rps * 7.5;
    expect(Math.abs(skip - expected) / expected).toBeLessThan(0.05);
    // Nothing else fails: the 503s are not drowned.
    expect(flap.runs.every((r) => sum(r.traffic.failed) === 0)).toBe(true);
    // One host: the proposal's guard never skips the only available host (by scale, its weight is 0 only in its first millisecond).
    const one = (await flapOf('caddy-skip', { backends: 1 })).flap;
    const [, oneScale, oneSkip] = one.runs.map((r) => sum(r.traffic.unrouted));
    expect(oneSkip).toBe(0);
    expect(oneScale).toBeLessThanOrEqual(2);
  });
});
