// The docs' course-page snippets load files that exist (#34 item 4: a
// GRADING.md snippet loaded /slowstart/slow-start-runner.js, a 404). The
// docs tell authors to copy the package's dist/ to their site as slowstart/
// (EMBEDDING.md, "The files"), so every `src` or `href` under slowstart/ in
// README.md and docs/*.md must name a file of the built dist/.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const DOCS = ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

it('every slowstart/ file a doc’s snippet loads is in the built dist/', () => {
  const seen: string[] = [];
  const missing: string[] = [];
  for (const doc of DOCS) {
    const text = readFileSync(join(ROOT, doc), 'utf8');
    for (const m of text.matchAll(/\b(?:src|href)="\/?slowstart\/([^"#?]+)"/g)) {
      seen.push(`${doc}: ${m[1]}`);
      if (!existsSync(join(ROOT, 'dist', m[1]))) missing.push(`${doc}: slowstart/${m[1]} (no dist/${m[1]})`);
    }
  }
  // The snippets this guards: EMBEDDING's copy-and-paste one, README's and GRADING's course pages.
  expect(seen.filter((s) => s.endsWith('element/slow-start-runner.js')).map((s) => s.split(':')[0]).sort()).toEqual(
    expect.arrayContaining(['README.md', 'docs/EMBEDDING.md', 'docs/GRADING.md']),
  );
  expect(missing).toEqual([]);
});
