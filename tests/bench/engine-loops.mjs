// What bench.mjs and alternate.mjs time, in one place so that both time the
// same thing: the engine's two paths in WebAssembly and CPU time.
import { spawnSync } from 'node:child_process';

// The Node CLI's path: the script in 64 KiB chunks into the module's
// TextRunner (the CLIs' shared text sink), its output taken as it comes.
export function feedInChunks(raw, script) {
  const r = new raw.TextRunner();
  for (let at = 0; at < script.length; at += 65536) {
    let chunk = script.subarray(at, at + 65536);
    while (chunk.length) {
      raw.inputBuffer(chunk.length).set(chunk);
      chunk = chunk.subarray(r.feed(chunk.length));
      r.takeOutput();
      r.takeDiagnostics();
    }
  }
  r.finish();
  r.delete();
}

// run_script with the timeline off, before any JS objects are made.
export function runScript(raw, script) {
  raw.inputBuffer(script.length).set(script);
  raw.run(script.length, false);
}

// CPU milliseconds this process spends in fn (JavaScript and WebAssembly).
export const cpuMs = (fn) => {
  const start = process.cpuUsage();
  fn();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
};

// A command's CPU time (user + system, ms), its output thrown away.
export function cpuOf(cmd, args) {
  const quote = (a) => `'${a.replaceAll("'", "'\\''")}'`;
  const r = spawnSync('bash', ['-c', `TIMEFORMAT='%3U %3S'; time ${[cmd, ...args].map(quote).join(' ')} >/dev/null 2>&1`], {
    encoding: 'utf8',
  });
  if (r.error) throw r.error;
  const [user, system] = r.stderr.trim().split(/\s+/).slice(-2).map(Number);
  return (user + system) * 1000;
}

export const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
