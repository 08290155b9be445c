// Every recipe of docs/WHY-SLOW-START.md ("Recipes", read by
// tests/web/support/lab-recipes.ts) reproduces on the command line: the
// preset writes the script the guide shows, the lab's plan runs each
// comparison's run with the options the guide's command spells, and both
// CLIs, given that command, print the numbers the guide says the lab shows
// under that run. (The same recipes in the browser: traffic-lab.test.ts.)
// On a mismatch, the message holds the block the guide should have.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Traffic } from '../../../web/api/index.js';
import { CachedLab } from '../../../web/traffic/cached-lab.js';
import { runFacts, runLine, type RunFacts } from '../../../web/traffic/flap-summary.js';
import { runPlan, type Section } from '../../../web/traffic/lab-plan.js';
import { SCENARIOS } from '../../../web/traffic/scenarios.js';
import { DEFAULT_SETTINGS } from '../../../web/traffic/lab-settings.js';
import { NATIVE, NODE_CLI } from '../support/grade-cli.js';
import { lab } from '../support/lab.js';
import { readRecipes, type Recipe } from '../support/lab-recipes.js';

const recipes = readRecipes();
const dir = mkdtempSync(join(tmpdir(), 'slowstart-recipes-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The preset's script and the lab's flapping runs for a recipe. */
async function inTheLab(r: Recipe) {
  const s = SCENARIOS.find((x) => x.id === r.preset)!;
  const w = s.write(
    Object.fromEntries(s.parameters.map((p) => [p.key, r.params[p.key] ?? p.value])),
    Object.fromEntries((s.choices ?? []).map((c) => [c.key, r.choices[c.key] ?? c.value])),
  );
  const sections: Section[] = [];
  await runPlan(w.script, { ...DEFAULT_SETTINGS, ...w.settings }, new CachedLab(lab as never).simulator(() => true), (x) => sections.push(x));
  return { script: w.script, flap: sections.find((x) => x.kind === 'flap') as Extract<Section, { kind: 'flap' }> };
}

/** A backend's share (percent, one decimal) of the requests from `from` to `to` s. */
function shareOf(t: Pick<Traffic, 'names' | 'bucket' | 'requests' | 'total'>, name: string, from: number, to: number): number {
  const id = t.names.indexOf(name);
  let got = 0;
  let all = 0;
  for (let k = Math.round(from / t.bucket); k < Math.round(to / t.bucket); k++) (got += t.requests[k * t.names.length + id]), (all += t.total[k]);
  return Number(((100 * got) / all).toFixed(1));
}

/** The block the guide should hold for a recipe, from the lab. */
async function expectedBlock(r: Recipe): Promise<string> {
  const { script, flap } = await inTheLab(r);
  const lines = flap.runs.map((run, i) => {
    const title = flap.cures[i].title;
    const share = r.runs.find((x) => x.title === title)?.share;
    const what = share
      ? `${share.name} ${shareOf(run.traffic, share.name, share.from, share.to)} % from ${share.from} to ${share.to} s`
      : runLine(runFacts(flap.cures[i].label, run.traffic), !run.options.service);
    return `slowstart simulate ${run.args.join(' ')} ${share ? '--csv' : '--summary json'} ${r.file}   # ${title}: ${what}`;
  });
  return `\`\`\`\n${script}\`\`\`\n\n\`\`\`sh\n${lines.join('\n')}\n\`\`\``;
}

interface Summary {
  unrouted: number;
  stable_at: number | null;
  backends: Array<{ name: string; requests: number; failed: number; retried: number; ejections: number; seconds_ejected: number }>;
}

/** What the lab says under a run, from the CLI's summary and CSV of it. */
function lineFromCli(summary: Summary, csv: string, instant: boolean): string {
  const sum = (k: 'failed' | 'retried' | 'ejections' | 'seconds_ejected') => summary.backends.reduce((s, b) => s + b[k], 0);
  const most = summary.backends.reduce((a, b) => (b.ejections > a.ejections ? b : a), summary.backends[0]);
  let peakMs = 0;
  let peakName: string | null = null;
  for (const row of csv.trim().split('\n').slice(1)) {
    const cells = row.split(',');
    if (Number(cells[5]) > peakMs) [peakMs, peakName] = [Number(cells[5]), cells[1]];
  }
  const facts: RunFacts = {
    label: '',
    ejections: sum('ejections'),
    failed: sum('failed'),
    clientFailed: sum('failed') - sum('retried'),
    secondsEjected: sum('seconds_ejected'),
    unrouted: summary.unrouted,
    stableAt: summary.stable_at,
    worst: most.ejections ? most.name : null,
    peakMs,
    peakName,
  };
  return runLine(facts, instant);
}

/** `slowstart simulate ARGS` by one of the CLIs: its standard output. */
function cli(which: 'native' | 'node', args: string[]): string {
  const [cmd, pre] = which === 'native' ? [NATIVE, []] : [process.execPath, [NODE_CLI]];
  const r = spawnSync(cmd, [...pre, 'simulate', ...args], { encoding: 'utf8', maxBuffer: 1 << 28 });
  if (r.status !== 0) throw new Error(`${which} CLI: ${r.stderr}`);
  return r.stdout;
}

describe('the recipes of WHY-SLOW-START.md', () => {
  it('are there: every preset has one', () => {
    expect(new Set(recipes.map((r) => r.preset))).toEqual(new Set(SCENARIOS.map((s) => s.id)));
  });

  for (const r of recipes) {
    const name = `${r.preset} ${JSON.stringify({ ...r.params, ...r.choices })}`;
    it(`${name}: the lab runs what the guide's commands say, and says what it says`, async () => {
      const { script, flap } = await inTheLab(r);
      const block = await expectedBlock(r);
      expect(r.script, `the guide should say:\n${block}`).toBe(script);
      expect(r.runs.map((x) => x.title), `the guide should say:\n${block}`).toEqual(flap.cures.map((c) => c.title));
      flap.runs.forEach((run, i) => {
        const doc = r.runs[i];
        expect(doc.args.filter((a) => a !== '--csv' && a !== '--summary' && a !== 'json'), `${doc.title}; the guide should say:\n${block}`).toEqual(run.args);
        if (doc.share) expect(shareOf(run.traffic, doc.share.name, doc.share.from, doc.share.to), `${doc.title}; the guide should say:\n${block}`).toBe(doc.share.percent);
        else expect(runLine(runFacts(flap.cures[i].label, run.traffic), !run.options.service), `${doc.title}; the guide should say:\n${block}`).toBe(doc.line);
      });
    }, 120_000);

    it(`${name}: both CLIs print it`, () => {
      const file = join(dir, r.file);
      writeFileSync(file, r.script);
      for (const run of r.runs) {
        const base = run.args.filter((a) => a !== '--csv' && a !== '--summary' && a !== 'json');
        const instant = !base.some((a) => a === '--service' || a === '--timeout-ms');
        // The native CLI's summary and CSV give the line; the Node CLI prints the summary byte for byte.
        const csv = cli('native', [...base, '--csv', file]);
        if (run.share) {
          const rows = csv.trim().split('\n').slice(1).map((l) => l.split(','));
          const bucket = Number(base[base.indexOf('--bucket') + 1]);
          const names = [...new Set(rows.map((c) => c[1]))];
          const requests = Uint32Array.from(rows, (c) => Number(c[2]));
          const total = new Uint32Array(rows.length / names.length);
          rows.forEach((c, i) => (total[Math.floor(i / names.length)] += Number(c[2])));
          // (the CSV has no column of requests with no backend: a --csv recipe is a run where every request finds one)
          expect(shareOf({ names, bucket, requests, total }, run.share.name, run.share.from, run.share.to), run.title).toBe(run.share.percent);
        } else {
          const json = cli('native', [...base, '--summary', 'json', file]);
          expect(lineFromCli(JSON.parse(json) as Summary, csv, instant), run.title).toBe(run.line);
          expect(cli('node', [...base, '--summary', 'json', file]), `the Node CLI: ${run.title}`).toBe(json);
        }
      }
    }, 120_000);
  }
});
