// Peak memory of the browser a benchmark launched, from Linux's /proc: the
// proportional set size (PSS: shared pages split between the processes that
// map them, so the processes' figures add up) of every process below this
// one (Chromium's browser, renderers, GPU and utility processes), sampled
// every `everyMs`. The JS heap a page reports leaves out its workers and
// CodeMirror's DOM; this is what the machine gives the tab.
import { readdir, readFile } from 'node:fs/promises';

async function parentOf(pid: number): Promise<number | null> {
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return null;
  }
}

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
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n)).map(Number);
  const parents = new Map<number, number | null>(await Promise.all(pids.map(async (p) => [p, await parentOf(p)] as const)));
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p != null && hops < 64; p = parents.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  const mine = pids.filter(below);
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
