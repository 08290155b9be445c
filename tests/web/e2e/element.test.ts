// <slow-start-runner> in real Chromium: the BUILT element (dist/element)
// on fixture course pages (tests/web/fixtures/course) served as static
// files. Expected outputs are worked by hand from the SPEC:
//
// - #spec-example is the SPEC's worked example without its bad last line:
//   a, a, a=5 b=1 c=1 d=0, a=5 b=1 c=1 d=2, b, c. Its exercise passes.
// - #half-way: POOL a=4, ADD b=4 20, WEIGHTS, NOW 10, WEIGHTS, PICK x3.
//   b = 4*10/20 = 2, so it prints a=4 b=0, a=4 b=2, then (scores from 0,
//   total 6) a (a -2 b 2), b (a 2 b -2), a. The exercise expects NOW 15:
//   b = 4*15/20 = 3, a=4 b=3, then (total 7) a (a -3 b 3), b (a 1 b -1),
//   a (a 5 b 2). So it fails at output line 2, printed by script line 5,
//   expected "a=4 b=3", actual "a=4 b=2"; NOW 15 on line 4 makes it pass.
//
// The strict-CSP runs are in element-csp.test.ts. Screenshots go to
// test-results/screenshots/element-*.png for a human look.
import { rm } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtInTests } from '../../../web/implement/suite.js';
import { lab } from '../support/lab.js';
import { launchChromium, settle } from '../support/browser.js';
import { serveStatic, type StaticServer } from '../support/static-server.js';
import { checkBuilt, editorText, makeSite, openPage, outputRows, retypeLine, SHOTS, shootWholePage, whenReady } from './element-site.js';

const SPEC_ROWS = ['2: a', '3: a', '5: a=5 b=1 c=1 d=0', '7: a=5 b=1 c=1 d=2', '8: b', '10: c'];
const HALF_WAY_ROWS = ['3: a=4 b=0', '5: a=4 b=2', '6: a', '7: b', '8: a'];
const HALF_WAY_STARTER = 'POOL a=4\nADD b=4 20\nWEIGHTS\nNOW 10\nWEIGHTS\nPICK\nPICK\nPICK\n';
const HALF_WAY_FIXED = HALF_WAY_STARTER.replace('NOW 10', 'NOW 15');
const SPEC_STARTER = 'POOL a=5 b=1 c=1\nPICK\nPICK\nADD d=10 20\nWEIGHTS\nNOW 5\nWEIGHTS\nPICK\nDOWN a\nPICK\n';

let site: string;
let server: StaticServer;
let browser: Browser;
let course: string;

beforeAll(async () => {
  checkBuilt();
  site = await makeSite();
  server = await serveStatic(site);
  course = `${server.url}/course`;
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (site) await rm(site, { recursive: true, force: true });
});

const verdict = (host: Locator) => host.locator('.sse-exercise').getAttribute('data-verdict');
const texts = (l: Locator) => l.evaluateAll((els) => els.map((e) => e.textContent ?? ''));

/** Records the elements' events on the page, for the test to read. */
async function recordEvents(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __events: { type: string; id: string; detail: unknown }[] };
    w.__events = [];
    for (const type of ['slowstart-run', 'slowstart-pass', 'slowstart-fail'])
      document.addEventListener(type, (e) => w.__events.push({ type, id: (e.target as HTMLElement).id, detail: (e as CustomEvent).detail }));
  });
}

interface Recorded {
  type: string;
  id: string;
  detail: { output: { line: number; text: string }[]; pass?: boolean; changed?: boolean; difference?: unknown };
}
const events = (page: Page) => page.evaluate(() => (window as unknown as { __events: Recorded[] }).__events);

/**
 * One course page for the tests that read it as it opened and at most edit the half-way element
 * (the verdicts and the log, the fix of line 4 with its events, the spec example's compare box,
 * which reads only that element): a load of the page, two runners, costs several seconds of
 * Chromium's CPU (docs/TESTING.md). Those about a reload, links, another page or size, or that
 * need the half-way element as it opened after the fix (moving it), open their own. Each test
 * starts with its own problems.
 */
let shared: Awaited<ReturnType<typeof open>> | undefined;
async function openShared() {
  if (!shared || shared.page.isClosed()) return (shared = await open());
  shared.problems.length = 0;
  return shared;
}
afterAll(() => shared?.page.close());

describe('<slow-start-runner> on a course page', () => {
  it('runs two exercises: one passes, one fails at the first differing line, and the host page hears both', async () => {
    const { page, problems } = await openShared(); // its first user: the page as it opened
    const spec = page.locator('#spec-example');
    const half = page.locator('#half-way');
    await expect.poll(() => outputRows(spec)).toEqual(SPEC_ROWS);
    await expect.poll(() => outputRows(half)).toEqual(HALF_WAY_ROWS);

    await expect.poll(() => verdict(spec)).toBe('pass');
    expect(await spec.locator('.sse-verdict-text').textContent()).toBe('✓ Passed: the output matches the expected 6 lines.');

    expect(await verdict(half)).toBe('fail');
    expect(await half.locator('.sse-verdict-text').textContent()).toContain('output line 2');
    expect(await half.locator('.sse-diff-where').textContent()).toContain('Output line 2 (printed by script line 5)');
    expect(await texts(half.locator('.sse-diff-lines dt'))).toEqual(['Expected', 'Your script']);
    expect(await texts(half.locator('.sse-diff-lines dd'))).toEqual(['a=4 b=3', 'a=4 b=2']);
    // The expected output is there to read.
    await half.locator('.sse-exercise summary').click();
    expect(await half.locator('.sse-expected').textContent()).toBe('a=4 b=0\na=4 b=3\na\nb\na');

    // "Go to line 5" puts the cursor on the line that printed it.
    await half.getByRole('button', { name: 'Go to line 5' }).click();
    await expect.poll(async () => (await half.locator('.ss-ln-active').textContent())?.trim()).toBe('5');

    // The page's own script (course.js) logged both verdicts from the events.
    expect((await texts(page.locator('#log li'))).sort()).toEqual(['fail half-way at output line 2 (script line 5)', 'pass spec-example']);
    // Examples are off by default in the element; Reset and Share are there.
    expect(await spec.locator('.ss-menu').count()).toBe(0);
    expect(await spec.getByRole('button', { name: 'Reset to starter' }).isDisabled()).toBe(true);
    expect(await spec.getByRole('button', { name: 'Share link' }).count()).toBe(1);
    expect(problems).toEqual([]);
    await page.evaluate(() => scrollTo(0, 0));
    await shootWholePage(page, `${SHOTS}/element-course.png`);
    await half.screenshot({ path: `${SHOTS}/element-exercise-fail.png` });
  });

  it('passes once the learner fixes the line, with slowstart-run and slowstart-pass events; the other element is untouched', async () => {
    const { page, problems } = await openShared();
    const spec = page.locator('#spec-example');
    const half = page.locator('#half-way');
    await expect.poll(() => verdict(half)).toBe('fail');
    await recordEvents(page);

    await retypeLine(half, 4, 'NOW 15');
    await expect.poll(() => verdict(half)).toBe('pass');
    expect(await editorText(half)).toBe(HALF_WAY_FIXED);
    expect(await outputRows(half)).toEqual(['3: a=4 b=0', '5: a=4 b=3', '6: a', '7: b', '8: a']);

    const recorded = await events(page);
    const lastRun = recorded.filter((e) => e.type === 'slowstart-run').at(-1)!;
    expect(lastRun.id).toBe('half-way');
    expect(lastRun.detail.output).toEqual([
      { line: 3, text: 'a=4 b=0' },
      { line: 5, text: 'a=4 b=3' },
      { line: 6, text: 'a' },
      { line: 7, text: 'b' },
      { line: 8, text: 'a' },
    ]);
    const pass = recorded.filter((e) => e.type === 'slowstart-pass');
    expect(pass.length).toBeGreaterThan(0);
    expect(pass[0].detail).toMatchObject({ pass: true, changed: true, difference: null });
    expect(recorded.every((e) => e.id === 'half-way')).toBe(true);
    expect(await texts(page.locator('#log li'))).toContain('pass half-way');

    expect(await outputRows(spec)).toEqual(SPEC_ROWS);
    expect(await editorText(spec)).toBe(SPEC_STARTER);
    await half.screenshot({ path: `${SHOTS}/element-exercise-pass.png` });
    expect(problems).toEqual([]);
  });

  it('keeps the learner’s edits across a reload, per element, until Reset to starter', async () => {
    const context = await browser.newContext();
    const { page, problems } = await open(context);
    const spec = page.locator('#spec-example');
    const half = page.locator('#half-way');
    await expect.poll(() => verdict(half)).toBe('fail');
    await retypeLine(half, 4, 'NOW 15');
    await expect.poll(() => verdict(half)).toBe('pass');
    expect(await half.getByRole('button', { name: 'Reset to starter' }).isDisabled()).toBe(false);

    await page.reload(); // pagehide saves at once, whatever the save delay
    await whenReady(half);
    expect(await editorText(half)).toBe(HALF_WAY_FIXED);
    await expect.poll(() => verdict(half)).toBe('pass');
    expect(await half.locator('.sse-note:not([hidden])').first().textContent()).toContain('Your edits from last time are back');
    expect(await editorText(spec)).toBe(SPEC_STARTER);
    expect(await spec.locator('.sse-note:not([hidden])').count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['slowstart:/course/index.html:half-way']);

    // Reset is one undoable edit.
    await half.getByRole('button', { name: 'Reset to starter' }).click();
    expect(await editorText(half)).toBe(HALF_WAY_STARTER);
    await expect.poll(() => verdict(half)).toBe('fail');
    await half.locator('.cm-content').click();
    await page.keyboard.press('ControlOrMeta+z');
    expect(await editorText(half)).toBe(HALF_WAY_FIXED);
    await half.getByRole('button', { name: 'Reset to starter' }).click();
    expect(await half.getByRole('button', { name: 'Reset to starter' }).isDisabled()).toBe(true);

    await page.reload();
    await whenReady(half);
    expect(await editorText(half)).toBe(HALF_WAY_STARTER);
    expect(await half.locator('.sse-note:not([hidden])').count()).toBe(0);
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shares a script by permalink; the link opens it in that element only, and never loses the learner’s own version', async () => {
    const a = await browser.newContext();
    const first = await open(a);
    const half = first.page.locator('#half-way');
    await expect.poll(() => verdict(half)).toBe('fail');
    await retypeLine(half, 4, 'NOW 15');
    await retypeLine(half, 8, 'PICK # café ✓'); // UTF-8 in the link (and a rejected line)
    const shared = HALF_WAY_FIXED.replace(/PICK\n$/, 'PICK # café ✓\n');
    await expect.poll(() => editorText(half)).toBe(shared);
    await half.getByRole('button', { name: 'Share link' }).click();
    await expect.poll(() => half.locator('.sse-link').inputValue()).toContain('#ss-half-way=~'); // compressing is asynchronous
    const link = await half.locator('.sse-link').inputValue();
    expect(link.startsWith(`${course}/index.html#ss-half-way=`)).toBe(true);
    // `~` + base64url of raw DEFLATE (EMBEDDING.md), unpacked here with Node's zlib.
    const payload = link.split('#ss-half-way=')[1];
    expect(payload.startsWith('~')).toBe(true);
    expect(inflateRawSync(Buffer.from(payload.slice(1), 'base64url')).toString('utf8')).toBe(shared);
    expect(first.page.url()).toBe(link); // in the address bar too
    expect(first.problems).toEqual([]);
    await a.close();

    // A fresh browser (no saved edits) opens the link: that element gets the
    // script, the other keeps its starter.
    const b = await browser.newContext();
    const second = await open(b, link);
    const half2 = second.page.locator('#half-way');
    await whenReady(half2);
    expect(await editorText(half2)).toBe(shared);
    expect(await editorText(second.page.locator('#spec-example'))).toBe(SPEC_STARTER);
    await expect.poll(() => half2.locator('.sse-exercise').getAttribute('data-verdict')).toBe('fail'); // the rejected line 8
    expect(await half2.locator('.sse-rejected').textContent()).toContain('Line 8 was rejected');

    // Edits made after opening the link survive a reload with the link still in the URL.
    await retypeLine(half2, 8, 'PICK');
    await expect.poll(() => verdict(half2)).toBe('pass');
    await second.page.reload();
    await whenReady(half2);
    expect(await editorText(half2)).toBe(HALF_WAY_FIXED);

    // A different link (followed on the open page: a hash change) replaces the
    // script but keeps the learner's version one click away, also after a reload.
    const other = 'POOL a=1\nPICK\n';
    await second.page.goto(`${course}/index.html#ss-half-way=${Buffer.from(other).toString('base64url')}`);
    await expect.poll(() => editorText(half2)).toBe(other);
    await second.page.reload();
    await whenReady(half2);
    expect(await editorText(half2)).toBe(other);
    expect(await half2.locator('.sse-note:not([hidden])').first().textContent()).toContain('opened the script from a link');
    await half2.getByRole('button', { name: 'Back to my version' }).click();
    expect(await editorText(half2)).toBe(HALF_WAY_FIXED);

    // And once more without a reload, the hash set by a script.
    const third = 'POOL z=2\nWEIGHTS\n';
    await second.page.evaluate((h) => (location.hash = h), `ss-half-way=${Buffer.from(third).toString('base64url')}`);
    await expect.poll(() => editorText(half2)).toBe(third);
    await expect.poll(() => outputRows(half2)).toEqual(['2: z=2']);
    expect(second.problems).toEqual([]);
    await b.close();

    // One hash carries several elements' scripts, next to a plain anchor; a damaged part is refused with a note.
    const c = await browser.newContext();
    const both =
      `${course}/index.html#top&ss-spec-example=${Buffer.from('POOL s=1\nPICK\n').toString('base64url')}` +
      `&ss-half-way=${Buffer.from('POOL h=1\nPICK\n').toString('base64url')}`;
    const third3 = await open(c, both);
    await whenReady(third3.page.locator('#half-way'));
    expect(await editorText(third3.page.locator('#spec-example'))).toBe('POOL s=1\nPICK\n');
    expect(await editorText(third3.page.locator('#half-way'))).toBe('POOL h=1\nPICK\n');
    const damaged = await open(c, `${course}/index.html#ss-spec-example=%%%`);
    const spec3 = damaged.page.locator('#spec-example');
    await whenReady(spec3);
    expect(await editorText(spec3)).toBe('POOL s=1\nPICK\n'); // the saved version, untouched
    expect(await spec3.locator('.sse-note:not([hidden])').first().textContent()).toContain('damaged');
    expect([...third3.problems, ...damaged.problems]).toEqual([]);
    await c.close();
  });

  it('compares what the learner’s own program printed with the engine’s output', async () => {
    const { page, problems } = await openShared(); // reads the spec example only, as it opened
    const spec = page.locator('#spec-example');
    await expect.poll(() => verdict(spec)).toBe('pass');
    await spec.getByText('Compare with my program').click();
    const paste = spec.locator('.sse-paste');
    const result = spec.locator('.sse-compare-result');

    // Their program got the tie at line 8 wrong.
    await paste.fill('a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nc\nc\n');
    expect(await result.textContent()).toBe('✗ Output line 5 differs.');
    expect(await spec.locator('.sse-compare .sse-diff-where').textContent()).toContain('printed by script line 8');
    expect(await texts(spec.locator('.sse-compare .sse-diff-lines dd'))).toEqual(['b', 'c']);
    // That output is no classic mistake's: none is named (once the box has looked).
    await expect.poll(() => spec.locator('.sse-compare').getAttribute('aria-busy')).toBe('false');
    expect(await spec.locator('.sse-compare .sse-mistake').isHidden()).toBe(true);

    // Ties to the last backend: at line 8 (b 3, c 3) c wins and drops to -8; at
    // line 10 (a DOWN) b 4, c -7, d 4: d wins. The box names the mistake, with
    // the implement mode's words (the engine's catalogue).
    await paste.fill('a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nc\nd\n');
    expect(await result.textContent()).toBe('✗ Output line 5 differs.');
    const mistake = spec.locator('.sse-compare .sse-mistake');
    await mistake.waitFor();
    expect(await mistake.locator('.sse-mistake-lead').textContent()).toBe('Looks like:');
    expect(await mistake.locator('[data-mistake]').getAttribute('data-mistake')).toBe('ties-to-last');
    expect(await mistake.locator('.sse-mistake-title').textContent()).toBe(lab.mistakes().find((m) => m.id === 'ties-to-last')!.title);
    await spec.locator('.sse-compare').screenshot({ path: `${SHOTS}/element-compare.png` });

    // Stopped one line early: no mistake named any more.
    await paste.fill('a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\n');
    expect(await result.textContent()).toBe('✗ Output line 6 differs.');
    expect(await mistake.isHidden()).toBe(true);
    expect(await texts(spec.locator('.sse-compare .sse-diff-lines dd'))).toEqual(['c', '(no line here: the output has ended)']);

    // Exactly right, with Windows line ends and with no final newline.
    await paste.fill('a\r\na\r\na=5 b=1 c=1 d=0\r\na=5 b=1 c=1 d=2\r\nb\r\nc\r\n');
    expect(await result.textContent()).toBe('✓ Same output: all 6 lines match.');
    await paste.fill('a\na\na=5 b=1 c=1 d=0\na=5 b=1 c=1 d=2\nb\nc');
    expect(await result.textContent()).toBe('✓ Same output: all 6 lines match.');

    // A double space is hard to see: the box says so.
    await paste.fill('a\na\na=5 b=1  c=1 d=0\n');
    expect(await spec.locator('.sse-compare .sse-diff-note').textContent()).toBe('They differ only in spaces or tabs.');
    expect(problems).toEqual([]);
    await page.close(); // the shared page's last user
  });

  it('moving an element keeps its runner; a changed attribute rebuilds it with the learner’s script', async () => {
    const { page, problems } = await open();
    const spec = page.locator('#spec-example');
    const half = page.locator('#half-way');
    await expect.poll(() => verdict(half)).toBe('fail');
    await retypeLine(half, 4, 'NOW 15');
    await expect.poll(() => verdict(half)).toBe('pass');
    await page.evaluate(() => {
      const h = document.querySelector('#half-way') as HTMLElement & { runner: object };
      (window as unknown as { __runner: object }).__runner = h.runner;
      document.querySelector('main')!.insertBefore(h, document.querySelector('#spec-example'));
    });
    // After the tasks the move queued (a teardown would be one of them).
    await settle(page);
    expect(await page.evaluate(() => (document.querySelector('#half-way') as HTMLElement & { runner: object }).runner === (window as unknown as { __runner: object }).__runner)).toBe(true);

    await page.evaluate(() => document.querySelector('#half-way')!.setAttribute('no-chart', ''));
    await expect.poll(() => half.locator('.ss-panel-chart').isHidden()).toBe(true);
    expect(await editorText(half)).toBe(HALF_WAY_FIXED);
    expect(await spec.locator('.ss-panel-chart').isVisible()).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('<slow-start-runner> before its engine has loaded', () => {
  // Worked by hand (smooth WRR, a tie to the earliest in the pool):
  // POOL a=1 b=1: sums a 1 b 1, a wins (a −1 b 1); then a 0 b 2, b wins.
  // POOL p=2 q=1: p 2 q 1, p wins (p −1 q 1); p 1 q 2, q wins (p 1 q −2); p 3 q −1, p wins.
  it('runs the latest script set (before ready, after ready, before a rebuild) once the engine is there, once', async () => {
    const context = await browser.newContext();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    // The engine's .wasm waits until the test lets it through: the window between ready and the engine.
    await context.route('**/engine.wasm', async (route) => {
      await held;
      await route.continue();
    });
    const { page, problems } = await open(context, `${course}/bare.html`);
    await recordEvents(page);
    await page.evaluate(async () => {
      type El = HTMLElement & { script: string; ready: Promise<void> };
      const make = (id: string) => {
        const el = document.createElement('slow-start-runner') as El;
        el.id = id;
        el.textContent = 'POOL x=1\nPICK\n';
        document.body.append(el);
        return el;
      };
      // Before ready: set twice, the latest counts.
      const early = make('early');
      early.script = 'POOL z=1\nPICK\n';
      early.script = 'POOL a=1 b=1\nPICK\nPICK\n';
      // After ready (the runner is built, the engine still loading).
      const ready = make('ready');
      await ready.ready;
      ready.script = 'POOL p=2 q=1\nPICK\nPICK\nPICK\n';
      // After ready, then an attribute that rebuilds the element.
      const rebuilt = make('rebuilt');
      await rebuilt.ready;
      rebuilt.script = 'POOL m=1\nWEIGHTS\n';
      rebuilt.setAttribute('no-chart', '');
    });
    const host = (id: string) => page.locator(`#${id}`);
    // The window is real: the engine has not loaded, nothing has run.
    await expect.poll(() => host('rebuilt').locator('.ss-status').textContent()).toBe('Loading the engine…');
    expect(await host('ready').locator('.ss-status').textContent()).toBe('Loading the engine…');
    expect(await events(page)).toEqual([]);
    release();
    await expect.poll(() => outputRows(host('early'))).toEqual(['2: a', '3: b']);
    await expect.poll(() => outputRows(host('ready'))).toEqual(['2: p', '3: q', '4: p']);
    await expect.poll(() => outputRows(host('rebuilt'))).toEqual(['2: m=1']);
    expect(await host('rebuilt').locator('.ss-panel-chart').isHidden()).toBe(true);
    expect(await editorText(host('early'))).toBe('POOL a=1 b=1\nPICK\nPICK\n');
    // Each ran its latest script once (the bare fixture's own element ran its starter: autorun).
    await settle(page);
    const runs = (await events(page)).filter((e) => e.type === 'slowstart-run' && e.id !== 'bare');
    expect(runs.map((e) => [e.id, e.detail.output.map((o) => o.text).join(' ')])).toEqual(
      expect.arrayContaining([
        ['early', 'a b'],
        ['ready', 'p q p'],
        ['rebuilt', 'm=1'],
      ]),
    );
    expect(runs.length).toBe(3);
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('<slow-start-runner> attributes', () => {
  it('src and expected-src, examples, traffic, theme, height; readonly and no-chart; no id and no autorun', async () => {
    const context = await browser.newContext();
    const { page, problems } = await open(context, `${course}/features.html`);
    const files = page.locator('#from-files');
    // The SPEC's ramp table: new goes 0, 2, 5, 7, 9, 10, 10; old (POOL, no ramp) stays 10.
    const rampTable = [0, 2, 5, 7, 9, 10, 10].map((w, i) => `${3 + 2 * i}: new=${w} old=10`);
    await expect.poll(() => outputRows(files)).toEqual(rampTable);
    await expect.poll(() => verdict(files)).toBe('pass');
    expect(await files.locator('.ss-menu').count()).toBe(1);
    expect(await files.getByRole('tab', { name: 'Traffic' }).count()).toBe(1);
    expect(await files.locator('.ss-editor').evaluate((e) => e.getBoundingClientRect().height)).toBe(220);
    expect(await files.locator('.ss-panel').first().evaluate((e) => getComputedStyle(e).backgroundColor)).toBe('rgb(23, 26, 32)');

    const demo = page.locator('#demo');
    await expect.poll(() => outputRows(demo)).toEqual(['4: a']);
    expect(await demo.locator('.cm-lintRange-error').count()).toBe(1);
    expect(await demo.getByRole('button', { name: 'Reset to starter' }).count()).toBe(0);
    expect(await demo.getByRole('button', { name: 'Share link' }).count()).toBe(0);
    expect(await demo.locator('.ss-panel-chart').isHidden()).toBe(true);
    // heading-level="4": the panels' headings are h4 (the hidden chart panel's too).
    expect(await demo.locator('.ss-panel-head h4').allTextContents()).toEqual(['Script', 'Output', 'Ramp']);
    await demo.locator('.cm-content').click();
    await page.keyboard.type('NOW 5\n');
    expect(await editorText(demo)).toBe('# Only upper-case keywords: line 3 is rejected.\nPOOL a=2 b=1\npick\nPICK\n');
    expect(await demo.locator('.ss-panel-editor .ss-panel-meta').textContent()).toBe('Read-only');

    // The third element has no id (its key is its position, 3) and no autorun.
    const plain = page.locator('slow-start-runner').nth(2);
    await whenReady(plain);
    await expect.poll(() => plain.locator('.ss-status').textContent()).toContain('Press Run');
    expect(await outputRows(plain)).toEqual([]);
    await plain.getByText('Compare with my program').click();
    await plain.locator('.sse-paste').fill('a\n');
    expect(await plain.locator('.sse-compare-result').textContent()).toBe('Run the script first: the comparison is with its output.');
    await plain.getByRole('button', { name: /^Run/ }).click();
    // Weights 3/1, total 4: a (a -1 b 1), a wins the tie at 2 by pool order
    // (a -2 b 2), b (a 1 b -1), a (a 0 b 0).
    await expect.poll(() => outputRows(plain)).toEqual(['2: a', '3: a', '4: b', '5: a']);
    expect(await plain.locator('.sse-compare-result').textContent()).toBe('✗ Output line 2 differs.');
    await retypeLine(plain, 1, 'POOL a=1 b=1');
    // Saved shortly after the edit.
    await expect
      .poll(() => page.evaluate(() => localStorage.getItem('slowstart:/course/features.html:3') ?? ''))
      .toContain('POOL a=1 b=1\\nPICK');
    await page.reload();
    await whenReady(plain);
    expect(await editorText(plain)).toBe('POOL a=1 b=1\nPICK\nPICK\nPICK\nPICK\n');
    expect(await page.evaluate(() => Object.keys(localStorage))).toEqual(['slowstart:/course/features.html:3']);
    // After the reload, the src element still shows the SPEC's ramp table.
    await expect.poll(() => outputRows(files)).toEqual(rampTable);

    // src="missing.txt" is a 404: the element says so and opens its own text instead.
    const missing = page.locator('#missing');
    await whenReady(missing);
    expect(await missing.getByRole('alert').textContent()).toBe(`Could not load src ${course}/missing.txt: HTTP 404.`);
    expect(await editorText(missing)).toBe('POOL fallback=1\nWEIGHTS\n');
    await shootWholePage(page, `${SHOTS}/element-features.png`);
    // The browser reports the 404 (before and after the reload); nothing else went wrong.
    const expected404 = (p: string) => p === `HTTP 404 ${course}/missing.txt` || p.includes('status of 404 (Not Found)');
    expect(problems.filter((p) => !expected404(p))).toEqual([]);
    expect(problems.length).toBe(4);
    await context.close();
  });
});

describe('<slow-start-runner mode="implement">', () => {
  it('shows the implement view above the runner, with the author’s test after the built-in ones; a test opens in the runner', async () => {
    const { page, problems } = await open(undefined, `${course}/implement.html`);
    const host = page.locator('#impl');
    await host.locator('.ss-impl-test').first().waitFor({ timeout: 30_000 });
    const rows = host.locator('.ss-impl-test');
    expect(await rows.count()).toBe(builtInTests(lab).length + 1);
    const author = host.locator('.ss-impl-test[data-test-id="author-1"]');
    expect(await author.locator('.ss-impl-title').textContent()).toBe('Three quarters of the ramp');
    // The learner's template returns the target at once: the author's test (b at 3 of 4) fails.
    await host.locator('.ss-impl-run').click();
    await expect.poll(() => author.getAttribute('data-state'), { timeout: 60_000 }).toBe('fail');
    if (!(await author.locator('details').evaluate((d) => (d as HTMLDetailsElement).open))) await author.locator('summary').click();
    await author.getByRole('button', { name: 'Open in the runner' }).click();
    const script = 'POOL a=4\nADD b=4 20\nNOW 15\nWEIGHTS\nPICK\nPICK\n';
    await expect.poll(() => editorText(host)).toBe(script);
    // Worked by hand: b = 4*15/20 = 3; then a (a -3 b 3), b (a 1 b -1).
    await expect.poll(() => outputRows(host)).toEqual(['4: a=4 b=3', '5: a', '6: b']);
    await shootWholePage(page, `${SHOTS}/element-implement.png`);
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe('<slow-start-runner> on hostile pages', () => {
  it('keeps an LMS page’s aggressive global CSS out, and its own CSS in', async () => {
    const { page, problems } = await open(undefined, `${course}/lms.html`);
    const host = page.locator('#lms-runner');
    await expect.poll(() => outputRows(host)).toEqual(['2: a', '3: a', '5: a=5 b=1 c=1 d=0']);
    // The output matches the expected 3 lines, but line 6 (pick) was rejected.
    await expect.poll(() => verdict(host)).toBe('fail');
    expect(await host.locator('.sse-verdict-text').textContent()).toBe('✗ Not yet: the output matches, but a line was rejected.');
    expect(await host.locator('.sse-rejected').textContent()).toContain("Line 6 was rejected: unknown command 'pick' (use PICK)");
    expect(await host.evaluate((e) => getComputedStyle(e).display)).toBe('block');

    // Computed styles inside the element are the same with the page's CSS on and off.
    const inside = () =>
      host.evaluate((el) => {
        const props = [
          'font-size', 'font-family', 'font-style', 'font-weight', 'line-height', 'letter-spacing', 'word-spacing',
          'text-transform', 'text-indent', 'text-align', 'white-space', 'color', 'background-color', 'cursor',
          'display', 'box-sizing', 'padding-top', 'margin-top', 'border-top-width',
        ];
        const parts = [
          '.sse-reset', '.ss-runner', '.ss-toolbar', '.ss-btn.ss-primary', '.ss-status', '.ss-panel', '.ss-panel-head h3',
          '.cm-content', '.cm-line', '.ss-ln-run', '.ss-out-row', '.ss-out-text', '.sse-exercise',
          '.sse-verdict-text', '.ss-legend-name', '.ss-tick', '.sse-compare summary',
        ];
        const out: Record<string, string> = {};
        for (const sel of parts) {
          const node = el.shadowRoot!.querySelector(sel);
          if (!node) {
            out[sel] = 'missing';
            continue;
          }
          const cs = getComputedStyle(node);
          for (const p of props) out[`${sel} ${p}`] = cs.getPropertyValue(p);
        }
        return out;
      });
    const withLms = await inside();
    expect(Object.values(withLms)).not.toContain('missing');
    expect(withLms['.ss-btn.ss-primary font-size']).toBe('14px');
    expect(withLms['.cm-content text-transform']).toBe('none');
    await page.screenshot({ path: `${SHOTS}/element-lms.png` });
    // And the element's CSS does not style the page's elements that share its class names.
    const decoy = (id: string, prop: string) => page.locator(id).evaluate((e, p) => getComputedStyle(e).getPropertyValue(p), prop);
    expect(await decoy('#decoy-button', 'background-color')).toBe('rgb(255, 255, 0)'); // the LMS's yellow, not the accent
    expect(await decoy('#decoy-button', 'font-size')).toBe('30px');
    expect(await decoy('#decoy-panel', 'border-radius')).toBe('0px');
    expect(await decoy('#decoy-panel', 'display')).toBe('inline');
    expect(await decoy('#decoy-note', 'color')).toBe('rgb(255, 0, 0)');
    await page.evaluate(() => ((document.getElementById('lms-css') as HTMLLinkElement).disabled = true));
    await settle(page);
    expect(await inside()).toEqual(withLms);

    expect(await page.evaluate(() => document.adoptedStyleSheets.length)).toBe(0);
    expect(await page.evaluate(() => document.querySelectorAll('style').length)).toBe(0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('works in an iframe, and in a sandboxed one without storage (saying that edits are not kept)', async () => {
    // A sandboxed frame has an opaque origin: its module and .wasm requests are cross-origin.
    const cors = await serveStatic(site, { headers: { 'access-control-allow-origin': '*' } });
    try {
      const { page, problems } = await open(undefined, `${cors.url}/course/frame.html`);
      const lesson = page.frameLocator('#lesson');
      await expect.poll(() => lesson.locator('#spec-example .sse-exercise').getAttribute('data-verdict')).toBe('pass');
      await expect.poll(() => lesson.locator('#half-way .sse-exercise').getAttribute('data-verdict')).toBe('fail');
      const boxed = page.frameLocator('#sandboxed').locator('#boxed');
      await expect.poll(() => outputRows(boxed)).toEqual(['2: a', '3: b']);
      expect(await boxed.locator('.sse-note-warn').first().textContent()).toContain('does not let the page keep your edits');
      expect(await boxed.locator('.sse-note-warn').first().isVisible()).toBe(true);
      await shootWholePage(page, `${SHOTS}/element-iframe.png`);
      expect(problems).toEqual([]);
      await page.close();
    } finally {
      await cors.close();
    }
  });

  it('fits a 360 px phone without horizontal scrolling', async () => {
    const { page, problems } = await open(undefined, `${course}/index.html`, { width: 360, height: 780 });
    await expect.poll(() => verdict(page.locator('#half-way'))).toBe('fail');
    expect(await page.evaluate(() => document.scrollingElement!.scrollWidth)).toBeLessThanOrEqual(360);
    await page.locator('#half-way').screenshot({ path: `${SHOTS}/element-narrow-360.png` });
    expect(problems).toEqual([]);
    await page.close();
  });
});

/** Opens a fixture page (the course page by default) in a new page of the browser or a context. */
function open(target: Browser | BrowserContext = browser, url = `${course}/index.html`, options: { width?: number; height?: number } = {}) {
  return openPage(target, url, options);
}
