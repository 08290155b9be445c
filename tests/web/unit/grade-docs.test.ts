// What the grading docs tell people to run, checked against what runs:
// every option of `slowstart grade` that docs/GRADING.md, docs/SECURITY.md
// and the Gradescope scripts use is in `slowstart grade --help` of both CLIs,
// and every option the help lists is in GRADING.md; and no document or
// script installs the package by its name from the npm registry, where
// nobody owns the name `slowstart` (docs/PACKAGE.md): whoever published it
// first would run code in the reader's CI or autograder (`npx` assumes yes
// there).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { both, ROOT } from '../support/grade-cli.js';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The long options a text uses with `slowstart grade` (in code: lines that run it, and `--x` spans). */
function gradeOptions(text: string): Set<string> {
  const found = new Set<string>();
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    // A command line that runs `slowstart grade` (a shell line, a YAML step, a script).
    if (/slowstart grade\b/.test(line) && !/^\s*(#|\/\/)/.test(line)) for (const m of line.matchAll(/(?<![\w-])--[a-z][a-z-]*/g)) found.add(m[0]);
  }
  return found;
}

/** Not `slowstart grade`'s: npx's, `slowstart tests`', the learner programs' in tests/grade/learners. */
const NOT_GRADE = new Set(['--no-install', '--out', '--force', '--mistake', '--batch', '--misbehave', '--global']);

describe('the grading docs and the help', () => {
  it('`slowstart grade --help` lists every option the docs use, and GRADING.md every option it lists', async () => {
    const help = (await both(['grade', '--help'])).stdout.toString();
    const listed = new Set([...help.matchAll(/^ {2}(?:-\w+, )?(--[a-z-]+)/gm)].map((m) => m[1]));
    expect(listed.size).toBeGreaterThan(10);
    const docs = ['docs/GRADING.md', 'docs/SECURITY.md', 'README.md', 'docs/gradescope/run_autograder', 'docs/gradescope/setup.sh'];
    for (const doc of docs) {
      const used = [...gradeOptions(read(doc))].filter((o) => !NOT_GRADE.has(o));
      expect(used.filter((o) => !listed.has(o)), `${doc}: options it uses that the help does not list`).toEqual([]);
    }
    const grading = read('docs/GRADING.md');
    const inCode = (o: string) => new RegExp(`\`[^\`\n]*${o}\\b[^\`\n]*\``).test(grading);
    expect([...listed].filter((o) => !inCode(o)), 'options of the help that GRADING.md does not explain').toEqual([]);
    // run_autograder's own options are seen (the help once lacked --user and --output, which it relies on).
    const autograder = gradeOptions(read('docs/gradescope/run_autograder'));
    for (const o of ['--output', '--submission', '--engine-copies', '--format', '--timeout']) expect(autograder.has(o), o).toBe(true);
    expect(read('docs/gradescope/run_autograder')).toContain('as_learner=(--user "$learner")'); // --user comes through this array
    expect(listed.has('--user')).toBe(true);
  });
});

describe('no install of the name `slowstart` from the npm registry', () => {
  /** Every document and script a reader may copy commands from. */
  function files(): string[] {
    const out = ['README.md', 'CHANGELOG.md'];
    // (and the package's own sources, whose comments ship in dist/: cli.js once said `npx slowstart FILE`)
    for (const dir of ['docs', 'docs/gradescope', 'scripts', '.ci', 'web/api', 'web/element']) {
      let names: string[] = [];
      try {
        names = readdirSync(join(ROOT, dir));
      } catch {
        continue;
      }
      for (const name of names) if (/\.(md|sh|ya?ml|ts)$|^run_autograder$|^run$/.test(name)) out.push(`${dir}/${name}`);
    }
    return out;
  }

  // npm install/i/add/exec of the bare name (a path or a tarball is fine), npx
  // without --no-install, yarn/pnpm add, bunx, and a shell fallback to the name.
  const REGISTRY_INSTALLS = [
    /\bnpm (?:install|i|add|exec)\b(?:\s+-[-\w=]+)*\s+["']?slowstart(?:@[\w.^~-]+)?["']?(?=[\s"'`)]|$)/,
    /\bnpx\s+(?!--no-install\b)(?:-[-\w=]+\s+)*slowstart\b/,
    /\b(?:yarn|pnpm|bun) (?:add|dlx)\s+(?:-[-\w=]+\s+)*slowstart\b/,
    /\bbunx\s+slowstart\b/,
    /:-["']?slowstart\b/,
  ];

  it('finds the patterns it looks for (its own negative control)', () => {
    const bad = ['npm install slowstart', 'npm i -g slowstart', 'npx slowstart grade', 'npx -y slowstart', 'npm install --global "${package:-slowstart}"', 'pnpm add slowstart', 'npm exec slowstart@0.1.0 -- x'];
    for (const line of bad) expect(REGISTRY_INSTALLS.some((re) => re.test(line)), line).toBe(true);
    const fine = ['npm install ./slowstart-0.1.0.tgz', 'npx --no-install slowstart grade', 'npm install --global "$package"', 'npm install slowstart-0.1.0.tgz', "import 'slowstart/element'"];
    for (const line of fine) expect(REGISTRY_INSTALLS.some((re) => re.test(line)), line).toBe(false);
  });

  it('appears in no document or script', () => {
    const hits: string[] = [];
    for (const file of files()) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          if (REGISTRY_INSTALLS.some((re) => re.test(line))) hits.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(hits).toEqual([]);
  });
});
