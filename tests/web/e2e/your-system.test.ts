// The Traffic tab's "Your system" panel in real Chromium (production build,
// strict CSP): a configuration dropped and a canary log chosen as a user
// would, what the file became, the fit drawn over the data, then the
// recommendation and the settings to paste, each the native CLI's bytes for
// the same files (run here with the same names), and nothing fetched.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { watchProblems } from '../support/browser.js';
import { serveBuiltSite, type BuiltSite } from '../support/runner-page.js';
import { ROOT, SHOTS } from '../support/site.js';

const CONFIG = readFileSync(join(ROOT, 'tests/cpp/system_configs/nginx-plus.conf'), 'utf8');
const LOG = readFileSync(join(ROOT, 'tests/cpp/system_canary/nginx-access.log'), 'utf8');

let site: BuiltSite;
beforeAll(async () => {
  site = await serveBuiltSite();
});
afterAll(() => site?.close());

/** The native CLI on the same files under the same names: { out, err }. */
function native(args: string[], files: Record<string, string>): { out: string; err: string } {
  const dir = mkdtempSync(join(tmpdir(), 'slowstart-panel-'));
  try {
    for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
    const r = spawnSync(join(ROOT, 'build/slowstart'), args, { cwd: dir, encoding: 'utf8' });
    return { out: r.stdout, err: r.stderr };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('Your system panel', () => {
  it('reads a dropped config and a chosen log, fits, recommends and emits what the CLI does', async () => {
    const page = await site.browser.newPage({ viewport: { width: 1440, height: 1000 } });
    const problems = watchProblems(page);
    const requests: string[] = [];
    await page.goto(`${site.url}/`);
    await page.locator('.ss-out-row').first().waitFor();
    await page.getByRole('tab', { name: 'Traffic' }).click();
    await page.locator('.ss-traffic-status', { hasText: 'requests over' }).waitFor();
    // Every request after the tab is open, but the package's own code fetched once from the page's
    // origin (the panel loads the lab module on the page when first used: the tab's runs are in a worker).
    page.on('request', (r) => {
      const url = new URL(r.url());
      const ownCode = url.origin === new URL(site.url).origin && r.method() === 'GET' && /\.(js|mjs|wasm)$/.test(url.pathname) && !url.search;
      if (!ownCode || r.postData() !== null) requests.push(`${r.method()} ${r.url()}`);
    });

    // The config dropped on its text area (a DataTransfer with a file, as a drag from the desktop).
    const configArea = page.getByRole('textbox', { name: 'Configuration', exact: true });
    const drop = await page.evaluateHandle((text) => {
      const dt = new DataTransfer();
      dt.items.add(new File([text], 'nginx.conf', { type: 'text/plain' }));
      return dt;
    }, CONFIG);
    await configArea.dispatchEvent('drop', { dataTransfer: drop });
    await expect.poll(() => configArea.inputValue()).toBe(CONFIG);
    // The log chosen with the file input, its format named.
    await page.getByLabel('Canary log (optional): choose a file').setInputFiles({ name: 'access.log', mimeType: 'text/plain', buffer: Buffer.from(LOG) });
    await page.getByRole('combobox', { name: 'Log format' }).selectOption('nginx');
    await page.evaluate(() => window.slowstartTraffic!.system.ready); // the read after the last edit's pause

    // The scenario: a restart of the file's first server.
    const scenario = await page.getByRole('textbox', { name: 'Your system: scenario' }).inputValue();
    expect(scenario).toContain('DOWN 10.1.0.11:8080\nNOW 40\nUP 10.1.0.11:8080 0\n');
    const files = { 'your-config': CONFIG, 'scenario.txt': scenario };
    const explain = native(['simulate', '--from', 'your-config', '--explain', 'scenario.txt'], files);
    expect(await page.locator('.ss-system-explain').textContent()).toBe(explain.out);
    expect(explain.out).toMatch(/--slow-start 45 +line 28/); // the column is as wide as the longest option (--policy nginx-least-conn)

    // The fit: its words, the dots (one square per row) and the curve.
    const fit = native(['fit', '--log-format', 'nginx', 'canary.log'], { 'canary.log': LOG });
    expect(await page.locator('.ss-system-fit').textContent()).toBe(`${fit.err}options: ${fit.out}`);
    const dots = await page.locator('.ss-canary-dots').getAttribute('d');
    expect(dots!.match(/M/g)!.length).toBe(700);
    expect(await page.locator('.ss-canary-fit').count()).toBe(1);

    // Recommend, written for HAProxy: the CLI's report and text, byte for byte.
    await page.getByRole('combobox', { name: 'Write the settings for' }).selectOption('haproxy');
    await page.getByRole('spinbutton', { name: 'Requests per second' }).fill('200');
    await page.getByRole('button', { name: 'Recommend a window' }).click();
    await page.locator('.ss-system-status', { hasText: /Recommended|No window|could not/ }).waitFor({ timeout: 60_000 });
    const fitJson = native(['fit', '--json', '--log-format', 'nginx', 'canary.log'], { 'canary.log': LOG }).out;
    const rec = native(['recommend', '--from', 'your-config', '--fit', 'fit.json', '--rps', '200', '--emit', 'haproxy', 'scenario.txt'], {
      ...files,
      'fit.json': fitJson,
    });
    expect(await page.locator('.ss-system-report').textContent()).toBe(rec.err);
    expect(await page.locator('.ss-system-emitted').textContent()).toBe(rec.out);
    expect(rec.out).toContain('backend checkout\n');
    expect(await page.getByRole('button', { name: 'Copy the settings' }).isEnabled()).toBe(true);
    await page.locator('.ss-system').screenshot({ path: `${SHOTS}/your-system.png` });

    // Nothing left the page: no request after the tab was open but the package's own code.
    expect(requests).toEqual([]);
    expect(problems).toEqual([]);
    await page.close();
  }, 180_000);

  it('says where a pasted config is wrong, with its line and column, and keeps the page working', async () => {
    const page = await site.browser.newPage({ viewport: { width: 900, height: 900 } });
    const problems = watchProblems(page);
    await page.goto(`${site.url}/`);
    await page.locator('.ss-out-row').first().waitFor();
    await page.getByRole('tab', { name: 'Traffic' }).click();
    await page.locator('.ss-traffic-status', { hasText: 'requests over' }).waitFor();
    await page.evaluate(() => window.slowstartTraffic!.system.load({ config: 'upstream u {\n  server a weight=2\n}\n\u0000\u00ff' }));
    const said = await page.locator('.ss-system-explain').textContent();
    expect(said).toBe("slowstart simulate: your-config:3:1: unexpected '}': 'server' has no ';'\n");
    expect(await page.locator('.ss-system-explain').getAttribute('class')).toContain('ss-system-error');
    await page.getByRole('button', { name: 'Recommend a window' }).click();
    await page.locator('.ss-system-status', { hasText: 'could not be used' }).waitFor();
    expect(await page.locator('.ss-system-emitted').textContent()).toBe('');
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
