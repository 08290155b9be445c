// The top of the test results: a progress bar with one segment per test
// (filled in as results arrive), the counts, why the code could not run at
// all (a compile error, a Content-Security-Policy that forbids eval), and,
// across the whole run, the problems in the code (exceptions, weights that
// are not whole numbers, endless loops) first, then the classic mistakes the
// other failing tests point to.
import { h, setText } from '../shared/dom.js';
import { plural } from '../shared/format.js';
import type { CompileError } from './client.js';
import type { RunDiagnosis } from './diagnosis.js';
import type { TestResult } from './grade.js';
import type { TestState } from './test-list.js';
import type { LoadFailure } from './sandbox/sandbox.js';

/** The banner's title for code that did not load, by what happened (an out-of-memory is not a compile error). */
const LOAD_TITLES: Record<LoadFailure, string> = {
  syntax: 'Your code does not compile',
  threw: 'Your code threw an error while loading',
  memory: 'Your code ran out of memory while loading',
  time: 'Your code did not finish loading',
  missing: 'A function is missing',
};

export interface SummaryActions {
  goToCodeLine(line: number): void;
}

export class RunSummary {
  readonly element: HTMLDivElement;
  readonly #doc: Document;
  readonly #actions: SummaryActions;
  readonly #bar: HTMLDivElement;
  readonly #counts: HTMLParagraphElement;
  readonly #banner: HTMLDivElement;
  readonly #diagnosis: HTMLDivElement;
  #segments: HTMLSpanElement[] = [];

  constructor(parent: HTMLElement, actions: SummaryActions) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#actions = actions;
    this.#bar = h(doc, 'div', { class: 'ss-impl-bar', attrs: { 'aria-hidden': 'true' } });
    this.#counts = h(doc, 'p', { class: 'ss-impl-counts', attrs: { role: 'status' } });
    this.#banner = h(doc, 'div', { class: 'ss-impl-banner', attrs: { role: 'alert' } });
    this.#banner.hidden = true;
    this.#diagnosis = h(doc, 'div', { class: 'ss-impl-diagnosis' });
    this.#diagnosis.hidden = true;
    this.element = h(doc, 'div', { class: 'ss-impl-summary-box' }, this.#bar, this.#counts, this.#banner, this.#diagnosis);
    parent.append(this.element);
  }

  /** `count` tests, all in `state`. */
  reset(count: number, state: TestState): void {
    this.#segments = Array.from({ length: count }, () => h(this.#doc, 'span', { class: 'ss-impl-seg' }));
    for (const s of this.#segments) s.dataset.state = state;
    this.#bar.replaceChildren(...this.#segments);
    this.#banner.hidden = true;
    this.#diagnosis.hidden = true;
  }

  setState(index: number, state: TestState): void {
    const s = this.#segments[index];
    if (s) s.dataset.state = state;
  }

  setCounts(text: string): void {
    setText(this.#counts, text);
  }

  /** Why nothing ran. `line`: where in the learner's code, when known. */
  showCompileError(error: CompileError, line: number | undefined): void {
    const doc = this.#doc;
    const title = error.kind === 'worker' ? 'The tests could not run' : (error.reason ? LOAD_TITLES[error.reason] : 'Your code could not be loaded');
    const parts: Node[] = [
      h(doc, 'p', { class: 'ss-impl-banner-title', text: title }),
      h(doc, 'p', { class: 'ss-impl-banner-text', text: capitalize(error.message) }),
    ];
    if (line !== undefined) {
      const go = h(doc, 'button', { class: 'ss-btn ss-impl-go', text: `Go to line ${line}`, attrs: { type: 'button' } });
      go.addEventListener('click', () => this.#actions.goToCodeLine(line));
      parts.push(go);
    }
    this.#banner.dataset.kind = error.kind;
    this.#banner.replaceChildren(...parts);
    this.#banner.hidden = false;
    this.#diagnosis.hidden = true;
  }

  /**
   * What the run points to: the problems in the code (they come first: a
   * test whose code threw names no classic mistake), then the mistakes
   * (diagnosis.ts), most tests first.
   */
  showDiagnosis(run: RunDiagnosis['run'], results: readonly TestResult[]): void {
    const doc = this.#doc;
    const problems = distinctProblems(results);
    this.#diagnosis.hidden = run.length === 0 && problems.length === 0;
    const parts: Node[] = [];
    if (problems.length) {
      const list = h(doc, 'ul', { class: 'ss-impl-problems ss-impl-fix-first' });
      for (const p of problems) {
        const item = h(doc, 'li', { class: 'ss-impl-problem' });
        const where = h(doc, 'span', { class: 'ss-impl-where', text: seenIn(p.tests) });
        if (p.codeLine !== undefined) {
          const line = p.codeLine;
          const link = h(doc, 'button', { class: 'ss-impl-code-link', text: `your line ${line}`, attrs: { type: 'button' } });
          link.addEventListener('click', () => this.#actions.goToCodeLine(line));
          where.append(doc.createTextNode(' · '), link);
        }
        item.append(h(doc, 'code', { class: 'ss-impl-problem-text', text: p.message }), where);
        list.append(item);
      }
      parts.push(h(doc, 'p', { class: 'ss-impl-mistake-lead', text: 'Fix these first:' }), list);
    }
    if (run.length) {
      const list = h(doc, 'ul', { class: 'ss-impl-diagnosis-list' });
      for (const { mistake, tests } of run) {
        list.append(
          h(
            doc,
            'li',
            { attrs: { 'data-mistake': mistake.id } },
            h(doc, 'p', { class: 'ss-impl-mistake-title', text: mistake.title }),
            h(doc, 'p', { class: 'ss-impl-mistake-why', text: mistake.why }),
            h(doc, 'p', { class: 'ss-impl-diagnosis-tests', text: seenIn(tests) }),
          ),
        );
      }
      // Problems that are a mistake's own output (a negative weight) do not
      // keep their tests from being diagnosed.
      const blocking = results.some((r) => r.problems.some((p) => !p.symptom));
      parts.push(h(doc, 'p', { class: 'ss-impl-mistake-lead', text: blocking ? 'In the other tests, looks like:' : 'Looks like:' }), list);
    }
    this.#diagnosis.replaceChildren(...parts);
  }
}

/** "Seen in 5 tests: A · B · C and 2 more": a long list of titles says no more than its start. */
function seenIn(tests: readonly string[]): string {
  const shown = tests.length > 4 ? `${tests.slice(0, 3).join(' · ')} and ${tests.length - 3} more` : tests.join(' · ');
  return `Seen in ${plural(tests.length, 'test')}: ${shown}`;
}

/** Problems shown at most in the run's summary (each test's report lists all of its own). */
const MAX_RUN_PROBLEMS = 5;

/**
 * The run's problems, one per kind: the same exception on every PICK of
 * every test is one problem (arguments differ from call to call; the kind
 * of failure does not).
 */
function distinctProblems(results: readonly TestResult[]) {
  const groups = new Map<string, { message: string; codeLine?: number; tests: string[] }>();
  for (const r of results) {
    for (const p of r.problems) {
      const key = `${p.codeLine ?? ''}|${p.message.replace(/\([^)]*\)/g, '()').replace(/\d+/g, '#')}`;
      const group = groups.get(key) ?? { message: p.message, codeLine: p.codeLine, tests: [] };
      if (!group.tests.includes(r.title)) group.tests.push(r.title);
      groups.set(key, group);
    }
  }
  return [...groups.values()].slice(0, MAX_RUN_PROBLEMS);
}

function capitalize(s: string): string {
  return s ? s[0].toUpperCase() + s.slice(1) : s;
}
