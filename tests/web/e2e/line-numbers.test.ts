// The editor's line numbers as a learner sees them (web/shared/line-numbers.ts:
// one block of text over an empty gutter, not CodeMirror's gutter of one
// element a line, PL-46). For every line of the script in view, the number
// drawn beside it (read from the rendered text: a Range over each number)
// is that line's number, level with the line's first row (a wrapped line
// keeps its number by its first row), in the column left of the text; the
// cursor's line has its number in the highlighted cell; numbers follow an
// edit, a scroll and a jump, widen the column at 1,000 lines, and stay out
// of the accessibility tree and of copied text.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite } from '../support/runner-page.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

interface Seen {
  /** Lines of the script in view whose shown number is not theirs ("line 12 shows 11", "line 12 shows none"). */
  wrong: string[];
  /** The script's lines that were checked (in view). */
  checked: number[];
  /** Numbers drawn to the right of where the text starts (they would cover it). */
  overText: number;
  /** The highlighted number and the cursor's line. */
  active: string[];
  cursorLine: number;
}

/** What the editor shows: each line in view against the number drawn level with its first row. */
function seen(page: Page): Promise<Seen> {
  return page.evaluate(() => {
    const view = window.slowstartRunner!.editor.view;
    const box = view.scrollDOM.getBoundingClientRect();
    // Every number drawn, with its box, from the text itself (not from the layer's own positions).
    const drawn: { n: number; top: number; right: number; active: boolean }[] = [];
    for (const run of view.scrollDOM.querySelectorAll<HTMLElement>('.ss-ln-run')) {
      const text = run.firstChild;
      if (!text || text.nodeType !== Node.TEXT_NODE) continue;
      const s = text.textContent!;
      for (const m of s.matchAll(/\d+/g)) {
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const r = range.getBoundingClientRect();
        drawn.push({ n: Number(m[0]), top: r.top, right: r.right, active: run.classList.contains('ss-ln-active') });
      }
    }
    const wrong: string[] = [];
    const checked: number[] = [];
    let overText = 0;
    for (const line of view.contentDOM.querySelectorAll<HTMLElement>('.cm-line')) {
      const r = line.getBoundingClientRect();
      if (r.top < box.top || r.top + 10 > box.bottom) continue; // not in view
      const n = view.state.doc.lineAt(view.posAtDOM(line)).number;
      checked.push(n);
      const textLeft = r.left + parseFloat(getComputedStyle(line).paddingLeft);
      // The line's first row of text, as the numbers' (a text's box, not the line's).
      const range = document.createRange();
      range.selectNodeContents(line);
      const first = range.getClientRects()[0];
      // The number level with the line's first row (within a pixel), not the cursor's cell.
      const at = drawn.filter((d) => !d.active && first && Math.abs(d.top - first.top) < 1);
      if (at.length !== 1 || at[0].n !== n) wrong.push(`line ${n} shows ${at.map((d) => d.n).join(',') || 'none'}`);
      for (const d of at) if (d.right > textLeft) overText++;
    }
    const cursorLine = view.state.doc.lineAt(view.state.selection.main.head).number;
    const active = drawn.filter((d) => d.active).map((d) => String(d.n));
    return { wrong, checked, overText, active, cursorLine };
  });
}

/** Sets the script and stops its first play (which scrolls the editor), once its run is shown. */
async function setScriptStill(page: Page, script: string): Promise<void> {
  await setScript(page, script);
  // Its run is shown when the output has a row for each PICK and WEIGHTS line (and its play has started).
  const printed = script.split('\n').filter((l) => /^(PICK|WEIGHTS)\b/.test(l)).length;
  await expect.poll(() => page.evaluate(() => window.slowstartRunner!.output.length)).toBe(printed);
  expect(await page.evaluate(() => window.slowstartRunner!.editor.view.state.doc.lines)).toBe(script.split('\n').length);
  await page.evaluate(() => {
    const r = window.slowstartRunner!;
    r.playhead.pause();
    r.editor.view.scrollDOM.scrollTop = 0;
  });
}

function lines(n: number, long: (i: number) => boolean): string {
  return Array.from({ length: n }, (_, i) =>
    i === 0 ? 'POOL a=1 b=2 c=3' : long(i + 1) ? `# line ${i + 1}: a comment long enough to wrap over two or three rows of the editor on a phone, and more` : i % 2 ? 'PICK' : 'WEIGHTS',
  ).join('\n');
}

describe('the editor line numbers', () => {
  for (const width of [1440, 360]) {
    it(`are each line's own, level with its first row, at ${width} px`, async () => {
      const { page, problems } = await openRunnerPage(site.browser, site.url, { width, height: width < 600 ? 740 : 900 });
      // Some lines wrap (at 360 px over several rows): their numbers stand by their first row.
      await setScriptStill(page, lines(40, (i) => i % 7 === 3));
      await expect.poll(async () => (await seen(page)).checked.length).toBeGreaterThan(5);
      let s = await seen(page);
      expect(s.wrong).toEqual([]);
      expect(s.overText).toBe(0);
      expect(s.checked[0]).toBe(1);

      // The cursor's line: its number in the highlighted cell, which follows the cursor.
      await page.locator('.cm-line').nth(4).click();
      await expect.poll(async () => (await seen(page)).active).toEqual(['5']);
      s = await seen(page);
      expect(s.cursorLine).toBe(5);

      // An edit: a line typed above shifts every number after it.
      await page.keyboard.press('Home');
      await page.keyboard.type('NOW 1');
      await page.keyboard.press('Enter');
      await expect.poll(async () => (await seen(page)).active).toEqual(['6']);
      s = await seen(page);
      expect(s.wrong).toEqual([]);
      expect(await page.evaluate(() => window.slowstartRunner!.editor.view.state.doc.lines)).toBe(41);

      // A long script scrolled to its end and back to its top: four digits, drawn in a wider column, off the text.
      await setScriptStill(page, lines(1200, (i) => i % 50 === 0));
      for (const to of ['end', 'middle', 'top'] as const) {
        await page.evaluate((to) => {
          const s = window.slowstartRunner!.editor.view.scrollDOM;
          s.scrollTop = to === 'top' ? 0 : to === 'end' ? s.scrollHeight : s.scrollHeight / 2;
        }, to);
        await expect.poll(async () => { const r = await seen(page); return r.checked.length > 5 && r.wrong.length === 0; }).toBe(true);
        s = await seen(page);
        expect(s.overText).toBe(0);
        if (to === 'end') expect(s.checked).toContain(1200);
        if (to === 'top') expect(s.checked[0]).toBe(1);
      }
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('are hidden from assistive technology and not copied', async () => {
    const { page, problems } = await openRunnerPage(site.browser, site.url);
    await setScriptStill(page, 'POOL a=1 b=2\nPICK\nWEIGHTS');
    await expect.poll(async () => (await seen(page)).checked).toEqual([1, 2, 3]);
    // The numbers' layer is aria-hidden, as CodeMirror's gutters are: the editor's accessible text is the script alone.
    expect(await page.locator('.ss-ln-layer').getAttribute('aria-hidden')).toBe('true');
    expect(await page.locator('.cm-editor').first().ariaSnapshot()).not.toMatch(/\d/);
    // Select all in the editor: the selection is the script, with no number in it.
    await page.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+a');
    expect(await page.evaluate(() => window.getSelection()!.toString())).toBe('POOL a=1 b=2\nPICK\nWEIGHTS');
    expect(problems).toEqual([]);
    await page.close();
  });
});
