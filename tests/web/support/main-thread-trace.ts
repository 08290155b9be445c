// The page's main-thread tasks, from a Chromium trace (the page's renderer
// only: the browser runs others for its own pages): how long each took on
// the clock (what a key press waits) and on the CPU (the thread's own time).
// On a machine that other work keeps busy, the clock time of a task grows
// with every moment the thread waits for a core (and a garbage collection
// waits for its helper threads); its CPU time does not. So both are given:
// the clock time is what a user here would feel, the CPU time what the page
// itself asks for.
import type { Browser, Page } from 'playwright-core';

export interface MainThreadTasks {
  /** The longest task on the clock, ms. */
  longestWallMs: number;
  /** The most CPU time one task used, ms. */
  longestCpuMs: number;
  /** Tasks over 50 ms on the clock. */
  longTasks: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** Starts tracing `page`'s tasks; the returned function stops and sums them up. */
export async function traceMainThread(browser: Browser, page: Page): Promise<() => Promise<MainThreadTasks>> {
  // 'toplevel': every task, with its CPU time, for little overhead; 'blink.user_timing': the mark
  // that says which renderer is the page's (the browser runs others, for its own pages).
  await browser.startTracing(page, { categories: ['toplevel', 'blink.user_timing'] });
  return async () => {
    await page.evaluate(() => performance.mark('slowstart-trace-end'));
    const { traceEvents } = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    const pid = traceEvents.find((e) => e.name === 'slowstart-trace-end')?.pid;
    if (pid === undefined) throw new Error('the trace has no mark from the page');
    const main = new Set(
      traceEvents
        .filter((e) => e.pid === pid && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
        .map((e) => `${e.pid}:${e.tid}`),
    );
    const tasks = traceEvents.filter((e) => e.ph === 'X' && e.name === 'ThreadControllerImpl::RunTask' && main.has(`${e.pid}:${e.tid}`));
    const ms = (us: number | undefined) => Math.round((us ?? 0) / 1000);
    return {
      longestWallMs: Math.max(0, ...tasks.map((t) => ms(t.dur))),
      longestCpuMs: Math.max(0, ...tasks.map((t) => ms(t.tdur))),
      longTasks: tasks.filter((t) => (t.dur ?? 0) > 50_000).length,
    };
  };
}
