// The recipes of docs/WHY-SLOW-START.md ("Recipes"), read out of the guide:
// each is a scenario preset of the lab (its id, and the parameters written
// in the marker), the script the preset writes, and one `slowstart
// simulate` command per run of the comparison, with what the lab says
// under that run (its title and its line). A recipe reads:
//
//   <!-- recipe caddy-least-conn answers=load -->
//   ...
//   ```
//   (the script)
//   ```
//   ...
//   ```sh
//   slowstart simulate --rps ... recipe.txt   # No slow start: 0 ejections, ...
//   slowstart simulate ... --csv recipe.txt   # Slow start: c 1.1 % from 10 to 20 s
//   ```
//
// A command with --csv says a backend's share of the requests over a stretch;
// any other, the run's line (flap-summary.ts runLine). The browser test and
// the CLI test run each (traffic-recipes.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './site.js';

export interface RecipeRun {
  /** The command's arguments after `slowstart simulate`, the file name left out. */
  args: string[];
  /** The run's title in the lab (its panel's heading). */
  title: string;
  /** What the lab says under it (runLine), or null for a share. */
  line: string | null;
  /** A --csv run: backend `name` got `percent` % of the requests from `from` to `to` s. */
  share: { name: string; percent: number; from: number; to: number } | null;
}

export interface Recipe {
  preset: string;
  params: Record<string, number>;
  choices: Record<string, string>;
  script: string;
  file: string;
  runs: RecipeRun[];
}

export const GUIDE = join(ROOT, 'docs/WHY-SLOW-START.md');

export function readRecipes(text = readFileSync(GUIDE, 'utf8')): Recipe[] {
  const recipes: Recipe[] = [];
  const marker = /<!-- recipe ([\w-]+)((?: [\w]+=[\w.]+)*) -->\n/g;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    const params: Record<string, number> = {};
    const choices: Record<string, string> = {};
    for (const pair of m[2].trim().split(' ').filter(Boolean)) {
      const [k, v] = pair.split('=');
      if (/^\d+(\.\d+)?$/.test(v)) params[k] = Number(v);
      else choices[k] = v;
    }
    const rest = text.slice(marker.lastIndex);
    const script = /\n```\n([\s\S]*?)```\n/.exec(rest);
    const sh = /\n```sh\n([\s\S]*?)```\n/.exec(rest);
    if (!script || !sh) throw new Error(`recipe ${m[1]}: no script block or no command block after its marker`);
    const runs: RecipeRun[] = [];
    let file = '';
    for (const line of sh[1].trim().split('\n')) {
      const c = /^slowstart simulate (.*) (\S+\.txt) +# ([^:]+): (.*)$/.exec(line);
      if (!c) throw new Error(`recipe ${m[1]}: not a command with its run: ${line}`);
      file = c[2];
      const share = /^(\S+) ([\d.]+) % from ([\d.]+) to ([\d.]+) s$/.exec(c[4]);
      runs.push({
        args: c[1].split(' '),
        title: c[3],
        line: share ? null : c[4],
        share: share ? { name: share[1], percent: Number(share[2]), from: Number(share[3]), to: Number(share[4]) } : null,
      });
    }
    recipes.push({ preset: m[1], params, choices, script: script[1], file, runs });
  }
  return recipes;
}
