// The chart's SVG and PNG exports (#34 item 4), the BUILT page in Chromium:
// the SVG has a title and a key, and only concrete colours (the page's
// light-dark() custom properties resolved in its theme), so librsvg
// (rsvg-convert: what GNOME and LibreOffice draw SVG with, which draws a
// light-dark() it does not know as black) draws it with the panel's own
// background, light or dark; the PNG is drawn from it, twice the size.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openRunnerPage, serveBuiltSite, setScript, type BuiltSite } from '../support/runner-page.js';
import { SHOTS } from '../support/site.js';

const run = promisify(execFile);
let site: BuiltSite;
let dir: string;
beforeAll(async () => {
  site = await serveBuiltSite();
  dir = await mkdtemp(join(tmpdir(), 'slowstart-export-'));
});
afterAll(async () => {
  await site?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function save(page: Page, name: string): Promise<Buffer> {
  const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name }).click()]);
  return readFile((await file.path())!);
}

/** The colour of a PNG's pixel, decoded by the browser. */
function pixel(page: Page, png: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async ({ data, x, y }) => {
      const img = new Image();
      img.src = `data:image/png;base64,${data}`;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return [...ctx.getImageData(x, y, 1, 1).data.slice(0, 3)];
    },
    { data: png.toString('base64'), x, y },
  );
}

describe('the chart’s SVG and PNG', () => {
  for (const [theme, panel] of [
    ['light', [0xf6, 0xf7, 0xf9]],
    ['dark', [0x17, 0x1a, 0x20]],
  ] as const) {
    it(`draw in librsvg with the ${theme} panel’s background, a title and a key`, async () => {
      const { page, problems } = await openRunnerPage(site.browser, site.url, { width: 1280, dark: theme === 'dark', reducedMotion: true });
      await setScript(page, 'POOL alpha=5 beta=1\nADD gamma=10 20\nNOW 10\nPICK\nPICK\nWEIGHTS\n');
      await expect.poll(() => page.locator('.ss-status').textContent()).toBe('Ran: 3 output lines, no problems.');
      const svg = (await save(page, 'Download the chart as SVG')).toString();
      // Concrete colours only: nothing a reader outside a browser would not know.
      expect(svg).not.toMatch(/light-dark\(|var\(--|currentcolor/i);
      expect(svg).toMatch(/<title>slowstart · Ramp chart: effective weight of 3 backends from clock 0 to 10 s, and 2 picks<\/title>/);
      // The key: each backend's name, after a sample line in its colour.
      const key = svg.slice(svg.lastIndexOf('</svg><g'));
      expect([...key.matchAll(/<text[^>]*>([^<]+)<\/text>/g)].map((m) => m[1])).toEqual(['alpha', 'beta', 'gamma']);
      expect([...key.matchAll(/<line [^>]*stroke="(rgb\([^"]+\))"/g)].length).toBe(3);
      const file = join(dir, `chart-${theme}.svg`);
      await writeFile(file, svg);
      await run('rsvg-convert', ['-o', join(dir, `chart-${theme}.png`), file]);
      const drawn = await readFile(join(dir, `chart-${theme}.png`));
      await writeFile(`${SHOTS}/chart-export-rsvg-${theme}.png`, drawn);
      // The background in a corner, and in the key's row: the panel's colour, not black.
      const [w, h] = [drawn.readUInt32BE(16), drawn.readUInt32BE(20)];
      for (const [x, y] of [
        [2, 2],
        [w - 3, h - 3],
      ]) {
        const got = await pixel(page, drawn, x, y);
        got.forEach((c, i) => expect(Math.abs(c - panel[i]), `(${x}, ${y}): ${got}`).toBeLessThanOrEqual(2));
      }
      // The PNG is the same drawing at twice the size, on the same background.
      const png = await save(page, 'Download the chart as PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([2 * w, 2 * h]);
      const corner = await pixel(page, png, 3, 3);
      corner.forEach((c, i) => expect(Math.abs(c - panel[i])).toBeLessThanOrEqual(2));
      expect(problems).toEqual([]);
      await page.close();
    });
  }
});
