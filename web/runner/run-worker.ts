// The background run worker: the engine (the same WebAssembly module as the
// page's) runs a big script here, so the page stays responsive; the runner
// stops a run by ending the worker. The script arrives in slices, each
// encoded straight into the module's input buffer as it comes (a slice
// with a lone surrogate goes in as WTF-8, like run()'s); the result goes
// back as transferred buffers (run-protocol.ts), with the timeline cut to
// what a chart can use (timeline-budget.ts).
import { loadEngineAt } from '../api/engine-loader.js';
import type { Lab } from '../api/lab.js';
import { loadLabAt } from '../api/lab-loader.js';
import type { SlowStart } from '../api/slowstart.js';
import { isWasmUrls, wasmUrl } from '../api/worker-wasm.js';
import { readRun } from '../api/run-view.js';
import { isWellFormed, wtf8 } from '../api/wtf8.js';
import type { RawRun, RawTimeline } from '../wasm/engine.mjs';
import type { RunReply, RunRequest, WireLines, WireRun } from './run-protocol.js';
import { budgetTimeline } from './timeline-budget.js';

// The engine (and, for a light timeline, the lab) from the URLs the page
// sends first (web/api/start-worker.ts); statically imported loaders, so
// that this worker's graph holds no import(). A failed load is tried again
// at the next run.
let engineLoad: Promise<SlowStart> | null = null;
let labLoad: Promise<Lab> | null = null;
const retried = <T>(promise: Promise<T>, forget: () => void) => promise.catch((error: unknown) => (forget(), Promise.reject(error)));
const engine = () => (engineLoad ??= retried(wasmUrl('engine').then((url) => loadEngineAt(url)), () => (engineLoad = null)));
const loadLab = () => (labLoad ??= retried(wasmUrl('lab').then((url) => loadLabAt(url)), () => (labLoad = null)));
engine().catch(() => {}); // loading starts now; a failure is reported by the first run
const encoder = new TextEncoder();

let run = -1;
let units = 0;
let read = 0;
let written = 0;
let buffer: Uint8Array | null = null;
let lastProgress = 0;

const post = (reply: RunReply, transfer: Transferable[] = []) => (self as unknown as Worker).postMessage(reply, transfer);

self.onmessage = async (event: MessageEvent<RunRequest>) => {
  const message = event.data;
  if (isWasmUrls(message)) return;
  try {
    const module = (await engine()).module;
    if (message.type === 'begin') {
      run = message.run;
      units = message.units;
      read = written = lastProgress = 0;
      buffer = module.inputBuffer(units * 3); // UTF-8 takes at most 3 bytes per UTF-16 unit
      return;
    }
    if (message.run !== run || !buffer) return;
    if (message.type === 'slice') {
      const text = message.text;
      if (isWellFormed(text)) written += encoder.encodeInto(text, buffer.subarray(written)).written;
      else {
        const bytes = wtf8(text);
        buffer.set(bytes, written);
        written += bytes.length;
      }
      read += text.length;
      if (read - lastProgress > units / 50 || read === units) {
        lastProgress = read;
        post({ type: 'progress', run, phase: 'reading', share: units ? read / units : 1 });
      }
      return;
    }
    post({ type: 'progress', run, phase: 'running', share: 0 });
    const raw: RawRun = module.run(written, true, true); // (the script came as text: columns in its units)
    // A timeline the engine cut for its states (whole pool snapshots passed 4,000,000, as a pool
    // built by 100,000 ADD lines does at line 2,827) is recorded again, light, by the lab module
    // (which loads only then): the same run, its big pools' snapshots held to the backends the
    // views read, so the chart, the table and the pick panel reach every PICK.
    buffer = null;
    if (raw.timeline?.truncated && raw.timeline.stepLine.length < ENGINE_MAX_STEPS) {
      const thisRun = run;
      raw.timeline = await lightTimeline(module.inputBuffer(written).slice()); // (a copy: a next run may reuse the buffer meanwhile)
      if (run !== thisRun) return; // a newer run began meanwhile: this one is not wanted
    }
    const { timeline, picks } = budgetTimeline(raw.timeline!);
    const result: WireRun = {
      output: lines(raw.outputBytes, raw.outputLines),
      diagnostics: lines(raw.diagnosticBytes, raw.diagnosticLines),
      diagnosticColumns: raw.diagnosticColumns,
      timeline,
      picks,
      truncated: raw.truncated,
    };
    post({ type: 'done', run, result, memoryBytes: module.HEAP8.buffer.byteLength }, transferables(result));
  } catch (error) {
    post({ type: 'failed', run: message.run, message: error instanceof Error ? error.message : String(error) });
  }
};

/** The engine's own cap on a timeline's steps (cpp/core/timeline.hpp): a timeline cut before it was cut for its states. */
const ENGINE_MAX_STEPS = 1_000_000;

// The script's bytes run again by the lab module with a light timeline (TimelineRecorder::record_light).
async function lightTimeline(script: Uint8Array): Promise<RawTimeline> {
  const lab = (await loadLab()).module;
  lab.inputBuffer(script.length).set(script);
  try {
    return readRun(lab, lab.runLight(script.length)).timeline!;
  } finally {
    lab.releaseRun();
  }
}

// The engine joins lines with '\n' (no line contains one): where each starts.
function lines(joined: Uint8Array, numbers: Uint32Array): WireLines {
  const n = numbers.length;
  const starts = new Uint32Array(n + 1);
  let line = 1;
  for (let i = 0; i < joined.length && line < n; i++) if (joined[i] === 0x0a) starts[line++] = i + 1;
  starts[n] = joined.length + 1; // as if the last line ended in '\n' too
  let longest = 0;
  for (let i = 0; i < n; i++) longest = Math.max(longest, starts[i + 1] - starts[i] - 1);
  return { bytes: joined, starts, lines: numbers, longest };
}

function transferables(r: WireRun): Transferable[] {
  const buffers = new Set<ArrayBufferLike>();
  for (const part of [r.output, r.diagnostics]) for (const a of [part.bytes, part.starts, part.lines]) buffers.add(a.buffer);
  buffers.add(r.diagnosticColumns.buffer);
  for (const value of [...Object.values(r.timeline), ...Object.values(r.picks ?? {})]) if (ArrayBuffer.isView(value)) buffers.add(value.buffer);
  return [...buffers].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer);
}
