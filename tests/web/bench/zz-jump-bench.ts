import { it } from 'vitest';
import { openSites, twentyBackends } from './page-sites.js';
it('jump trace natural', async () => {
  const sites = await openSites();
  const page = await sites.browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${sites.ours.url}/`);
  await page.locator('.ss-out-row').first().waitFor();
  await page.evaluate((s) => window.slowstartRunner!.setScript(s), twentyBackends());
  await page.waitForFunction(() => !window.slowstartRunner!.playhead.playing, undefined, { timeout: 60_000 });
  const VARIANTS: Record<string, string> = {
    base: '',
    sls: '.ss-editor .cm-editor{contain:size layout style}',
    ssEditor: '.ss-editor{contain:size layout style}',
    strict: '.ss-editor .cm-editor{contain:strict}',
    base2: '',
    sls2: '.ss-editor .cm-editor{contain:size layout style}',
    ssEditor2: '.ss-editor{contain:size layout style}',
    strict2: '.ss-editor .cm-editor{contain:strict}',
  };
  for (const [vname, css] of Object.entries(VARIANTS)) {
  await page.evaluate((css) => { let s = document.getElementById('zz') as HTMLStyleElement; if (!s) { s = document.createElement('style'); s.id = 'zz'; document.head.append(s); } s.textContent = css; }, css);
  await sites.browser.startTracing(page, { categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink.user_timing', 'v8.execute'] });
  await page.evaluate(async () => {
    const v = (window.slowstartRunner! as any).editor.view;
    const frame = () => new Promise((res) => requestAnimationFrame(() => setTimeout(res, 0)));
    for (let i = 0; i < 12; i++) {
      v.scrollDOM.scrollTop = v.scrollDOM.scrollHeight; await frame(); await frame();
      v.scrollDOM.scrollTop = 0;
      performance.mark('jump-start');
      await frame();
      performance.mark('jump-end');
      await frame();
    }
  });
  const trace = JSON.parse((await sites.browser.stopTracing()).toString('utf8')).traceEvents as any[];
  const marks = trace.filter((e) => e.name === 'jump-start' || e.name === 'jump-end').sort((a, b) => a.ts - b.ts);
  const { pid, tid } = marks[0];
  const windows: [number, number][] = [];
  for (let i = 0; i + 1 < marks.length; i += 2) windows.push([marks[i].ts, marks[i + 1].ts]);
  const inW = (e: any) => windows.some(([a, b]) => e.ts >= a && e.ts < b);
  const evs = trace.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && inW(e)).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const self = new Map<string, [number, number]>();
  const stack: any[] = [];
  for (const e of evs) {
    while (stack.length && stack[stack.length - 1].ts + stack[stack.length - 1].dur <= e.ts) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) { parent.childDur = (parent.childDur ?? 0) + e.dur; parent.childT = (parent.childT ?? 0) + (e.tdur ?? 0); }
    e.depth = stack.length;
    stack.push(e);
  }
  let top = 0;
  for (const e of evs) {
    if (e.depth === 0) top += e.tdur ?? 0;
    const k = e.name + (e.args?.data?.functionName ? ':' + e.args.data.functionName : '') + (e.args?.data?.type ? ':' + e.args.data.type : '');
    const s = self.get(k) ?? [0, 0];
    s[0] += e.dur - (e.childDur ?? 0); s[1] += (e.tdur ?? 0) - (e.childT ?? 0);
    self.set(k, s);
  }
  const n = windows.length;
  const g = (k: string) => ((self.get(k)?.[1] ?? 0) / 1000 / n).toFixed(2);
  const layouts = evs.filter((e) => e.name === 'Layout');
  console.log('R', vname.padEnd(14), 'top', (top / 1000 / n).toFixed(2), 'layout', g('Layout'), 'onScroll', g('FunctionCall:onScroll'), 'paint', g('Paint'), 'prepaint', g('PrePaint'), 'layerize', g('Layerize'), 'objs', layouts.slice(0, 3).map((e) => `${e.args?.beginData?.dirtyObjects}/${e.args?.beginData?.totalObjects}`).join(','));
  }
  await sites.close();
});
