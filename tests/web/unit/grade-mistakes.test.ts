// `slowstart grade` on a learner program per mistake of the engine's
// catalogue, in Python and in JavaScript (tests/grade/learners, `--mistake
// ID`: each a real behaviour, written from the SPEC, not the engine's
// variant): the grader names that mistake and no other. Every program goes
// through both CLIs, every mistake through every report format, read back
// from the format itself (JSON and Gradescope parsed, JUnit through a real
// XML parser).
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { type Cli, cli, EPOCH, type Gradescope, JAVASCRIPT, JOBS, type JsonReport, parseXml, PATIENT, PYTHON, SLOW } from '../support/grade-cli.js';

describe('slowstart grade: every mistake of the catalogue', { timeout: SLOW }, () => {
  const FORMATS = ['json', 'text', 'gradescope', 'junit'] as const;

  /** Each test's "looks like" line in a text block, if any, names `id` alone. */
  function perTestNamesOnly(text: string, id: string, where: string) {
    for (const line of text.split('\n').filter((l) => /^\s*looks like/.test(l))) expect(line.trim(), where).toBe(`looks like: ${id}`);
  }

  /** The mistakes a report names for the run, read back from its format. */
  function named(format: (typeof FORMATS)[number], bytes: Buffer, id: string): string[] {
    const text = bytes.toString();
    switch (format) {
      case 'json': {
        const report = JSON.parse(text) as JsonReport;
        for (const r of report.results) expect([[], [id]], r.id).toContainEqual(r.looks_like);
        return report.looks_like.map((e) => e.id);
      }
      case 'text':
        perTestNamesOnly(text.slice(0, text.search(/^Looks like: /m)), id, 'text');
        // "Looks like: <title> [id]", the title wrapped at 76 columns.
        return text.split(/^Looks like: /m).slice(1).map((block) => /\[([a-z0-9-]+)\]/.exec(block)![1]);
      case 'gradescope': {
        const report = JSON.parse(text) as Gradescope;
        for (const t of report.tests) {
          expect([[], [id]], t.name).toContainEqual(t.tags);
          perTestNamesOnly(t.output, id, t.name);
        }
        return report.output.split(/^Looks like: /m).slice(1).map((block) => /\[([a-z0-9-]+)\]/.exec(block)![1]);
      }
      case 'junit': {
        const suite = parseXml(bytes).children[0];
        for (const c of suite.children.filter((x) => x.tag === 'testcase')) for (const v of c.children) perTestNamesOnly(v.text, id, c.attrib.name);
        return suite.children[0].children.filter((p) => p.attrib.name === 'looks-like').map((p) => p.attrib.value);
      }
    }
  }

  lab.mistakes().forEach((mistake, i) => {
    it(`names "${mistake.id}" for the Python and the JavaScript program that make it, through both CLIs in every format`, async () => {
      // Each program through both CLIs, each CLI in its own format, so that
      // every mistake meets every format (Python two, JavaScript the other
      // two) and every program both CLIs; the CLIs' byte parity is checked
      // on the correct and the failing programs (grade-cli.test.ts).
      const seen = new Set<string>();
      for (const [k, program] of [PYTHON, JAVASCRIPT].entries()) {
        for (const [c, which] of (['native', 'node'] as Cli[]).entries()) {
          const format = FORMATS[(i + 2 * k + c) % FORMATS.length];
          seen.add(format);
          const run = await cli(which, ['grade', ...PATIENT, '--format', format, '-j', JOBS, '--', ...program, '--mistake', mistake.id], EPOCH);
          expect(run.code, `${program[0]} ${which} ${format}: ${run.stderr}`).toBe(1);
          expect(named(format, run.stdout, mistake.id), `${program[0]} ${which} ${format}`).toEqual([mistake.id]);
        }
      }
      expect([...seen].sort()).toEqual([...FORMATS].sort());
    });
  });

});
