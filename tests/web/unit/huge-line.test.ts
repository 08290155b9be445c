// A line of any length costs no memory beyond what the script keeps: both
// CLIs take a 1 GB line (a comment, one garbage token) in the memory they
// need for a tiny script, and print the same bytes. Smaller (64 MB) lines of
// every other kind show the same; a POOL line of distinct names costs what
// the pool would keep, and no more than a million entries' worth.
//
// Memory is each CLI's peak resident set size, from build/peak_rss (it feeds
// the line through a pipe and reads wait4's ru_maxrss: tests/support/peak_rss.cpp).
import { execFileSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const PEAK_RSS = `${ROOT}/build/peak_rss`;
const CLIS = {
  native: [`${ROOT}/build/slowstart`],
  node: [process.execPath, `${ROOT}/dist/api/cli.js`],
};

interface Peak {
  peakKiB: number;
  status: number;
  seconds: number;
  stdoutLength: number;
  stdout: string;
  stderrLength: number;
  stderr: string;
}

function peak(cli: keyof typeof CLIS, kind: string, bytes: number): Peak {
  const out = execFileSync(PEAK_RSS, [kind, String(bytes), '--', ...CLIS[cli]], { encoding: 'utf8', maxBuffer: 1 << 20 });
  return JSON.parse(out) as Peak;
}

const GB = 1_000_000_000;
const MB = 1_000_000;

// What a 2-line script costs each CLI: the baseline a huge line is held to,
// with room for the CLI's own I/O (Node's stream buffers and garbage
// collector take a few tens of MB when input pours in; the engine's memory
// does not move). A line's cost growing with its length would be ~1 GB.
const baseline = { native: peak('native', 'comment', 0), node: peak('node', 'comment', 0) };
const SLACK_KIB = { native: 8 * 1024, node: 96 * 1024 };

describe('a huge line in both CLIs: same bytes, memory of a tiny script', () => {
  for (const [kind, bytes, err] of [
    ['comment', GB, ''],
    ['token', GB, "line 2: unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...'\n"],
    ['number', 64 * MB, ''],
    ['args', 64 * MB, "line 2: unexpected argument 'a' (usage: PICK)\n"],
  ] as const) {
    it(`${bytes / MB} MB ${kind} line`, () => {
      const runs = { native: peak('native', kind, bytes), node: peak('node', kind, bytes) };
      for (const cli of ['native', 'node'] as const) {
        const r = runs[cli];
        console.log(
          `${kind} ${bytes / MB} MB, ${cli}: peak ${(r.peakKiB / 1024).toFixed(1)} MiB ` +
            `(tiny script ${(baseline[cli].peakKiB / 1024).toFixed(1)} MiB), ${r.seconds} s`,
        );
        // POOL a=1 b=2, the line, PICK, PICK: b then a, whatever the line was.
        expect(r.stdout, cli).toBe('b\na\n');
        expect(r.stderr, cli).toBe(err);
        expect(r.status, cli).toBe(err ? 1 : 0);
        expect(r.peakKiB, `${cli} peak memory (KiB)`).toBeLessThan(baseline[cli].peakKiB + SLACK_KIB[cli]);
      }
    }, 300_000);
  }

  it('a 64 MB POOL line of distinct names: rejected on the count, no more kept than a million entries', () => {
    for (const cli of ['native', 'node'] as const) {
      const r = peak(cli, 'names', 64 * MB);
      console.log(`names 64 MB, ${cli}: peak ${(r.peakKiB / 1024).toFixed(1)} MiB, ${r.seconds} s`);
      expect(r.stderr, cli).toBe('line 2: a pool holds at most 1000000 backends\n');
      expect(r.stdout, cli).toBe('b\na\n');
      // A million entries of ~8-byte names, kept until the count passes the limit.
      expect(r.peakKiB - baseline[cli].peakKiB, `${cli} memory over a tiny script (KiB)`).toBeLessThan(160 * 1024);
    }
  }, 300_000);
});
