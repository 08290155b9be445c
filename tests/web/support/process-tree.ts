// The processes this test process started, and theirs, from Linux's /proc:
// the browser a test launched and its renderers, found without a name to
// match (other test files run their own Chromium beside ours).
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

/** Every process descended from this one. */
export async function descendants(): Promise<number[]> {
  const pids = (await readdir('/proc')).filter((n) => /^\d+$/.test(n)).map(Number);
  const parents = new Map<number, number | null>(await Promise.all(pids.map(async (p) => [p, await parentOf(p)] as const)));
  const below = (pid: number): boolean => {
    for (let p = parents.get(pid), hops = 0; p != null && hops < 64; p = parents.get(p), hops++) if (p === process.pid) return true;
    return false;
  };
  return pids.filter(below);
}

/** The descendants whose command line has `arg` (Chromium's renderers: `--type=renderer`). */
export async function descendantsWith(arg: string): Promise<number[]> {
  const found: number[] = [];
  for (const pid of await descendants()) {
    try {
      // Split at NULs and spaces: Chromium rewrites its command line as one string (setproctitle).
      if ((await readFile(`/proc/${pid}/cmdline`, 'utf8')).split(/[\0 ]/).includes(arg)) found.push(pid);
    } catch {
      // gone meanwhile
    }
  }
  return found;
}
