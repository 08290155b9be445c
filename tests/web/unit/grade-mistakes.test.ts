// `slowstart grade` on a learner program per mistake of the engine's
// catalogue, in Python and in JavaScript (tests/grade/learners, `--mistake
// ID`: each a real behaviour, written from the SPEC, not the engine's
// variant): the grader names that mistake and no other, in every report
// format, read back from the format itself (JSON and Gradescope parsed,
// JUnit through a real XML parser).
//
// Each thing once, at its layer: the learner program runs the whole suite
// in one process (`--batch`: the same code as one run per script), and its
// outcomes go into the very GradeRun both CLIs use (the lab module's
// GradeSession), once per format. Running real processes, and the two
// CLIs' byte parity, are grade-cli.test.ts's (a correct and a failing
// program through both CLIs); before, this file spawned a process per test,
// per mistake, per format and per CLI: 5,928 runs and about 294 s.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { lab } from '../support/lab.js';
import { type Format, FORMATS, type Gradescope, gradeInProcess as report, JAVASCRIPT, type JsonReport, outcomes, parseXml, PYTHON, SUITE } from '../support/grade-cli.js';

/** Each test's "looks like" line in a text block, if any, names `id` alone. */
function perTestNamesOnly(text: string, id: string, where: string) {
  for (const line of text.split('\n').filter((l) => /^\s*looks like/.test(l))) expect(line.trim(), where).toBe(`looks like: ${id}`);
}

/** The mistakes a report names for the run, read back from its format. */
function named(format: Format, bytes: Buffer, id: string): string[] {
  const text = bytes.toString();
  switch (format) {
    case 'json': {
      const r = JSON.parse(text) as JsonReport;
      for (const t of r.results) expect([[], [id]], t.id).toContainEqual(t.looks_like);
      return r.looks_like.map((e) => e.id);
    }
    case 'text':
      perTestNamesOnly(text.slice(0, text.search(/^Looks like: /m)), id, 'text');
      // "Looks like: <title> [id]", the title wrapped at 76 columns.
      return text.split(/^Looks like: /m).slice(1).map((block) => /\[([a-z0-9-]+)\]/.exec(block)![1]);
    case 'gradescope': {
      const r = JSON.parse(text) as Gradescope;
      for (const t of r.tests) {
        expect([[], [id]], t.name).toContainEqual(t.tags);
        perTestNamesOnly(t.output, id, t.name);
      }
      return r.output.split(/^Looks like: /m).slice(1).map((block) => /\[([a-z0-9-]+)\]/.exec(block)![1]);
    }
    case 'junit': {
      const suite = parseXml(bytes).children[0];
      for (const c of suite.children.filter((x) => x.tag === 'testcase')) for (const v of c.children) perTestNamesOnly(v.text, id, c.attrib.name);
      return suite.children[0].children.filter((p) => p.attrib.name === 'looks-like').map((p) => p.attrib.value);
    }
  }
}

describe('slowstart grade: every mistake of the catalogue', () => {
  lab.mistakes().forEach((mistake) => {
    it(`names "${mistake.id}" for the Python and the JavaScript program that make it, in every format`, () => {
      // Python in two formats, JavaScript in the other two: every mistake
      // meets every format (the formats' own tests are grade_test.cpp's).
      for (const [k, program] of [PYTHON, JAVASCRIPT].entries()) {
        const runs = outcomes(program, mistake.id);
        for (const format of k ? FORMATS.slice(2) : FORMATS.slice(0, 2)) {
          const { status, bytes } = report(format, runs);
          expect(status, `${program[0]} ${format}`).toBe(1);
          expect(named(format, bytes, mistake.id), `${program[0]} ${format}`).toEqual([mistake.id]);
        }
      }
    });
  });

  it('the batch runs print what one run per script prints (the learners\' --batch is their normal run)', () => {
    // A few scripts, a mistake that changes parsing and one that changes the pick.
    for (const program of [PYTHON, JAVASCRIPT]) {
      for (const mistake of ['keep-cr', 'ties-to-last']) {
        const runs = outcomes(program, mistake);
        for (const i of [0, 10, 27, 29]) {
          const one = spawnSync(program[0], [...program.slice(1), '--mistake', mistake], { input: SUITE[i].script });
          expect(Buffer.from(runs[i].out).toString('latin1'), `${program[0]} ${mistake} ${SUITE[i].id}`).toBe(one.stdout.toString('latin1'));
          expect(Buffer.from(runs[i].err).toString(), `${program[0]} ${mistake} ${SUITE[i].id}`).toBe(one.stderr.toString());
          expect(runs[i].exitCode).toBe(one.status);
        }
      }
    }
  });
});
