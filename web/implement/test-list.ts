// The list of tests, one disclosure per test: a summary row (state, title,
// a one-line result) and, when opened, the test's report (test-report.ts).
// Results arrive one by one while a run goes on, so each row updates on its
// own; a report is built only when its row is open.
import { h, setText } from '../shared/dom.js';
import type { NamedMistake } from './diagnosis.js';
import type { TestResult } from './grade.js';
import type { ImplementTest } from './suite.js';
import { renderReport, summaryText } from './test-report.js';

export type TestState = 'idle' | 'waiting' | 'running' | 'pass' | 'fail';

export interface TestListActions {
  open(test: ImplementTest, result: TestResult | null): void;
  goToCodeLine(line: number): void;
}

interface Row {
  test: ImplementTest;
  item: HTMLLIElement;
  details: HTMLDetailsElement;
  icon: HTMLSpanElement;
  note: HTMLSpanElement;
  state: TestState;
  result: TestResult | null;
  mistakes: readonly NamedMistake[];
  rendered: boolean; // the report is up to date
}

const ICONS: Record<TestState, { text: string; label: string }> = {
  idle: { text: '○', label: 'not run' },
  waiting: { text: '○', label: 'waiting' },
  running: { text: '◔', label: 'running' },
  pass: { text: '✓', label: 'passed' },
  fail: { text: '✗', label: 'failed' },
};

export class TestList {
  readonly element: HTMLOListElement;
  readonly #doc: Document;
  readonly #actions: TestListActions;
  #rows: Row[] = [];

  constructor(parent: HTMLElement, tests: readonly ImplementTest[], actions: TestListActions) {
    this.#doc = parent.ownerDocument;
    this.#actions = actions;
    this.element = h(this.#doc, 'ol', { class: 'ss-impl-tests', attrs: { 'aria-label': 'Tests' } });
    parent.append(this.element);
    this.#rows = tests.map((test) => this.#row(test));
    this.element.replaceChildren(...this.#rows.map((r) => r.item));
  }

  get length(): number {
    return this.#rows.length;
  }

  /**
   * Every test back to `state` (a run starting: waiting), results cleared.
   * Open rows stay open: the learner is reading them, and they fill in again.
   */
  resetAll(state: TestState): void {
    for (const row of this.#rows) {
      row.result = null;
      row.mistakes = [];
      this.#setState(row, state);
    }
  }

  setRunning(index: number): void {
    const row = this.#rows[index];
    if (row) this.#setState(row, 'running');
  }

  setResult(index: number, result: TestResult, mistakes: readonly NamedMistake[]): void {
    const row = this.#rows[index];
    if (!row) return;
    row.result = result;
    row.mistakes = mistakes;
    this.#setState(row, result.pass ? 'pass' : 'fail');
  }

  /** A test not run (an earlier one ran out of time): "not run", and why in its note. */
  setSkipped(index: number, result: TestResult): void {
    const row = this.#rows[index];
    if (!row) return;
    row.result = null;
    row.mistakes = [];
    this.#setState(row, 'idle');
    setText(row.note, result.problems[0]?.message ?? 'not run');
  }

  /** The mistakes to name per test, as the run's evidence grows (only changed rows update). */
  setMistakes(perTest: readonly (readonly NamedMistake[])[]): void {
    this.#rows.forEach((row, i) => {
      const next = perTest[i] ?? [];
      const same = next.length === row.mistakes.length && next.every((m, k) => m.id === row.mistakes[k].id);
      if (same || !row.result) return;
      row.mistakes = next;
      this.#setState(row, row.state);
    });
  }

  /** Tests still waiting or running go back to "not run" (the run was stopped). */
  settle(): void {
    for (const row of this.#rows) if (row.state === 'waiting' || row.state === 'running') this.#setState(row, 'idle');
  }

  /** Opens a test's report (and scrolls its row into view when asked). */
  openRow(index: number, scroll = false): void {
    const row = this.#rows[index];
    if (!row) return;
    row.details.open = true;
    if (scroll) row.item.scrollIntoView({ block: 'nearest' });
  }

  #setState(row: Row, state: TestState): void {
    row.state = state;
    row.rendered = false;
    row.item.dataset.state = state;
    setText(row.icon, ICONS[state].text);
    row.icon.setAttribute('aria-label', ICONS[state].label);
    row.icon.title = ICONS[state].label;
    setText(row.note, state === 'pass' || state === 'fail' ? summaryText(row.result, row.mistakes) : state === 'running' ? 'running…' : '');
    if (row.details.open) this.#render(row);
  }

  #row(test: ImplementTest): Row {
    const doc = this.#doc;
    const icon = h(doc, 'span', { class: 'ss-impl-icon', attrs: { role: 'img' } });
    const note = h(doc, 'span', { class: 'ss-impl-note' });
    const summary = h(
      doc,
      'summary',
      { class: 'ss-impl-summary' },
      icon,
      h(doc, 'span', { class: 'ss-impl-text' }, h(doc, 'span', { class: 'ss-impl-title', text: test.title }), note),
    );
    const details = h(doc, 'details', { class: 'ss-impl-details' }, summary);
    const item = h(doc, 'li', { class: 'ss-impl-test', attrs: { 'data-test-id': test.id } }, details);
    const row: Row = { test, item, details, icon, note, state: 'idle', result: null, mistakes: [], rendered: false };
    details.addEventListener('toggle', () => {
      if (details.open && !row.rendered) this.#render(row);
    });
    this.#setState(row, 'idle');
    return row;
  }

  #render(row: Row): void {
    row.rendered = true;
    const report = renderReport(this.#doc, row.test, row.result, row.mistakes, {
      open: () => this.#actions.open(row.test, row.result),
      goToCodeLine: (line) => this.#actions.goToCodeLine(line),
    });
    const old = row.details.querySelector('.ss-impl-report');
    if (old) old.replaceWith(report);
    else row.details.append(report);
  }
}
