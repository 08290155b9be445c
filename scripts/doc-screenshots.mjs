// Takes the docs' screenshots of the Traffic lab (docs/images/) from the
// built site (dist/site: `npm run build`), in Debian's Chromium, so that a
// change to the lab can be shown as it now looks:
//
//   node scripts/doc-screenshots.mjs
//
// lab-1280.png: the top of the page at 1280 x 800 with the lab open;
// lab-360.png: the lab itself at 360 x 780 (the first flapping run scrolled to
// the top of the screen: at 360 px the lab is far below the script and its
// output, so the top of the page would show none of it); lab-flapping.png:
// the first flapping run (no slow start) with its share, lanes, latency and
// failures.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SITE = join(ROOT, 'dist/site');
const OUT = join(ROOT, 'docs/images');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css', '.wasm': 'application/wasm', '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png' };

const server = createServer(async (req, res) => {
  const path = normalize(decodeURIComponent(new URL(req.url, 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
  try {
    const file = join(SITE, path.endsWith('/') ? `${path}index.html` : path);
    res.writeHead(200, { 'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
  } catch {
    res.writeHead(404).end();
  }
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const url = `http://127.0.0.1:${server.address().port}/#traffic`;
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  const open = async (width, height) => {
    const page = await browser.newPage({ viewport: { width, height }, reducedMotion: 'reduce' });
    await page.goto(url);
    await page.locator('.ss-flap-status', { hasText: 'requests/s' }).waitFor({ timeout: 120_000 });
    await page.evaluate(() => window.slowstartTraffic.ready);
    return page;
  };
  const wide = await open(1280, 800);
  await wide.screenshot({ path: join(OUT, 'lab-1280.png') });
  await wide.locator('.ss-flap-side').first().screenshot({ path: join(OUT, 'lab-flapping.png') });
  const narrow = await open(360, 780);
  await narrow.locator('.ss-flap-side').first().evaluate((run) => run.scrollIntoView({ block: 'start' }));
  await narrow.screenshot({ path: join(OUT, 'lab-360.png') });
  console.log(`written: ${['lab-1280.png', 'lab-360.png', 'lab-flapping.png'].map((f) => `docs/images/${f}`).join(', ')}`);
} finally {
  await browser.close();
  server.close();
}
