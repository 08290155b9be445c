// Work that test files running at the same time (in different workers)
// share: done once per Vitest run, by whichever file asks first, in a folder
// of the run's (SLOWSTART_TEST_RUN, tests/web/support/global-setup.ts); the
// others wait for its result.
import { existsSync, mkdirSync, readFileSync, renameSync, watch, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const mine = new Map<string, Promise<unknown>>();

/** `make(dir)`'s result (JSON), made once per run in a folder of its own named `key`. */
export function oncePerRun<T>(key: string, make: (dir: string) => Promise<T>): Promise<T> {
  let p = mine.get(key) as Promise<T> | undefined;
  if (!p) {
    p = (async () => {
      const run = process.env.SLOWSTART_TEST_RUN ?? (await mkdtemp(join(tmpdir(), 'slowstart-run-')));
      const dir = join(run, key);
      const result = join(run, `${key}.json`);
      const failure = join(run, `${key}.failed.txt`);
      let first = true;
      try {
        mkdirSync(dir); // atomic: one caller gets to make it
      } catch {
        first = false;
      }
      if (first) {
        try {
          const made = await make(dir);
          writeFileSync(`${result}.tmp`, JSON.stringify(made));
          renameSync(`${result}.tmp`, result);
          return made;
        } catch (e) {
          writeFileSync(failure, String((e as Error).stack ?? e));
          throw e;
        }
      }
      for (;;) {
        if (existsSync(result)) return JSON.parse(readFileSync(result, 'utf8')) as T;
        if (existsSync(failure)) throw new Error(`${key} failed in another test file:\n${readFileSync(failure, 'utf8')}`);
        await changeIn(run, () => existsSync(result) || existsSync(failure));
      }
    })();
    mine.set(key, p);
  }
  return p;
}

/** Resolves at the next change in `folder` (a state, not a time), or at once when `done()` already holds. */
function changeIn(folder: string, done: () => boolean): Promise<void> {
  return new Promise((ok) => {
    const watcher = watch(folder, () => {
      watcher.close();
      ok();
    });
    // Checked after the watch is set, so a file made in between is not missed.
    if (done()) {
      watcher.close();
      ok();
    }
  });
}
