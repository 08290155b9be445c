// A busy machine, as the browser's renderers meet it: stretches of time in
// which they get no core at all. Busy loops (`while :; do :; done`, as
// many as two per core) reproduced CI's wrong verdicts only now and then,
// and slowed every other test file running beside; stopping the renderers
// of this file's own browser (SIGSTOP, then SIGCONT) takes the same time
// away from the page and its workers, every time, at no CPU cost to anyone.
import { descendantsWith } from './process-tree.js';

export interface Starvation {
  /** Lets the renderers run again (always: call it in a finally). */
  stop(): Promise<void>;
}

/**
 * Until `stop()`, holds this process's Chromium renderers stopped for
 * `stoppedMs`, then lets them run for `runningMs`, over and over: the
 * renderers get runningMs / (stoppedMs + runningMs) of the time.
 */
export async function starveRenderers(stoppedMs: number, runningMs: number): Promise<Starvation> {
  const pids = await descendantsWith('--type=renderer');
  if (pids.length === 0) throw new Error('no renderer of this browser found under this process');
  const signal = (name: NodeJS.Signals) => {
    for (const pid of pids) {
      try {
        process.kill(pid, name);
      } catch {
        // gone meanwhile (a closed page)
      }
    }
  };
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  let going = true;
  const loop = (async () => {
    while (going) {
      signal('SIGSTOP');
      await sleep(stoppedMs);
      signal('SIGCONT');
      await sleep(runningMs);
    }
  })();
  return {
    async stop() {
      going = false;
      await loop;
      signal('SIGCONT');
    },
  };
}
