// A run keeps at most 64 MiB of output (RunResult.truncated): the runner
// page and the element say so where they report the run, the "Compare with
// my program" box refuses to judge a cut output, and an exercise never
// passes on one. In Chromium, the built page and the built element.
//
// The script, worked by hand: one backend whose name is 65,533 bytes, so
// each WEIGHTS line (`<name>=1`) is 65,535 bytes and takes 65,536 of the cap
// with its line end; 2^26 / 2^16 = 1024 lines fit exactly, and the script's
// 1100 WEIGHTS lines print 76 more. Output line i is printed by script
// line i + 1, so the last line kept is script line 1025's.
import { writeFile } from 'node:fs/promises';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProblems } from '../support/browser.js';
import { servePageAndElement, whenReady, type PageAndElement } from './element-site.js';

const NAME = 'n'.repeat(65_533);
const CUT = `POOL ${NAME}=1\n${'WEIGHTS\n'.repeat(1100)}`;
/** The same, over 100,000 characters: it runs in the background worker. */
const CUT_IN_WORKER = `${'# a comment line to make the script long enough for the worker\n'.repeat(700)}${CUT}`;
const STATUS = /^Output cut at 64 MiB: the first 1,024 output lines are shown \(printed up to script line 1025\)/;

let sites: PageAndElement;
let browser: Browser;

beforeAll(async () => {
  sites = await servePageAndElement({
    '/cut.html': `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Cut</title>
<link rel="icon" href="/course/favicon.svg" type="image/svg+xml">
<script type="module" src="/element/slow-start-runner.js"></script></head><body>
<slow-start-runner id="cut" src="/cut.txt" autorun><template slot="expected">${NAME}=1</template></slow-start-runner>
</body></html>`,
  });
  await writeFile(`${sites.elementDir}/cut.txt`, CUT);
  browser = sites.browser;
});

afterAll(() => sites?.close());

const statusOf = (root: Page | Locator) => root.locator('.ss-status').textContent();

/** Pastes `text` into the compare box (opening it) and returns what it says. */
async function compareWith(root: Page | Locator, text: string): Promise<{ result: string | null; mistakes: number }> {
  const box = root.locator('.sse-compare');
  if (!(await box.evaluate((d) => (d as HTMLDetailsElement).open))) await box.locator('summary').click();
  await box.locator('textarea').fill(text);
  return { result: await box.locator('.sse-compare-result').textContent(), mistakes: await box.locator('.sse-mistake > div').count() };
}

describe('the runner page', () => {
  it('says the output was cut, on the page and in the worker, and the compare box will not judge it', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(`${sites.page}/`);
    await page.locator('.ss-out-row').first().waitFor();
    await page.evaluate((s) => window.slowstartRunner!.setScript(s), CUT);
    await expect.poll(() => statusOf(page), { timeout: 60_000 }).toMatch(STATUS);
    expect(await page.locator('.ss-status').getAttribute('class')).toContain('ss-status-problem');
    expect(await page.locator('#runner .ss-panel-output .ss-panel-meta').textContent()).toMatch(/1,024 lines, cut/);
    // The pasted lines are what the engine printed first; the box still refuses to compare.
    const { result, mistakes } = await compareWith(page, `${NAME}=1\n`.repeat(3));
    expect(result).toMatch(/^The engine’s output for this script was cut at 64 MiB/);
    expect(mistakes).toBe(0);
    expect(await page.locator('.sse-compare').getAttribute('data-match')).toBe('');

    // A fix that prints less: the box compares again.
    await page.evaluate(() => window.slowstartRunner!.setScript('POOL a=1\nWEIGHTS\n'));
    await expect.poll(() => statusOf(page)).toBe('Ran: 1 output line, no problems.');
    expect((await compareWith(page, 'a=1\n')).result).toBe('✓ Same output: all 1 line match.');

    // Over 100,000 characters: the background worker's run says it too.
    await page.evaluate((s) => window.slowstartRunner!.setScript(s), CUT_IN_WORKER);
    await expect.poll(() => statusOf(page), { timeout: 60_000 }).toMatch(/^Output cut at 64 MiB: the first 1,024 output lines are shown \(printed up to script line 1725\)/);
    // CodeMirror may warn while it lays out the 65,533-character line (wrapped) as the
    // script is replaced: its own measuring, not what this test is about.
    expect(problems.filter((p) => !p.includes('Measure loop restarted'))).toEqual([]);
    await page.close();
  });
});

describe('<slow-start-runner>', () => {
  it('says the output was cut; the exercise does not pass on it and the compare box will not judge it', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const problems = watchProblems(page);
    const events: { truncated: boolean; type: string }[] = [];
    await page.exposeFunction('reportRun', (e: { truncated: boolean; type: string }) => events.push(e));
    await page.addInitScript(() => {
      for (const type of ['slowstart-run', 'slowstart-pass', 'slowstart-fail']) {
        document.addEventListener(type, (e) => (window as unknown as { reportRun(d: unknown): void }).reportRun({ type, truncated: (e as CustomEvent).detail.truncated }));
      }
    });
    await page.goto(`${sites.element}/cut.html`);
    const host = page.locator('#cut');
    await whenReady(host);
    await expect.poll(() => statusOf(host), { timeout: 60_000 }).toMatch(STATUS);
    expect(events).toEqual([
      { type: 'slowstart-run', truncated: true },
      { type: 'slowstart-fail', truncated: true },
    ]);
    expect(await host.locator('.sse-exercise').getAttribute('data-verdict')).toBe('fail');
    expect(await host.locator('.sse-verdict-text').textContent()).toBe(
      '✗ Not yet: the output passed 64 MiB and was cut, so it cannot be checked against the expected 1 line. Within what was kept, output line 2 is not the expected one.',
    );
    // The expected line is the first one printed; the second runs on. A 65,535-character line is shown in part.
    expect(await host.locator('.sse-diff-lines dd').allTextContents()).toEqual([
      '(no line here: the output has ended)',
      `${'n'.repeat(200)}… (65,335 more characters)`,
    ]);
    const { result, mistakes } = await compareWith(host, `${NAME}=1\n`);
    expect(result).toMatch(/^The engine’s output for this script was cut at 64 MiB/);
    expect(mistakes).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });
});
