// "Copy as command" as a user meets it: the lines pasted into a real shell
// (bash, in an empty folder) write the run's script byte for byte, hostile
// bytes included, and run `slowstart simulate` with the run's options; both
// CLIs (npm's and the native one) print the same bytes as the CLI given the
// options directly, and the numbers are the lab's own run's.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { flapOptions, CURES, DEFAULT_SETTINGS, trapOptions } from '../../../web/traffic/lab-settings.js';
import { SCRIPT_FILE, shellWord, simulateCommand } from '../../../web/traffic/simulate-command.js';
import { CLI_COMMAND, type Cli } from '../support/grade-cli.js';
import { lab } from '../support/lab.js';

const ROLLING = 'POOL a=1 b=1 c=1 d=1\nNOW 30\nDOWN b\nNOW 40\nUP b 60\n';

// The folders paste() made, removed when the file's tests are done (a CI machine runs this often).
const folders: string[] = [];
afterAll(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** Runs `lines` in bash in a fresh folder where `slowstart` is `cli` (the package's bin, or the native build). */
function paste(lines: string, cli: Cli, extra: string[] = []): { stdout: string; stderr: string; status: number | null; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'slowstart-paste-'));
  folders.push(folder);
  const bin = join(folder, '.bin');
  mkdirSync(bin);
  const shim = join(bin, 'slowstart');
  writeFileSync(shim, `#!/bin/sh\nexec ${CLI_COMMAND[cli].map(shellWord).join(' ')} "$@" ${extra.map(shellWord).join(' ')}\n`);
  chmodSync(shim, 0o755);
  const r = spawnSync('bash', ['-c', lines], { cwd: folder, encoding: 'utf8', env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
  return { ...r, folder };
}

describe('a run as shell lines', () => {
  it('quotes only what the shell would read otherwise', () => {
    expect(shellWord('--rps')).toBe('--rps');
    expect(shellWord('0.05')).toBe('0.05');
    expect(shellWord('least-request')).toBe('least-request');
    expect(shellWord('a b')).toBe("'a b'");
    expect(shellWord("it's")).toBe(`'it'\\''s'`);
    expect(shellWord('$HOME')).toBe("'$HOME'");
    expect(shellWord('')).toBe("''");
  });

  it('writes the script in a quoted here-document, then the command', () => {
    expect(simulateCommand(ROLLING, ['--rps', '1000', '--health', 'envoy'])).toBe(
      "cat > scenario.txt <<'SCENARIO'\n" + ROLLING + 'SCENARIO\nslowstart simulate --rps 1000 --health envoy scenario.txt\n',
    );
    // A script with a line that is the marker gets another marker; one without a last line break gets one.
    expect(simulateCommand('# SCENARIO\nSCENARIO\nPOOL a=1', [])).toBe(
      "cat > scenario.txt <<'SCENARIO_2'\n# SCENARIO\nSCENARIO\nPOOL a=1\nSCENARIO_2\nslowstart simulate scenario.txt\n",
    );
  });

  it('pasted into bash, writes the script byte for byte, whatever it holds', () => {
    const hostile = "# $HOME `rm -rf /` $(echo no) \\n 'quoted' \"double\" ümlaut\t\n# SCENARIO\nPOOL a=1 b=1\nNOW 5\nADD c=1 10\n";
    const r = paste(simulateCommand(hostile, ['--rps', '10']), 'native');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readFileSync(join(r.folder, SCRIPT_FILE), 'utf8')).toBe(hostile);
  });
});

describe('a lab run copied as a command, through both CLIs', () => {
  const defaults = lab.trafficDefaults() as never;
  // The rolling restart's no-slow-start run as the lab sets it (Envoy's check, escalation off: b flaps), and the trap's service-only run.
  const runs = [
    { name: 'a flapping run', options: flapOptions(1536, 300, 0.1, DEFAULT_SETTINGS, CURES[0], defaults) },
    { name: 'a trap run', options: trapOptions(900, { ...DEFAULT_SETTINGS, coldFactor: 8, warmup: 45 }, 0.5, false, defaults) },
  ];
  for (const { name, options } of runs) {
    it(`${name}: the same bytes from both CLIs, the lab's numbers in them`, () => {
      const lines = simulateCommand(ROLLING, lab.simulateArguments(options));
      const native = paste(lines, 'native', ['--summary', 'json']);
      const node = paste(lines, 'node', ['--summary', 'json']);
      expect(native.stderr).toBe('');
      expect(native.status).toBe(0);
      expect(node.stdout).toBe(native.stdout);
      // The lab's own run with those options (the API the worker calls): the same counts per backend, the same stable moment.
      const t = lab.simulate(ROLLING, options);
      const summary = JSON.parse(native.stdout) as { stable_at: number | null; backends: Array<{ name: string; requests: number; failed: number; ejections: number }> };
      const n = t.names.length;
      const sum = (col: ArrayLike<number>, id: number) => {
        let s = 0;
        for (let k = 0; k < t.buckets; k++) s += col[k * n + id];
        return s;
      };
      expect(summary.backends.map((b) => b.name)).toEqual([...t.names]);
      expect(summary.backends.map((b) => b.requests)).toEqual(t.names.map((_, id) => sum(t.requests, id)));
      expect(summary.backends.map((b) => b.failed)).toEqual(t.names.map((_, id) => sum(t.failed, id)));
      expect(summary.backends.map((b) => b.ejections)).toEqual([...t.ejections]);
      expect(summary.stable_at).toBe(t.stableAt);
      if (name === 'a flapping run') expect(summary.backends[1].ejections).toBeGreaterThan(2);
    });
  }
});
