// Peak memory of the browser a benchmark launched, from Linux's /proc: the
// proportional set size (PSS: shared pages split between the processes that
// map them, so the processes' figures add up) of every process below this
// one (Chromium's browser, renderers, GPU and utility processes), sampled
// every `everyMs`. The JS heap a page reports leaves out its workers and
// CodeMirror's DOM; this is what the machine gives the tab.
import { readFile } from 'node:fs/promises';
import { descendants } from './process-tree.js';

async function pssKb(pid: number): Promise<number> {
  try {
    const rollup = await readFile(`/proc/${pid}/smaps_rollup`, 'utf8');
    return Number(/^Pss:\s+(\d+) kB/m.exec(rollup)?.[1] ?? 0);
  } catch {
    return 0; // gone meanwhile
  }
}

/** The PSS, in bytes, of every process descended from this one. */
export async function descendantsPss(): Promise<number> {
  const mine = await descendants();
  return (await Promise.all(mine.map(pssKb))).reduce((s, kb) => s + kb, 0) * 1024;
}

/** Samples descendantsPss() until stop() is called; stop() resolves with the peak, in bytes. */
export function samplePeakMemory(everyMs = 100): { stop(): Promise<number> } {
  let peak = 0;
  let going = true;
  const loop = (async () => {
    while (going) {
      peak = Math.max(peak, await descendantsPss());
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      going = false;
      await loop;
      return peak;
    },
  };
}
