// Scenarios as starting points: each preset writes an ordinary script (the
// learner edits it like any other, and Undo brings theirs back) and sets the
// lab's flapping comparison up to show what the scenario is about. Pure:
// parameters in, script and settings out; scenario-picker.ts is the form.
import type { TrafficSettings } from './lab-settings.js';

export interface ScenarioParameter {
  key: string;
  label: string;
  /** The field's hint. */
  hint: string;
  value: number;
  min: number;
  max: number;
}

export interface ScenarioChoice {
  key: string;
  label: string;
  hint: string;
  /** [value, text] */
  options: Array<[string, string]>;
  value: string;
}

export interface Scenario {
  id: string;
  title: string;
  /** What it shows, in a sentence (under the picker). */
  about: string;
  parameters: ScenarioParameter[];
  choices?: ScenarioChoice[];
  /** The script and the settings for these parameters, and a sentence on what the runs isolate. */
  write(p: Record<string, number>, c: Record<string, string>): { script: string; settings: Partial<TrafficSettings>; note: string };
}

const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}${i + 1}`);
const pool = (list: string[]) => `POOL ${list.map((n) => `${n}=1`).join(' ')}`;
const num = (key: string, label: string, value: number, min: number, max: number, hint: string): ScenarioParameter => ({ key, label, value, min, max, hint });

/** The flapping comparison on the script, with the service model, comparing the cures. */
const FLAP_ON_SCRIPT: Partial<TrafficSettings> = { flapScenario: 'script', flapAnswers: 'model', flapCompare: 'cures' };

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'rolling-restart',
    title: 'Rolling restart',
    about: 'Every backend restarted in turn: each stops, comes back cold and ramps up.',
    parameters: [
      num('backends', 'Backends', 4, 2, 50, 'How many backends the pool has; each is restarted once.'),
      num('interval', 'Every s', 40, 1, 3600, 'Seconds from one backend’s restart to the next.'),
      num('downtime', 'Down s', 10, 0, 3600, 'Seconds each backend is out for its restart.'),
      num('ramp', 'Ramp s', 60, 0, 3600, 'The slow-start window of a backend coming back.'),
    ],
    write: (p) => {
      const list = names('web', p.backends);
      const lines = [`# A rolling restart of ${p.backends} backends, one every ${p.interval} s: each is out for ${p.downtime} s`, `# and comes back cold with a ${p.ramp} s ramp.`, pool(list)];
      list.forEach((name, i) => {
        const t = 30 + i * p.interval;
        lines.push(`NOW ${t}`, `DOWN ${name}`, `NOW ${t + p.downtime}`, `UP ${name} ${p.ramp}`);
      });
      return { script: lines.join('\n') + '\n', settings: FLAP_ON_SCRIPT, note: 'Each backend comes back cold: watch its lane for ejections without slow start.' };
    },
  },
  {
    id: 'rolling-deploy',
    title: 'Rolling deploy',
    about: 'A new version rolled out: new instances join in batches (the surge), and as many old ones leave a batch later.',
    parameters: [
      num('instances', 'Instances', 6, 1, 50, 'How many instances run the old version, and will run the new one.'),
      num('surge', 'Surge', 2, 1, 50, 'New instances added at once before as many old ones go (Kubernetes’ maxSurge).'),
      num('interval', 'Every s', 30, 1, 3600, 'Seconds between one batch and the next.'),
      num('ramp', 'Ramp s', 30, 0, 3600, 'The slow-start window of a new instance.'),
    ],
    write: (p) => {
      const old = names('old', p.instances);
      const fresh = names('new', p.instances);
      const lines = [`# A rolling deploy of ${p.instances} instances, ${p.surge} at a time every ${p.interval} s: new ones join cold`, `# with a ${p.ramp} s ramp, and as many old ones go a batch later.`, pool(old)];
      const batches = Math.ceil(p.instances / p.surge);
      for (let b = 0; b <= batches; b++) {
        lines.push(`NOW ${30 + b * p.interval}`);
        if (b > 0) for (const name of old.slice((b - 1) * p.surge, b * p.surge)) lines.push(`DOWN ${name}`);
        if (b < batches) for (const name of fresh.slice(b * p.surge, (b + 1) * p.surge)) lines.push(`ADD ${name}=1 ${p.ramp}`);
      }
      return { script: lines.join('\n') + '\n', settings: FLAP_ON_SCRIPT, note: 'Each batch joins cold while the old instances still serve; then they go and the new ones carry all of it.' };
    },
  },
  {
    id: 'autoscale',
    title: 'Autoscale',
    about: 'A pool under load gets more instances at once, all cold: the new ones join with nothing in flight.',
    parameters: [
      num('backends', 'Running', 4, 1, 50, 'Instances running before the scale-out.'),
      num('added', 'Added', 4, 1, 50, 'Cold instances the autoscaler adds at 30 s.'),
      num('load', 'Load %', 40, 5, 200, 'Load once all are in: % of what the busiest serves warm (before, the running ones carry it all).'),
      num('ramp', 'Ramp s', 60, 0, 3600, 'The slow-start window of an added instance.'),
    ],
    write: (p) => {
      const running = names('web', p.backends);
      const added = Array.from({ length: p.added }, (_, i) => `web${p.backends + i + 1}`);
      const lines = [`# ${p.added} cold instance${p.added === 1 ? '' : 's'} added to ${p.backends} under load at 30 s, each with a ${p.ramp} s ramp.`, pool(running), 'NOW 30'];
      for (const name of added) lines.push(`ADD ${name}=1 ${p.ramp}`);
      return {
        script: lines.join('\n') + '\n',
        settings: { ...FLAP_ON_SCRIPT, flapLoad: p.load },
        note: `At ${p.load} % of what the busiest serves warm once all ${p.backends + p.added} are in; before 30 s the ${p.backends} running carry ${Math.round((p.load * (p.backends + p.added)) / p.backends)} %.`,
      };
    },
  },
  {
    id: 'reload',
    title: 'Reload in a ramp',
    about: 'A configuration reload (a second POOL) while a restarted backend is still ramping: the balancer forgets the ramp.',
    parameters: [
      num('reloadAt', 'Reload at s', 55, 41, 3600, 'When the balancer reloads (b came back at 40 s with a 60 s ramp).'),
    ],
    write: (p) => ({
      script: ['# b restarts at 30 s and comes back cold at 40 s with a 60 s ramp; the balancer', `# reloads its configuration at ${p.reloadAt} s: a POOL line again, which has no ramp.`, 'POOL a=1 b=1 c=1 d=1', 'NOW 30', 'DOWN b', 'NOW 40', 'UP b 60', `NOW ${p.reloadAt}`, 'POOL a=1 b=1 c=1 d=1', ''].join('\n'),
      settings: FLAP_ON_SCRIPT,
      note: 'After the reload b has its full weight at once, still cold: the slow-start run loses what its ramp bought.',
    }),
  },
  {
    id: 'crash',
    title: 'Crash and restart',
    about: 'One backend crashes under load and comes back after a while, cold.',
    parameters: [
      num('backends', 'Backends', 4, 2, 50, 'How many backends the pool has.'),
      num('downtime', 'Down s', 20, 0, 3600, 'Seconds until the crashed backend is back.'),
      num('ramp', 'Ramp s', 60, 0, 3600, 'The slow-start window when it comes back.'),
    ],
    write: (p) => {
      const list = names('web', p.backends);
      const victim = list[list.length - 1];
      return {
        script: [`# ${victim} crashes at 60 s and is back, cold, ${p.downtime} s later with a ${p.ramp} s ramp.`, pool(list), 'NOW 60', `DOWN ${victim}`, `NOW ${60 + p.downtime}`, `UP ${victim} ${p.ramp}`, ''].join('\n'),
        settings: FLAP_ON_SCRIPT,
        note: `While ${victim} is down the others carry its share; when it is back, cold, it gets its share again.`,
      };
    },
  },
  {
    id: 'caddy-least-conn',
    title: 'Caddy: least_conn and a ramp',
    about: 'The review’s first finding: scaling least_conn’s score by the ramp does nothing while answers are instant, since a new host has 0 requests in flight and 0 / ramp is 0.',
    parameters: [],
    choices: [
      {
        key: 'answers',
        label: 'Answers',
        hint: 'Instant: nothing is ever in flight. Under load: requests take time, and a cold host’s pile up.',
        options: [
          ['instant', 'Instant'],
          ['load', 'Under load'],
        ],
        value: 'instant',
      },
    ],
    write: (_p, c) => ({
      script: ['# Two warm hosts; c joins at 10 s with a 60 s ramp (Caddy least_conn, the ramp scaling its score).', 'POOL a=1 b=1', 'NOW 10', 'ADD c=1 60', 'NOW 80', ''].join('\n'),
      settings: { ...FLAP_ON_SCRIPT, flapPolicy: 'caddy-least-conn', rampBy: 'scale', flapAnswers: c.answers === 'load' ? 'model' : 'instant' },
      note:
        c.answers === 'load'
          ? 'Under load: requests take time, so c’s in-flight count grows while it is cold, and the ramp’s scaling of its score does hold it back: the two runs differ.'
          : 'Instant answers: every host has 0 requests in flight at every pick, so c wins its ties from its first second, ramp or not: the two runs are the same.',
    }),
  },
  {
    id: 'caddy-skip',
    title: 'Caddy: the skip decorator',
    about: 'The review’s second finding: after a fresh start every host is warming, and a decorator that skips each warming host with probability 1 − ramp sometimes skips them all: 503s.',
    parameters: [num('backends', 'Hosts', 3, 1, 20, 'Hosts that all start warming at 0 s.'), num('ramp', 'Ramp s', 30, 1, 3600, 'Their slow-start window.')],
    write: (p) => ({
      script: [`# A fresh start: ${p.backends} host${p.backends === 1 ? '' : 's'}, all warming with a ${p.ramp} s ramp (weighted random).`, ...names('h', p.backends).map((n) => `ADD ${n}=1 ${p.ramp}`), `NOW ${p.ramp + 10}`, ''].join('\n'),
      settings: { ...FLAP_ON_SCRIPT, flapPolicy: 'random', flapAnswers: 'instant', flapCompare: 'ramp-by' },
      note:
        'Weighted random, answers instant (nothing times out, so the 503s are all there is to count): scaling the weights by the ramp always leaves someone to pick; skipping each warming host leaves nobody in (1 − ramp)^hosts of the picks. ' +
        (p.backends === 1 ? 'With one host the guard keeps it in: no 503s either way.' : ''),
    }),
  },
];
