// The PICK under the playhead, worked the way nginx's scheduler does it
// (ngx_http_upstream_get_peer in ngx_http_upstream_round_robin.c): every
// backend that takes part adds its weight to its score, the highest score
// wins (a tie goes to the one earliest in the pool), and the winner gives
// back the total of the weights. One row per backend in pool order: score
// before, + weight, = the sum compared, − the total (the winner only), score
// after. Backends that take no part (DOWN, or weight 0) say so and keep
// their score. The scores before and after and the winner are the engine's
// (the timeline's); only the sum in between is added up here, to show it.
import type { BackendSnapshot, Timeline } from '../api/index.js';
import { formatClock } from './chart-model.js';
import { h, setText, uniqueId } from '../shared/dom.js';
import { seriesClasses } from '../shared/palette.js';
import { NOT_A_PICK } from '../api/winners.js';
import { isNarrowed, keptPickFacts, type PickFacts } from './pool-facts.js';
import { copyText, tableText } from '../shared/exports.js';
import { count } from '../shared/format.js';
import { morphChildren } from '../shared/morph.js';

export interface PickExplainOptions {
  /** Heading level of the view's title. */
  headingLevel: 3 | 4 | 5 | 6;
  /** Move the playhead to this step (the previous / next PICK buttons). */
  onSeek(step: number): void;
  /** Start folded (the title shows; the rest opens on demand). Default false. */
  folded?: boolean;
}

/** A score or a change as people write it: a real minus sign, no "+0", thousands separated. */
export function formatScore(v: number): string {
  return count(v);
}

export class PickExplain {
  readonly element: HTMLElement;
  readonly #doc: Document;
  readonly #title: HTMLElement;
  readonly #summary: HTMLParagraphElement;
  readonly #box: HTMLDivElement;
  readonly #prev: HTMLButtonElement;
  readonly #next: HTMLButtonElement;
  readonly #copy: HTMLButtonElement;
  readonly #idea: HTMLParagraphElement;
  readonly #details: HTMLDetailsElement;
  readonly #onSeek: (step: number) => void;
  #timeline: Timeline | null = null;
  #step = -1;
  // Off screen (below the chart, as on a laptop's page) a run playing does
  // not draw its working: the step is kept and drawn when the view comes into sight.
  #inView = true; // until the observer has said
  #waiting = -1;
  #prevStep = -1;
  #nextStep = -1;

  constructor(parent: HTMLElement, options: PickExplainOptions) {
    const doc = (this.#doc = parent.ownerDocument);
    this.#onSeek = options.onSeek;
    const titleId = uniqueId('ss-pe');
    this.#title = h(doc, `h${options.headingLevel}` as 'h3', { class: 'ss-pe-title', attrs: { id: titleId } });
    // Read out when the learner moves the playhead, not while it plays.
    this.#summary = h(doc, 'p', { class: 'ss-pe-summary', attrs: { 'aria-live': 'off' } });
    this.#box = h(doc, 'div', { class: 'ss-pe-box' });
    this.#prev = h(doc, 'button', { class: 'ss-btn ss-pe-nav', text: '◂ Previous PICK', attrs: { type: 'button' } });
    this.#next = h(doc, 'button', { class: 'ss-btn ss-pe-nav', text: 'Next PICK ▸', attrs: { type: 'button' } });
    this.#copy = h(doc, 'button', { class: 'ss-btn ss-pe-nav', text: 'Copy as text', attrs: { type: 'button', 'aria-label': 'Copy this pick as text' } });
    this.#copy.addEventListener('click', async () => {
      const table = this.#box.querySelector('table');
      if (!table) return;
      const text = `${this.#title.textContent}\n${this.#summary.textContent}\n\n${tableText(table)}`;
      setText(this.#copy, (await copyText(doc, text)) ? 'Copied' : 'Copy not allowed');
      doc.defaultView!.setTimeout(() => setText(this.#copy, 'Copy as text'), 1500);
    });
    this.#prev.addEventListener('click', () => this.#prevStep >= 0 && this.#onSeek(this.#prevStep));
    this.#next.addEventListener('click', () => this.#nextStep >= 0 && this.#onSeek(this.#nextStep));
    // A disclosure: its summary is the title (which already says who won),
    // the buttons and the working are inside.
    const head = h(doc, 'summary', { class: 'ss-pe-head' }, this.#title);
    const navs = h(doc, 'div', { class: 'ss-pe-navs' }, this.#prev, this.#next, this.#copy);
    // The idea behind the arithmetic, for a first-timer (shown with a PICK's working).
    this.#idea = h(doc, 'p', {
      class: 'ss-pe-idea',
      text:
        'The idea: the winner gives back exactly what everyone added, so the scores always sum to zero; ' +
        'a backend that keeps winning sinks until the others catch up, and over a run each backend wins in proportion to its weight.',
    });
    const details = (this.#details = h(doc, 'details', { class: 'ss-pe-details' }, head, navs, this.#summary, this.#idea, this.#box));
    details.open = !options.folded;
    this.element = h(doc, 'section', { class: 'ss-pick-explain', attrs: { 'aria-labelledby': titleId } }, details);
    parent.append(this.element);
    this.setTimeline(null);
    new IntersectionObserver((entries) => {
      this.#inView = entries[entries.length - 1].isIntersecting;
      if (this.#inView) this.catchUp();
    }).observe(this.element);
  }

  /**
   * Opens the working (a folded view unfolds) and, with `scroll`, brings it
   * into view: predict mode's answer to a wrong guess, which may sit far
   * below the question in a compact element.
   */
  open(options: { scroll?: boolean; smooth?: boolean } = {}): void {
    this.element.hidden = false;
    this.#details.open = true;
    if (options.scroll) this.element.scrollIntoView({ block: 'nearest', behavior: options.smooth ? 'smooth' : 'auto' });
  }

  /** The sentence shown for the step under the playhead. */
  get summaryText(): string {
    return this.#summary.textContent ?? '';
  }

  setTimeline(t: Timeline | null): void {
    this.#timeline = t && t.length > 0 ? t : null;
    this.#step = -1;
    this.#waiting = -1;
    // A script with no PICK at all (and not cut before one) has nothing to work through: no panel.
    let picks = false;
    if (t) for (let i = 0; i < t.length && !picks; i++) picks = t.stepWinner[i] !== NOT_A_PICK;
    this.element.hidden = t !== null && t.length > 0 && !picks && !t.truncated;
    if (!this.#timeline) {
      setText(this.#title, 'The pick, step by step');
      setText(this.#summary, 'Run a script with a PICK line to see how the balancer chooses.');
      this.#box.replaceChildren();
      this.#prev.hidden = this.#next.hidden = this.#copy.hidden = this.#idea.hidden = true;
    }
  }

  /**
   * Shows the step under the playhead; `announce` reads the summary out (the
   * learner moved it). `whenSeen` (a run playing): only once the view is on
   * screen, or catchUp is called.
   */
  setStep(step: number, announce: boolean, whenSeen = false): void {
    const t = this.#timeline;
    if (!t || step < 0 || step >= t.length) return;
    this.#summary.setAttribute('aria-live', announce ? 'polite' : 'off');
    if (whenSeen && !this.#inView) {
      this.#waiting = step;
      return;
    }
    this.#waiting = -1;
    if (step === this.#step) return;
    this.#step = step;
    this.#prevStep = findPick(t, step, -1);
    this.#nextStep = findPick(t, step, +1);
    this.#prev.hidden = this.#next.hidden = this.#prevStep < 0 && this.#nextStep < 0 && t.stepWinner[step] === NOT_A_PICK;
    this.#prev.disabled = this.#prevStep < 0;
    this.#next.disabled = this.#nextStep < 0;
    if (t.stepWinner[step] === NOT_A_PICK) this.#showOther(t, step);
    else this.#showPick(t, step);
    this.#copy.hidden = this.#idea.hidden = !this.#box.querySelector('table');
  }

  /** Draws the step setStep kept for when the view would be seen, if any (the run stopped, or the view came into sight). */
  catchUp(): void {
    if (this.#waiting >= 0) this.setStep(this.#waiting, false);
  }

  // A step that is not a PICK: where the picks are, and the scores now.
  #showOther(t: Timeline, step: number): void {
    const line = t.stepLine[step];
    setText(this.#title, `Line ${line} is not a PICK`);
    const any = this.#prevStep >= 0 || this.#nextStep >= 0;
    const pool = t.pool(step);
    let scores = '';
    if (pool.length && pool[0].score !== undefined) {
      // The highest scores first when the pool is long (a person reads a dozen).
      const shown = pool.length > MAX_ROWS ? [...pool].sort((a, b) => b.score! - a.score!).slice(0, MAX_ROWS) : pool;
      scores = shown.map((b) => `${b.name} ${formatScore(b.score!)}`).join(', ');
      const size = isNarrowed(t) ? 0 : pool.length;
      if (pool.length > MAX_ROWS) scores = `the highest: ${scores}` + (size ? ` (${count(size - shown.length)} more not shown)` : ' (the rest are not shown)');
    }
    const none = t.truncated
      ? `The chart keeps the first ${count(t.length)} lines this script ran, and no PICK is among them. `
      : 'This script has no PICK: add one to see how the balancer chooses. ';
    setText(this.#summary, (any ? 'Step to a PICK to see how it chose. ' : none) + (scores ? `Scores after this line: ${scores}.` : ''));
    this.#box.replaceChildren();
  }

  #showPick(t: Timeline, step: number): void {
    const doc = this.#doc;
    const line = t.stepLine[step];
    const after = t.pool(step);
    // The pool before the pick is the same list (a PICK changes no weight);
    // its scores are those after the step before.
    const before = step > 0 ? t.pool(step - 1) : after;
    const w = t.stepWinner[step];
    const winner = w >= 0 ? t.names[w] : null;
    setText(this.#title, `How the PICK on line ${line} chose ${winner ?? 'NONE'}`);
    const facts = keptPickFacts(t, step);
    if ((facts ? facts.poolSize : after.length) === 0 || after.length === 0 || after[0].score === undefined || before.length !== after.length) {
      setText(
        this.#summary,
        (facts ? facts.poolSize : after.length) === 0
          ? 'The pool is empty: the answer is NONE.'
          : `This run changed more scores than the timeline keeps; its scores stop before step ${count(t.scoredSteps + 1)}.`,
      );
      this.#box.replaceChildren();
      return;
    }
    const takesPart = (b: BackendSnapshot) => b.up && b.weight > 0;
    const sums = after.map((b, k) => (takesPart(b) ? before[k].score! + b.weight : -Infinity));
    const counts = facts ?? countPick(after, sums, takesPart);
    const total = counts.total;
    // Which rows: all of a small pool; of a big one the highest sums (the winner among them), highest first.
    let rows = after.map((_, k) => k);
    const big = counts.poolSize > MAX_ROWS;
    if (big) {
      rows = rows.filter((k) => sums[k] > -Infinity).sort((a, b) => sums[b] - sums[a] || a - b).slice(0, MAX_ROWS);
      const won = after.findIndex((b) => b.name === winner);
      if (won >= 0 && !rows.includes(won)) rows[rows.length - 1] = won;
    }
    const tiedShown = rows.filter((k) => sums[k] === counts.best).map((k) => after[k].name);
    setText(this.#summary, explain(winner, counts, tiedShown));

    const table = h(doc, 'table', { class: 'ss-pe-table' });
    table.append(
      h(doc, 'caption', {
        text: big
          ? `Line ${line}, clock ${formatClock(t.stepNow[step])} s: the ${rows.length} highest sums of ${count(counts.poolSize)} backends, with each score before the pick and after it.`
          : `Line ${line}, clock ${formatClock(t.stepNow[step])} s: each backend's score before the pick and after it, in pool order.`,
      }),
    );
    const head = h(doc, 'tr');
    for (const label of ['Backend', 'Before', '+ Weight', '= Sum', '− Total', 'After']) {
      head.append(h(doc, 'th', { text: label, attrs: { scope: 'col' } }));
    }
    const body = h(doc, 'tbody');
    for (const k of rows) {
      const b = after[k];
      const s0 = before[k].score!;
      const won = b.name === winner;
      const name = h(doc, 'th', { class: 'ss-pe-name', attrs: { scope: 'row' } });
      name.append(h(doc, 'span', { class: `ss-swatch ${seriesClasses(b.id)}`, attrs: { 'aria-hidden': 'true' } }), doc.createTextNode(b.name));
      // The badge reads "b (wins)", not "bwins" (a screen reader's row name, a copy): its brackets are
      // there for them, not for the eye (inline and zero-sized: an out-of-flow one is read "( wins )").
      if (won) {
        const bracket = (text: string) => h(doc, 'span', { class: 'ss-pe-bracket', text });
        name.append(bracket(' ('), h(doc, 'span', { class: 'ss-pe-badge', text: 'wins' }), bracket(')'));
      }
      const tr = h(doc, 'tr', { class: won ? 'ss-pe-winner' : takesPart(b) ? '' : 'ss-pe-out' }, name);
      tr.append(h(doc, 'td', { text: formatScore(s0) }));
      if (takesPart(b)) {
        tr.append(
          h(doc, 'td', { text: `+${count(b.weight)}` }),
          h(doc, 'td', { class: 'ss-pe-sum', text: formatScore(s0 + b.weight) }),
          h(doc, 'td', { text: won ? formatScore(-total) : '' }),
        );
      } else {
        tr.append(h(doc, 'td', { class: 'ss-pe-why', text: b.up ? 'weight 0: takes no part' : 'DOWN: takes no part', attrs: { colspan: '3' } }));
      }
      tr.append(h(doc, 'td', { class: 'ss-pe-after', text: formatScore(b.score!) }));
      body.append(tr);
    }
    const footRows = [
      h(
        doc,
        'tr',
        {},
        h(doc, 'th', { text: 'Total', attrs: { scope: 'row' } }),
        h(doc, 'td'),
        h(doc, 'td', { text: count(total) }),
        h(doc, 'td', { attrs: { colspan: '3' }, text: total > 0 ? 'the weights that took part' : 'nobody takes part' }),
      ),
    ];
    if (big) {
      const hidden = counts.poolSize - rows.length;
      const lower = counts.takingPart - rows.filter((k) => sums[k] > -Infinity).length;
      const out = counts.poolSize - counts.takingPart;
      footRows.push(
        h(
          doc,
          'tr',
          { class: 'ss-pe-hidden' },
          h(doc, 'td', {
            attrs: { colspan: '6' },
            text: `${count(hidden)} more ${hidden === 1 ? 'row is' : 'rows are'} not shown (${count(lower)} of them take part, ${count(out)} take no part).`,
          }),
        ),
      );
    }
    table.append(h(doc, 'thead', {}, head), body, h(doc, 'tfoot', {}, ...footRows));
    const scroller = h(doc, 'div', { class: 'ss-pe-scroll', attrs: { tabindex: '0', role: 'region', 'aria-label': 'Scores at this pick' } }, table);
    // Built whole, put in place as changes only: from one pick to the next the
    // rows stay and their numbers change, so the browser lays out and paints
    // those (a table replaced at every step of a run playing was a good part
    // of its heaviest frames, PL-31), and a table scrolled sideways stays so.
    morphChildren(this.#box, h(doc, 'div', {}, scroller));
  }
}

/** A pool longer than this shows its highest sums only, and says how many rows it leaves out. */
export const MAX_ROWS = 12;

/** The counts of a pick whose whole pool is at hand (a loop: a pool can have a million backends). */
function countPick(after: BackendSnapshot[], sums: number[], takesPart: (b: BackendSnapshot) => boolean): PickFacts {
  let takingPart = 0;
  let total = 0;
  let best = -Infinity;
  let tied = 0;
  for (let k = 0; k < after.length; k++) {
    if (!takesPart(after[k])) continue;
    takingPart++;
    total += after[k].weight;
    if (sums[k] > best) {
      best = sums[k];
      tied = 1;
    } else if (sums[k] === best) tied++;
  }
  return { poolSize: after.length, takingPart, total, best, tied };
}

/** The sentence that answers "why this one?". `tiedShown`: the names shown with the best sum (the winner among them). */
function explain(winner: string | null, counts: PickFacts, tiedShown: string[]): string {
  if (winner === null) return 'No backend is UP with a weight above 0, so the answer is NONE and no score changes.';
  const best = counts.best;
  const others = tiedShown.filter((n) => n !== winner);
  const more = counts.tied - 1 - others.length; // tied but not shown
  const names = more > 0 ? [...others, `${count(more)} more`] : others;
  const tied = others.length + Math.max(0, more);
  const tie =
    tied === 0
      ? ''
      : ` ${listNames(names)} ${tied === 1 ? 'has' : 'have'} ${formatScore(best)} too: a tie goes to the backend earliest in the pool.`;
  const alone = counts.takingPart === 1 ? ` It is the only backend taking part, so its score ends where it started.` : '';
  return (
    `Each backend taking part adds its weight to its score. ${winner} wins with ${formatScore(best)}, the highest.${tie}` +
    ` It then gives back ${count(counts.total)}, the total of the weights.${alone}`
  );
}

function listNames(names: string[]): string {
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The nearest PICK step before (dir −1) or after (+1) `step`, or −1. */
function findPick(t: Timeline, step: number, dir: -1 | 1): number {
  for (let i = step + dir; i >= 0 && i < t.length; i += dir) if (t.stepWinner[i] !== NOT_A_PICK) return i;
  return -1;
}

export const PICK_EXPLAIN_CSS = /* css */ `
.ss-pick-explain { border-top: 1px solid var(--ss-border); padding: 8px 12px 10px; }
.ss-pe-head { cursor: pointer; width: max-content; max-width: 100%; }
.ss-pe-title { display: inline; margin: 0; font-size: 14px; font-weight: 700; }
.ss-pe-navs { display: flex; flex-wrap: wrap; gap: 6px; margin-top: 6px; }
.ss-pe-nav { min-height: 30px; padding: 2px 10px; font-size: 13px; }
.ss-pe-summary { margin: 6px 0 8px; max-width: 75ch; }
.ss-pe-idea { margin: -2px 0 8px; max-width: 75ch; font-size: 13px; color: var(--ss-muted); }
.ss-pe-scroll { overflow-x: auto; border: 1px solid var(--ss-border); border-radius: 6px; background: var(--ss-editor-bg); }
.ss-pe-table { border-collapse: collapse; min-width: 100%; font-variant-numeric: tabular-nums; }
.ss-pe-table caption { caption-side: top; text-align: left; padding: 6px 8px; color: var(--ss-muted); font-size: 12.5px; }
.ss-pe-table th, .ss-pe-table td { padding: 3px 10px; text-align: right; border-top: 1px solid var(--ss-grid); white-space: nowrap; }
@container (max-width: 520px) {
  .ss-pe-table th, .ss-pe-table td { padding: 3px 4px; }
  .ss-pe-table thead th, .ss-pe-table td.ss-pe-why, .ss-pe-table tfoot td { white-space: normal; }
  .ss-pick-explain { padding-left: 8px; padding-right: 8px; }
  .ss-pe-badge { margin-left: 4px; padding: 0 4px; font-size: 10px; letter-spacing: 0; }
  .ss-pe-name .ss-swatch { margin-right: 3px; }
}
.ss-pe-table thead th { font-size: 12px; font-weight: 600; color: var(--ss-muted); background: var(--ss-panel); border-top: 0; }
.ss-pe-table tbody td { font-family: var(--ss-mono); font-size: 13px; }
.ss-pe-table th.ss-pe-name { text-align: left; font: 600 13px var(--ss-mono); white-space: pre; }
.ss-pe-name .ss-swatch { display: inline-block; width: 9px; height: 9px; border-radius: 50%; margin-right: 6px; vertical-align: 0; }
.ss-pe-badge {
  margin-left: 8px; padding: 0 6px; border-radius: 9px; font: 700 11px var(--ss-font); letter-spacing: 0.04em;
  text-transform: uppercase; color: var(--ss-on-accent); background: var(--ss-accent);
}
.ss-pe-winner { background: var(--ss-current-bg); }
.ss-pe-bracket { font-size: 0; }
.ss-pe-winner .ss-pe-sum { font-weight: 700; }
.ss-pe-out td, .ss-pe-out th { color: var(--ss-muted); }
.ss-pe-table td.ss-pe-why { text-align: center; font-family: var(--ss-font); font-size: 12.5px; font-style: italic; }
.ss-pe-after { font-weight: 600; }
.ss-pe-table tfoot th, .ss-pe-table tfoot td { color: var(--ss-muted); font-weight: 400; font-size: 12.5px; }
.ss-pe-table tfoot td:nth-child(3) { font-family: var(--ss-mono); font-size: 13px; color: var(--ss-fg); }
.ss-pe-table tfoot td:last-child { text-align: left; }
.ss-pe-table tfoot tr.ss-pe-hidden td { font-family: var(--ss-font); font-size: 12.5px; color: var(--ss-muted); white-space: normal; }
@container (max-width: 380px) {
  .ss-pe-table th, .ss-pe-table td { padding: 2px 2px; font-size: 11.5px; }
  .ss-pe-table tbody td, .ss-pe-table th.ss-pe-name { font-size: 11.5px; }
  .ss-pe-badge { margin-left: 2px; padding: 0 3px; font-size: 9px; }
  .ss-pe-table thead th { font-size: 10.5px; letter-spacing: -0.01em; }
  .ss-pick-explain { padding-left: 4px; padding-right: 4px; }
}
`;
