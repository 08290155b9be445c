// One test's report, the body of its row in the test list: the named
// mistake ("Looks like: …"), the first differing line, the problems in the
// learner's code, and the script line by line with the reference's output
// and the learner's side by side. Everything a script or the learner's code
// produced goes in as text (textContent), never as markup.
import { h } from '../shared/dom.js';
import type { OutputLine } from '../api/index.js';
import type { NamedMistake } from './diagnosis.js';
import type { TestResult } from './grade.js';
import type { ImplementTest } from './suite.js';

export interface ReportActions {
  /** "Open in the runner". */
  open(): void;
  /** A link to a line of the learner's code. */
  goToCodeLine(line: number): void;
}

/** Rows of the script shown at most; a longer script shows a window around its first difference. */
export const MAX_SCRIPT_ROWS = 300;

/** A short line for the test's summary row. */
export function summaryText(result: TestResult | null, mistakes: readonly NamedMistake[]): string {
  if (!result) return '';
  if (result.pass) return 'passed';
  if (mistakes.length) return `looks like: ${lowerFirst(mistakes[0].title)}`;
  const p = result.problems[0];
  if (p) return p.message;
  const d = result.difference;
  return d ? `line ${d.line}: expected ${shown(d.expected)}, yours ${shown(d.actual)}` : 'failed';
}

/**
 * The report. `mistakes` are the ones to name: the test's own, narrowed by
 * the rest of the run (diagnosis.ts).
 */
export function renderReport(
  doc: Document,
  test: ImplementTest,
  result: TestResult | null,
  mistakes: readonly NamedMistake[],
  actions: ReportActions,
): HTMLElement {
  const body = h(doc, 'div', { class: 'ss-impl-report' });
  if (result && !result.pass) {
    if (mistakes.length) body.append(mistakesBlock(doc, mistakes));
    // A problem (an exception, a bad return value) is usually why the output
    // differs, so it comes before the difference.
    if (result.problems.length) body.append(problemsList(doc, result, actions));
    if (result.difference) body.append(differenceLine(doc, result));
  }
  body.append(scriptTable(doc, test, result));
  const open = h(doc, 'button', {
    class: 'ss-btn ss-impl-open',
    text: 'Open in the runner',
    attrs: { type: 'button', title: 'Load this script into the runner to step through it, with your weights drawn over the reference' },
  });
  open.addEventListener('click', () => actions.open());
  body.append(h(doc, 'div', { class: 'ss-impl-actions' }, open));
  return body;
}

function mistakesBlock(doc: Document, mistakes: readonly NamedMistake[]): HTMLElement {
  const box = h(doc, 'div', { class: 'ss-impl-mistake', attrs: { role: 'note' } });
  const several = mistakes.length > 1;
  box.append(h(doc, 'p', { class: 'ss-impl-mistake-lead', text: several ? 'Looks like one of these:' : 'Looks like:' }));
  for (const m of mistakes) {
    box.append(
      h(
        doc,
        'div',
        { class: 'ss-impl-mistake-item', attrs: { 'data-mistake': m.id } },
        h(doc, 'p', { class: 'ss-impl-mistake-title', text: m.title }),
        h(doc, 'p', { class: 'ss-impl-mistake-why', text: m.why }),
      ),
    );
  }
  return box;
}

function differenceLine(doc: Document, result: TestResult): HTMLElement {
  const d = result.difference!;
  const p = h(doc, 'p', { class: 'ss-impl-diff' });
  p.append(
    doc.createTextNode(`First difference, script line ${d.line}: expected `),
    h(doc, 'code', { class: 'ss-impl-expected', text: d.expected ?? '(no more output)' }),
    doc.createTextNode(', yours '),
    h(doc, 'code', { class: 'ss-impl-actual', text: d.actual ?? '(no more output)' }),
  );
  return p;
}

/**
 * The problems, one item per distinct message and line of code: the same
 * exception on every PICK is one problem seen on several script lines.
 */
function problemsList(doc: Document, result: TestResult, actions: ReportActions): HTMLElement {
  const list = h(doc, 'ul', { class: 'ss-impl-problems', attrs: { 'aria-label': 'Problems in your code' } });
  const groups = new Map<string, { message: string; codeLine?: number; lines: number[] }>();
  for (const p of result.problems) {
    // Arguments differ from call to call; the kind of failure does not.
    const key = `${p.codeLine ?? ''}|${p.message.replace(/\([^)]*\)/g, '()')}`;
    const group = groups.get(key) ?? { message: p.message, codeLine: p.codeLine, lines: [] };
    if (p.line > 0 && !group.lines.includes(p.line)) group.lines.push(p.line);
    groups.set(key, group);
  }
  for (const p of groups.values()) {
    const item = h(doc, 'li', { class: 'ss-impl-problem' });
    const where = h(doc, 'span', { class: 'ss-impl-where' });
    // A message that names its script line already ("stopped … at script line 2") is not told it twice.
    const named = p.lines.length === 1 && p.message.includes(`script line ${p.lines[0]}`);
    if (p.lines.length && !named) where.append(doc.createTextNode(`script line${p.lines.length > 1 ? 's' : ''} ${p.lines.join(', ')}`));
    if (p.codeLine !== undefined) {
      if (where.childNodes.length) where.append(doc.createTextNode(' · '));
      const link = h(doc, 'button', {
        class: 'ss-impl-code-link',
        text: `your line ${p.codeLine}`,
        attrs: { type: 'button', title: `Go to line ${p.codeLine} of your code` },
      });
      link.addEventListener('click', () => actions.goToCodeLine(p.codeLine!));
      where.append(link);
    }
    if (where.childNodes.length) item.append(where);
    item.append(h(doc, 'code', { class: 'ss-impl-problem-text', text: p.message }));
    list.append(item);
  }
  if (result.problems.length >= 20) {
    list.append(h(doc, 'li', { class: 'ss-impl-more', text: 'Only the first 20 problems were recorded.' }));
  }
  return list;
}

/** The output printed by each script line (a command prints at most one line). */
function byLine(output: readonly OutputLine[]): Map<number, string> {
  const map = new Map<number, string>();
  for (const o of output) map.set(o.line, o.text);
  return map;
}

function scriptTable(doc: Document, test: ImplementTest, result: TestResult | null): HTMLElement {
  const lines = test.script.replace(/\r?\n$/, '').split(/\r?\n/);
  // Outputs exist once the test ran to the end (not when it was stopped).
  const ran = !!result && (result.expected.length > 0 || result.actual.length > 0);
  const expected = byLine(result?.expected ?? []);
  const actual = byLine(result?.actual ?? []);
  const problemLines = new Set((result?.problems ?? []).map((p) => p.line));
  const first = result?.difference?.line ?? [...problemLines][0] ?? 1;
  const start = lines.length <= MAX_SCRIPT_ROWS ? 1 : Math.max(1, Math.min(first - 20, lines.length - MAX_SCRIPT_ROWS + 1));
  const end = Math.min(lines.length, start + MAX_SCRIPT_ROWS - 1);

  const table = h(doc, 'table', { class: 'ss-impl-compare' });
  const caption = ran
    ? 'The script, with what the reference printed and what yours printed'
    : result
      ? 'The script (it did not finish)'
      : 'The script (not run yet)';
  table.append(h(doc, 'caption', { text: caption }));
  const head = h(doc, 'tr', {}, th(doc, 'Line'), th(doc, 'Script'));
  if (ran) head.append(th(doc, 'Expected'), th(doc, 'Yours'));
  table.append(h(doc, 'thead', {}, head));
  const tbody = h(doc, 'tbody');
  for (let n = start; n <= end; n++) {
    const text = lines[n - 1];
    const row = h(doc, 'tr', {});
    row.append(h(doc, 'th', { text: String(n), attrs: { scope: 'row' } }));
    row.append(h(doc, 'td', { class: /^\s*#/.test(text) ? 'ss-impl-src ss-impl-comment' : 'ss-impl-src', text }));
    if (ran) {
      const e = expected.get(n) ?? '';
      const a = actual.get(n) ?? '';
      const differs = e !== a;
      row.append(
        h(doc, 'td', { class: differs ? 'ss-impl-out ss-impl-expected' : 'ss-impl-out', text: e }),
        h(doc, 'td', { class: differs ? 'ss-impl-out ss-impl-actual' : 'ss-impl-out', text: a }),
      );
      if (differs) row.classList.add('ss-impl-row-diff');
    }
    if (result?.difference?.line === n) row.classList.add('ss-impl-row-first');
    if (problemLines.has(n)) row.classList.add('ss-impl-row-problem');
    tbody.append(row);
  }
  table.append(tbody);
  const box = h(doc, 'div', { class: 'ss-impl-script' }, table);
  if (start > 1 || end < lines.length) {
    box.append(
      h(doc, 'p', {
        class: 'ss-impl-more',
        text: `Lines ${start}–${end} of ${lines.length}. Open it in the runner for the whole script.`,
      }),
    );
  }
  return box;
}

function th(doc: Document, text: string): HTMLTableCellElement {
  return h(doc, 'th', { text, attrs: { scope: 'col' } });
}

function shown(text: string | null): string {
  return text === null ? 'nothing' : `“${text}”`;
}

function lowerFirst(s: string): string {
  return s.length > 1 && /^[A-Z][a-z]/.test(s) ? s[0].toLowerCase() + s.slice(1) : s;
}
