// The ramp chart plays out, in Chromium on the built page: lines and pick
// marks are drawn in full up to the playhead and faint after it (stepping,
// scrubbing and playing alike), reduced motion draws everything at once, the
// largest weight has room above it, and a clock that goes backwards is a
// marked jump, never lines drawn over each other.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite, type OpenOptions } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

const open = (options: OpenOptions = {}) => openRunnerPage(site.browser, site.url, options);

// b ramps to 4 over 20 s; picks at 0, 10 and 20 s.
const RAMP = 'POOL a=4\nADD b=4 20\nPICK\nNOW 10\nPICK\nNOW 20\nPICK\nPICK';
const BACKWARDS = 'POOL a=4\nADD b=4 20\nNOW 10\nPICK\nNOW 30\nPICK\nNOW 15\nPICK\nNOW 25\nPICK';

/**
 * What the chart shows of the run: whether what is still to come is veiled
 * (over the plot, over the lane), and where "played" ends over each: the
 * veils' left edges (ramp-chart.ts slides them with a transform).
 */
function playedOut(page: Page) {
  return page.evaluate(() => {
    const chart = document.querySelector('.ss-chart')!;
    const veils = [...chart.querySelectorAll<HTMLElement>('.ss-veil-plot, .ss-veil-lane')];
    const masked = veils.map((v) => !v.hidden);
    const [plotPlayed, lanePlayed] = veils.map((v) => new DOMMatrix(getComputedStyle(v).transform).m41);
    const clock = Number(chart.querySelector('.ss-clock-line')!.getAttribute('x1'));
    const caret = Number(chart.querySelector('.ss-caret')!.getAttribute('x1'));
    // The chart itself is never masked while it plays (the veils do the faint future; predict mode draws only what is revealed).
    const svgMasked = [...chart.querySelectorAll('.ss-chart-svg .ss-series, .ss-chart-svg .ss-lane-picks')].some((g) => g.hasAttribute('mask'));
    return { masked, plotPlayed, lanePlayed, clock, caret, svgMasked };
  });
}

const scrubTo = (page: Page, step: number) => page.locator('.ss-scrub').fill(String(step));

describe('the chart that plays', () => {
  it('draws the run up to the playhead, faint after it, when stepping and scrubbing', async () => {
    const { page, problems } = await open();
    await setScript(page, RAMP);
    await scrubTo(page, 4); // line 5, clock 10 s
    await expect.poll(() => page.locator('.ss-readout').textContent()).toContain('line 5');
    let p = await playedOut(page);
    expect(p.masked).toEqual([true, true]);
    expect(p.svgMasked).toBe(false);
    // Lines in full up to the clock mark (its line clear), picks up to just past the caret and its ring.
    expect(p.plotPlayed).toBe(p.clock + 1);
    expect(p.lanePlayed).toBeCloseTo(p.caret + 4, 2); // (a computed transform keeps three decimals)
    // A step forward plays one more step: the played part grows.
    await page.locator('.ss-transport button[aria-label="Step forward"]').click();
    await page.locator('.ss-transport button[aria-label="Step forward"]').click();
    const q = await playedOut(page);
    expect(q.plotPlayed).toBeGreaterThan(p.plotPlayed);
    expect(q.lanePlayed).toBeGreaterThan(p.lanePlayed);
    await page.locator('.ss-chart').screenshot({ path: `${SHOTS}/chart-plays-step.png` });
    // At the last step nothing is still to come: everything is drawn in full.
    await scrubTo(page, 7);
    await expect.poll(async () => (await playedOut(page)).masked).toEqual([false, false]);
    // Back to the start: only the first step is played.
    await scrubTo(page, 0);
    p = await playedOut(page);
    expect(p.masked).toEqual([true, true]);
    expect(p.plotPlayed).toBe(p.clock + 1);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('grows while it plays, and ends drawn in full', async () => {
    const { page, problems } = await open();
    await setScript(page, RAMP); // plays from the start (no reduced motion)
    const widths: number[] = [];
    await expect
      .poll(
        async () => {
          const p = await playedOut(page);
          if (p.masked[0]) widths.push(p.plotPlayed);
          return new Set(widths).size;
        },
        { timeout: 10_000, interval: 100 },
      )
      .toBeGreaterThan(2);
    for (let i = 1; i < widths.length; i++) expect(widths[i]).toBeGreaterThanOrEqual(widths[i - 1]);
    await expect.poll(async () => (await playedOut(page)).masked, { timeout: 15_000 }).toEqual([false, false]);
    // While playing, the editor followed with its strip (playing-line.ts); at the end its line mark is on the last step's line.
    const current = await page.locator('.cm-line').evaluateAll((lines) => lines.map((l, i) => (l.classList.contains('ss-line-current') ? i + 1 : 0)).filter(Boolean));
    expect(current).toEqual([8]);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("follows the playing run in the editor with a strip on the playhead's line, not a transaction per step", async () => {
    const { page, problems } = await open();
    // 300 lines (a, b and c picking, the clock moving every 10th line): more than an editor-full, so it scrolls.
    const lines = ['POOL a=3 b=2 c=1', ...Array.from({ length: 299 }, (_, i) => (i % 10 === 9 ? `NOW ${i + 1}` : 'PICK'))];
    await setScript(page, lines.join('\n'));
    // Playing, and past its first frame (the one that takes the line mark away for the strip).
    await expect.poll(() => page.evaluate(() => window.slowstartRunner!.editor.followedLine > 0)).toBe(true);
    // From here on every transaction the editor gets is counted (CodeMirror's dispatch ends in view.update).
    await page.evaluate(() => {
      const view = window.slowstartRunner!.editor.view;
      const counted = window as unknown as { editorUpdates: number };
      counted.editorUpdates = 0;
      const update = view.update.bind(view);
      view.update = (transactions) => {
        counted.editorUpdates++;
        update(transactions);
      };
    });
    // What the editor shows at a moment of playing, read in one go: the readout's line, the strip, that line's box.
    const sample = () =>
      page.evaluate(() => {
        const runner = window.slowstartRunner!;
        const view = runner.editor.view;
        const line = Number(/line (\d+)/.exec(document.querySelector('.ss-readout')!.textContent!)![1]);
        const strip = view.dom.querySelector<HTMLElement>('.ss-line-playing')!;
        const pos = view.state.doc.line(line).from;
        const rendered = pos >= view.viewport.from && pos <= view.viewport.to;
        const at = view.domAtPos(pos).node;
        const box = rendered ? (at instanceof Element ? at : at.parentElement)!.closest('.cm-line')!.getBoundingClientRect() : null;
        const scroller = view.scrollDOM.getBoundingClientRect();
        const s = strip.getBoundingClientRect();
        return {
          playing: runner.playhead.playing,
          line,
          followed: runner.editor.followedLine,
          strip: strip.hidden ? null : { top: s.top, height: s.height },
          line_: box && { top: box.top, bottom: box.bottom, height: box.height },
          scroller: { top: scroller.top, bottom: scroller.bottom },
          scrollTop: view.scrollDOM.scrollTop,
          marked: view.dom.querySelectorAll('.cm-line.ss-line-current').length,
          markedLine: [...view.dom.querySelectorAll('.cm-line.ss-line-current')].map((el) => view.state.doc.lineAt(view.posAtDOM(el)).number),
          updates: (window as unknown as { editorUpdates: number }).editorUpdates,
        };
      });
    const seen: Awaited<ReturnType<typeof sample>>[] = [];
    for (let i = 0; i < 12; i++) {
      const now = await sample();
      if (!now.playing) break;
      seen.push(now);
      // The next sample a few lines further on (or once the run has stopped).
      await page.waitForFunction(
        (from) => {
          const runner = window.slowstartRunner!;
          const line = Number(/line (\d+)/.exec(document.querySelector('.ss-readout')!.textContent!)![1]);
          return !runner.playhead.playing || line >= from + 5;
        },
        now.line,
        { polling: 'raf' },
      );
    }
    expect(seen.length).toBeGreaterThan(5);
    for (const now of seen) {
      // The strip, and no line mark, is on the playhead's line, inside the editor's view.
      expect(now.followed).toBe(now.line);
      expect(now.marked).toBe(0);
      expect(now.strip).not.toBeNull();
      if (now.line_) {
        expect(Math.abs(now.strip!.top - now.line_.top)).toBeLessThan(1);
        expect(Math.abs(now.strip!.height - now.line_.height)).toBeLessThan(1);
        expect(now.line_.top).toBeGreaterThanOrEqual(now.scroller.top - 1);
        expect(now.line_.bottom).toBeLessThanOrEqual(now.scroller.bottom + 1);
      }
    }
    expect(seen.filter((now) => now.line_).length).toBeGreaterThan(3);
    // It went past the first editor-full of lines: the editor scrolled to keep up.
    expect(Math.max(...seen.map((now) => now.scrollTop))).toBeGreaterThan(0);
    expect(seen.at(-1)!.line).toBeGreaterThan(seen[0].line);
    // No transaction while the run played (a mark moved by one was 10 a second, and the page's heaviest frames).
    expect(seen.at(-1)!.updates).toBe(0);
    // Paused: the line is marked again (one transaction), the strip gone.
    await page.locator('.ss-transport button[aria-label="Pause"]').click();
    const paused = await sample();
    expect(paused.playing).toBe(false);
    expect(paused.strip).toBeNull();
    expect(paused.followed).toBe(0);
    expect(paused.markedLine).toEqual([paused.line]);
    await page.screenshot({ path: `${SHOTS}/chart-plays-paused.png` });
    expect(problems).toEqual([]);
    await page.close();
  });

  it('with reduced motion shows the whole chart at once, wherever the playhead is', async () => {
    const { page, problems } = await open({ reducedMotion: true });
    await setScript(page, RAMP);
    for (const step of [0, 3, 7]) {
      await scrubTo(page, step);
      expect((await playedOut(page)).masked).toEqual([false, false]);
    }
    expect(problems).toEqual([]);
    await page.close();
  });

  it('leaves room above the lines at the largest weight', async () => {
    const { page, problems } = await open({ reducedMotion: true });
    await setScript(page, RAMP);
    const room = await page.evaluate(() => {
      const chart = document.querySelector('.ss-chart .ss-chart-svg')!;
      const tops = [...chart.querySelectorAll<SVGPathElement>('.ss-series path')].map((p) => p.getBBox().y);
      // The plot's top is the top of its vertical grid lines.
      const plotTop = Number(chart.querySelector('.ss-grid-x')!.getAttribute('y1'));
      const plotBottom = Number(chart.querySelector('.ss-grid-x')!.getAttribute('y2'));
      return (Math.min(...tops) - plotTop) / (plotBottom - plotTop);
    });
    expect(room).toBeGreaterThan(0.08);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('draws a clock that goes backwards as a marked jump, never over itself', async () => {
    for (const [width, dark] of [
      [1280, false],
      [360, true],
    ] as const) {
      const { page, problems } = await open({ reducedMotion: true, width, dark });
      await setScript(page, BACKWARDS);
      const jump = page.locator('.ss-chart .ss-jump');
      await expect.poll(() => jump.count()).toBe(1);
      expect(await jump.locator('.ss-jump-label').textContent()).toBe('clock back 30 → 15 s');
      expect(await page.locator('.ss-chart .ss-chart-svg').getAttribute('aria-label')).toContain(
        'The clock goes back once (a marked jump).',
      );
      // Every line moves only rightwards: no stretch is drawn over another.
      const xs = await page.locator('.ss-chart .ss-series path').evaluateAll((paths) =>
        paths.map((p) => {
          const out: number[] = [];
          let x = 0;
          for (const [, cmd, args] of p.getAttribute('d')!.matchAll(/([MHV])([^MHV]*)/g)) {
            const n = args.trim().split(/[ ,]+/).map(Number);
            if (cmd === 'M' || cmd === 'H') x = n[0];
            out.push(x);
          }
          return out;
        }),
      );
      for (const line of xs) for (let i = 1; i < line.length; i++) expect(line[i]).toBeGreaterThanOrEqual(line[i - 1]);
      // The ticks after the jump start again from 15 s, right of the band.
      const band = await jump.locator('.ss-jump-band').evaluate((r) => Number(r.getAttribute('x')) + Number(r.getAttribute('width')));
      const after = await page
        .locator('.ss-chart .ss-tick-x')
        .evaluateAll((ts, right) => ts.filter((t) => Number(t.getAttribute('x')) > right).map((t) => t.textContent), band);
      expect(after[0]).toBe('15');
      // The playhead at line 10 (clock 25 s) sits right of the band, not back at the first 25 s.
      await scrubTo(page, 9);
      expect((await playedOut(page)).clock).toBeGreaterThan(band);
      await page.locator('.ss-chart').screenshot({ path: `${SHOTS}/chart-clock-back-${width}-${dark ? 'dark' : 'light'}.png` });
      expect(problems).toEqual([]);
      await page.close();
    }
  });
});
