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

// The engine's run as the API makes it (Engine.run: run_columns with the
// timeline off), its columns then copied into JavaScript as the API must
// (the module's memory may be replaced on its next call): for the mixed
// script, about 14 MB of new JavaScript memory a run.
export function runScript(raw, script) {
  raw.inputBuffer(script.length).set(script);
  raw.run(script.length, false);
}

// The same run in the module alone: run_columns with the timeline off, its
// columns published in the module's memory and released, nothing copied
// out. The work native run_columns does, so the two can be compared.
// `m` is the Emscripten module itself (loadEngineModule).
export function runInModule(m, script) {
  const at = m._ss_input(script.length); // (first: it may grow the memory, and replace HEAPU8)
  m.HEAPU8.set(script, at);
  m._ss_run(script.length, 0);
  m._ss_release_run();
}

// The engine's Emscripten module from a dist/ directory, without the API.
export async function loadEngineModule(dist) {
  const { readFileSync } = await import('node:fs');
  const { default: createEngine } = await import(`${dist}/wasm/engine.mjs`);
  return createEngine({ wasmBinary: readFileSync(`${dist}/wasm/engine.wasm`) });
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
