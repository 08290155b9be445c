/**
 * The learner's JavaScript, run inside QuickJS compiled to WebAssembly
 * (quickjs-emscripten), so that memory, time and reach are limited by the
 * runtime itself and not by the learner's good behaviour:
 *
 * - **memory**: QuickJS's WebAssembly memory has a maximum, so allocating
 *   past it fails inside QuickJS ("out of memory") and never grows the tab.
 *   (QuickJS's own `setMemoryLimit` is not enough in these builds: without
 *   `malloc_usable_size` it counts 8 bytes per allocation, whatever its
 *   size; quickjs-emscripten issues #255 and #271.) Each session is a fresh
 *   runtime, freed after its test;
 * - **time**: measured in work, not on the clock (time-budget.ts says
 *   why): QuickJS asks an interrupt handler every 10,000 function calls or
 *   loop iterations (and in regular expressions), and each time it asks
 *   spends a unit of the test's fuel; code that spends it all is stopped,
 *   at the same place on a fast machine and a busy one. Native work spends
 *   no fuel, so the clock is kept as a backstop, counting only the time
 *   inside the learner's calls (checked by the handler and before each
 *   call); the page's worker-level limit (client.ts) stays as the outer
 *   guard;
 * - **stack**: QuickJS's own stack limit, set well below what the host's
 *   stack allows, turns deep recursion into "InternalError: stack
 *   overflow"; the rare native recursion QuickJS cannot see (parsing
 *   100,000 nested parentheses) overflows the host's stack instead, and
 *   that instance is thrown away and reloaded;
 * - **reach**: the context has JavaScript's built-ins and nothing else: no
 *   `fetch`, no `import()` loader, no `postMessage`, no `self`;
 * - **what crosses**: the harness (harness.ts) hands the host numbers and
 *   capped strings only; the host never reads a property of a learner's
 *   object.
 *
 * A session implements `LearnerRules`, so grading uses it like any rules.
 */
// QuickJS's glue and FFI imported statically, and the module made here
// rather than by quickjs-emscripten's variant loader: that loader imports
// its parts with import(), and a worker's module graph must hold none
// (Vite up to 7 builds workers as one classic script).
import createQuickJS from '@jitl/quickjs-wasmfile-release-sync/emscripten-module';
import { QuickJSFFI } from '@jitl/quickjs-wasmfile-release-sync/ffi';
import { QuickJSWASMModule, type QuickJSContext, type QuickJSHandle, type QuickJSRuntime } from 'quickjs-emscripten-core';
import { LearnerException, Opaque, type LearnerRules, type PickBackend } from '../learner-rules.js';
import {
  HARNESS_SOURCE,
  HAS_EFFECTIVE_WEIGHT,
  HAS_ON_JOIN,
  HAS_PICK,
  HEADROOM_BYTES,
  LEARNER_FILE,
  type HarnessReport,
} from './harness.js';
import { NO_WINNER } from '../../api/winners.js';
import { LOOP_MARK, markLoops } from './loop-marks.js';
import { backstopMs, fuelFor } from './time-budget.js';

export interface SandboxOptions {
  /** All of QuickJS's WebAssembly memory, bytes (default `DEFAULT_MEMORY_BYTES`): a multiple of 64 KiB, at least 32 MiB. */
  memoryBytes?: number;
  /**
   * Where QuickJS's .wasm is. In a browser the page says (the worker's graph
   * names no .wasm: web/api/start-worker.ts); without it, the glue finds
   * its own (Node reads it from next to the glue).
   */
  wasmUrl?: string;
}

export interface SandboxLimits {
  /**
   * The time limit of the learner's code in one session (top-level code and
   * every call together), ms: `fuelFor(timeMs)` units of work, with the
   * clock stopping native work at `backstopMs(timeMs)` (time-budget.ts).
   */
  timeMs: number;
  /** QuickJS's stack limit, bytes (default `DEFAULT_STACK_BYTES`). */
  stackBytes?: number;
}

/**
 * 64 MiB of WebAssembly memory for QuickJS: 16 MiB of it is QuickJS's own
 * (its stack and data) and the first heap, the rest is for the learner's
 * data. Far more than any solution needs, small enough for several
 * runners on one page.
 */
export const DEFAULT_MEMORY_BYTES = 64 * 1024 * 1024;
/** What the prebuilt QuickJS module starts with (its INITIAL_MEMORY). */
const INITIAL_MEMORY_BYTES = 16 * 1024 * 1024;
const PAGE = 64 * 1024;
/**
 * 64 KiB of QuickJS stack: about 370 plain recursive calls. Each QuickJS
 * frame also uses the host's native stack (2–6 times as much, measured), and
 * a Chromium worker's native stack is about half of Node's 984 KiB, so a
 * larger limit would let recursion overflow the host first.
 */
export const DEFAULT_STACK_BYTES = 64 * 1024;
/** Longest report the host copies out of QuickJS (the harness caps its texts far below). */
const MAX_REPORT_CHARS = 64 * 1024;

/** Why the learner's code could not be made into a session. */
/** Why the learner's code did not load (the implement view's banner words it). */
export type LoadFailure = 'syntax' | 'threw' | 'memory' | 'time' | 'missing';

export interface OpenError {
  message: string;
  /** Line of the learner's code, when known. */
  codeLine?: number;
  /** What went wrong, when it is the learner's code (absent: the sandbox itself failed). */
  reason?: LoadFailure;
  /** True when the top-level code ran out of time (an endless loop outside the functions). */
  timedOut?: boolean;
}

/**
 * How a session ended early: out of time, out of memory, or the sandbox
 * itself failed (and is replaced before the next session).
 */
export type SessionStop = 'time' | 'memory' | 'broken';

/** The harness's entry points (harness.ts), as handles read before the learner's code runs. */
const ENTRY_NAMES = ['bind', 'report', 'room', 'weight', 'name', 'pick', 'join'] as const;
type Entries = Record<(typeof ENTRY_NAMES)[number], QuickJSHandle>;
/** What the host passes to the harness: its own numbers and strings, pick's data, or an exception QuickJS caught. */
type HarnessArg = number | string | Float64Array | QuickJSHandle;

function hostFailure(e: unknown): string {
  const text = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  if (e instanceof RangeError && /call stack/i.test(e.message)) {
    return 'stack overflow: your code recursed too deeply (or built data nested too deeply for JavaScript to walk)';
  }
  return `the sandbox running your code failed (${text.slice(0, 200)})`;
}

const OUT_OF_MEMORY = /^InternalError: out of memory\b/;

/** Hints for QuickJS's own limits, so the learner knows which limit was hit. */
function withHint(message: string, memoryBytes: number): string {
  if (OUT_OF_MEMORY.test(message)) return `${message} (the sandbox has ${memoryBytes / 1024 / 1024} MB in all)`;
  if (/^(InternalError|RangeError): stack overflow\b/.test(message)) return `${message} (too deep a recursion?)`;
  return message;
}

async function loadQuickJS(memoryBytes: number, wasmUrl: string | undefined): Promise<QuickJSWASMModule> {
  if (memoryBytes % PAGE !== 0 || memoryBytes < 2 * INITIAL_MEMORY_BYTES) {
    throw new RangeError(`memoryBytes must be a multiple of 64 KiB and at least ${2 * INITIAL_MEMORY_BYTES}`);
  }
  const wasmMemory = new WebAssembly.Memory({ initial: INITIAL_MEMORY_BYTES / PAGE, maximum: memoryBytes / PAGE });
  // Emscripten's messages stay out of the console unless loading fails (then they are the error's).
  const said: string[] = [];
  const keep = (text: string) => said.push(text);
  const options = { wasmMemory, print: keep, printErr: keep, ...(wasmUrl ? { locateFile: () => wasmUrl } : {}) };
  let module;
  try {
    module = await createQuickJS(options);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new Error(`QuickJS could not be loaded from ${wasmUrl ?? 'next to its glue'}: ${why}${said.length ? ` (${said.slice(0, 3).join('; ')})` : ''}`);
  }
  module.type = 'sync';
  return new QuickJSWASMModule(module, new QuickJSFFI(module));
}

/**
 * At most how many bytes the host allocates in QuickJS's heap to pass
 * these arguments: UTF-8 strings, and an array's bytes three times (copied
 * in, into an ArrayBuffer, and out).
 */
function argumentBytes(args: HarnessArg[]): number {
  let bytes = 0;
  for (const a of args) {
    if (typeof a === 'string') bytes += 3 * a.length + 1;
    else if (a instanceof Float64Array) bytes += 3 * a.byteLength;
  }
  return bytes;
}

/**
 * One QuickJS WebAssembly instance. It runs one session at a time; a host
 * failure inside it (see above) spoils it, and `ready()` replaces it.
 */
export class LearnerSandbox {
  #module: QuickJSWASMModule;
  #spoiled = false;
  readonly memoryBytes: number;
  readonly #wasmUrl: string | undefined;

  private constructor(module: QuickJSWASMModule, memoryBytes: number, wasmUrl: string | undefined) {
    this.#module = module;
    this.memoryBytes = memoryBytes;
    this.#wasmUrl = wasmUrl;
  }

  /** Loads QuickJS (its .wasm from `options.wasmUrl`, or next to the glue: the browser fetches it, Node reads it). */
  static async load(options: SandboxOptions = {}): Promise<LearnerSandbox> {
    const memoryBytes = options.memoryBytes ?? DEFAULT_MEMORY_BYTES;
    return new LearnerSandbox(await loadQuickJS(memoryBytes, options.wasmUrl), memoryBytes, options.wasmUrl);
  }

  /** False once a failure spoiled this instance; `ready()` loads a fresh one. */
  get usable(): boolean {
    return !this.#spoiled;
  }

  /** Makes sure the instance is usable (reloading QuickJS if a failure spoiled it). */
  async ready(): Promise<void> {
    if (!this.#spoiled) return;
    this.#module = await loadQuickJS(this.memoryBytes, this.#wasmUrl);
    this.#spoiled = false;
  }

  /** @internal Called by a session whose instance failed. */
  spoil(): void {
    this.#spoiled = true;
  }

  /**
   * Runs the learner's source (its top-level code) in a fresh runtime and
   * binds its functions. The session's time starts with the learner's code
   * (after the sandbox's own harness has loaded).
   */
  open(source: string, limits: SandboxLimits): { session: SandboxSession } | { error: OpenError } {
    if (this.#spoiled) return { error: { message: 'the sandbox is being reloaded after a failure; run the tests again' } };
    try {
      const runtime = this.#module.newRuntime();
      // Also refuses any single allocation larger than the whole memory at once.
      runtime.setMemoryLimit(this.memoryBytes);
      runtime.setMaxStackSize(limits.stackBytes ?? DEFAULT_STACK_BYTES);
      const context = runtime.newContext();
      // Marked before the session's time starts: it is the host's work, not the learner's.
      const marked = markLoops(source);
      const session = new SandboxSession(this, runtime, context, limits.timeMs);
      const error = session.start(source, marked);
      if (error) {
        session.dispose();
        return { error };
      }
      return { session };
    } catch (e) {
      // A host-level failure while loading the code (e.g. source nested too
      // deeply to parse): this instance cannot be trusted any more.
      this.spoil();
      return { error: { message: hostFailure(e) } };
    }
  }
}

/** The learner's code loaded in a fresh QuickJS runtime: one test's worth of calls. */
export class SandboxSession implements LearnerRules {
  readonly #sandbox: LearnerSandbox;
  readonly #runtime: QuickJSRuntime;
  readonly #context: QuickJSContext;
  readonly #memoryBytes: number;
  // No limit while the harness (the sandbox's own code) loads: the learner's budget starts after it.
  #fuel = Number.POSITIVE_INFINITY;
  #backstopMs = Number.POSITIVE_INFINITY;
  /** Interrupt-handler calls since the budget started (time-budget.ts). */
  #fuelSpent = 0;
  /** Time spent inside QuickJS since the budget started, calls finished so far; and when the running call started. */
  #spentMs = 0;
  #callStart: number | undefined;
  readonly #timeMs: number;
  #entries: Entries | undefined;
  #names: string[] = [];
  #stopped: SessionStop | undefined;
  #interrupted = false;
  #stoppedLine: number | undefined;
  #stoppedInLoop = false;
  #reordered = false;
  #disposed = false;
  onJoin?: (backend: { name: string; score: number }) => void;

  /** @internal Use `LearnerSandbox.open`. */
  constructor(sandbox: LearnerSandbox, runtime: QuickJSRuntime, context: QuickJSContext, timeMs: number) {
    this.#sandbox = sandbox;
    this.#runtime = runtime;
    this.#context = context;
    this.#memoryBytes = sandbox.memoryBytes;
    this.#timeMs = timeMs;
    runtime.setInterruptHandler(() => {
      this.#fuelSpent++;
      if (this.#fuelSpent <= this.#fuel && this.#learnerMs() <= this.#backstopMs) return false;
      this.#interrupted = true;
      return true;
    });
  }

  /** Set when the session ended early; later calls return safe values without running anything. */
  get stopped(): SessionStop | undefined {
    return this.#stopped;
  }

  /** True when the last pick returned an index after reordering the array it was given (learner-rules.ts says why). */
  pickReordered(): boolean {
    return this.#reordered;
  }

  /** The line of the learner's loop that was running when time ran out (loop-marks.ts), else the line QuickJS's stack gives (the running function's last call, or its start); when known. */
  get stoppedLine(): number | undefined {
    return this.#stoppedLine;
  }

  /** True when `stoppedLine` is the line of a loop (not only of the function it is in). */
  get stoppedInLoop(): boolean {
    return this.#stoppedInLoop;
  }

  /** Units of fuel the learner's code has spent since its budget started: interrupt-handler calls (time-budget.ts). */
  get fuelSpent(): number {
    return this.#fuelSpent;
  }

  /**
   * Gives the session a new budget for `timeMs` (for the next test: the
   * learner's code and its globals carry on, as in one program). False when
   * the session has stopped: open a new one.
   */
  renew(timeMs: number): boolean {
    if (this.#stopped || this.#disposed) return false;
    this.#budget(timeMs);
    return true;
  }

  #budget(timeMs: number): void {
    this.#fuel = fuelFor(timeMs);
    this.#fuelSpent = 0;
    this.#backstopMs = backstopMs(timeMs);
    this.#spentMs = 0;
  }

  /** Time spent inside QuickJS since the budget started, ms: the clock the backstop reads. */
  #learnerMs(): number {
    return this.#spentMs + (this.#callStart === undefined ? 0 : performance.now() - this.#callStart);
  }

  /** Runs `f`, which runs QuickJS, with its time counted as the learner's (the backstop's clock). */
  #inQuickJS<T>(f: () => T): T {
    const start = performance.now();
    this.#callStart = start;
    try {
      return f();
    } finally {
      this.#callStart = undefined;
      this.#spentMs += performance.now() - start;
    }
  }

  /** @internal Loads the harness, then the learner's code (`marked`: with its loops marked, loop-marks.ts). */
  start(source: string, marked: string | null = null): OpenError | undefined {
    const ctx = this.#context;
    const harness = ctx.evalCode(HARNESS_SOURCE, 'slowstart-harness.js');
    if (harness.error) {
      const why = String(ctx.dump(harness.error));
      harness.error.dispose();
      throw new Error(`the harness did not load (${why})`);
    }
    const entries = {} as Entries;
    for (const key of ENTRY_NAMES) entries[key] = ctx.getProp(harness.value, key);
    harness.value.dispose();
    this.#entries = entries;

    // The learner's budget starts here: a page under load can take seconds over the harness.
    this.#budget(this.#timeMs);
    // Each loop says its line as it runs (loop-marks.ts); marked code QuickJS
    // refuses (a grammar the two parsers read differently) is loaded as it is.
    const code = this.#compiles(marked) ?? source;
    const loaded = this.#inQuickJS(() => ctx.evalCode(code, LEARNER_FILE));
    if (loaded.error) {
      // The harness describes what the top-level code threw.
      const described = this.#interrupted ? 0 : this.#call(entries.report, [loaded.error]);
      loaded.error.dispose();
      if (this.#interrupted) {
        const line = this.#loopLine();
        return {
          message: `your code did not finish loading: is there an endless loop outside the functions${line ? ` (the loop on your line ${line})` : ''}?`,
          timedOut: true,
          reason: 'time',
          ...(line ? { codeLine: line } : {}),
        };
      }
      const report = typeof described === 'string' ? this.#parse(described) : {};
      const threw = report.threw ?? 'InternalError: out of memory';
      const reason = OUT_OF_MEMORY.test(threw) ? 'memory' : /^SyntaxError\b/.test(threw) ? 'syntax' : 'threw';
      return { message: withHint(threw, this.#memoryBytes), codeLine: report.line || undefined, reason };
    }
    loaded.value.dispose();

    const bits = this.#call(entries.bind, []);
    if (typeof bits === 'string') {
      const r = this.#parse(bits);
      if (this.#interrupted) return { message: 'looking up your functions did not finish (an endless loop in a getter?)', timedOut: true, reason: 'time' };
      return {
        message: `looking up your functions: ${withHint(r.threw ?? 'out of memory', this.#memoryBytes)}`,
        codeLine: r.line || undefined,
        reason: r.threw === undefined || OUT_OF_MEMORY.test(r.threw) ? 'memory' : 'threw',
      };
    }
    if (!(bits & HAS_EFFECTIVE_WEIGHT)) return { message: 'define a function effectiveWeight(target, ramp, joined, now)', reason: 'missing' };
    if (!(bits & HAS_PICK)) return { message: 'define a function pick(backends)', reason: 'missing' };
    if (bits & HAS_ON_JOIN) this.onJoin = (backend) => this.#join(backend);
    return undefined;
  }

  effectiveWeight(target: number, ramp: number, joined: number, now: number): number | Opaque {
    const r = this.#run(this.#entries!.weight, [target, ramp, joined, now]);
    if (r === undefined) return 0;
    if (typeof r === 'number') return r;
    return new Opaque(r.returned ?? 'something else');
  }

  pick(backends: PickBackend[]): number | Opaque | null {
    this.#reordered = false;
    const n = backends.length;
    const data = new Float64Array(3 * n + 1);
    backends.forEach((b, i) => {
      data[3 * i] = b.weight;
      data[3 * i + 1] = b.score;
      data[3 * i + 2] = b.up ? 1 : 0;
    });
    for (const [i, b] of backends.entries()) {
      if (this.#names[i] === b.name) continue;
      if (this.#run(this.#entries!.name, [i, b.name]) === undefined) return null;
      this.#names[i] = b.name;
    }
    const r = this.#run(this.#entries!.pick, [data, n]);
    if (r === undefined) return null;
    const report = typeof r === 'number' ? {} : r;
    this.#reordered = report.reordered === true;
    backends.forEach((b, i) => {
      const note = report.scores?.[String(i)];
      // An Opaque score is for the checks in toScriptRules to report.
      (b as { score: number | Opaque }).score = note !== undefined ? new Opaque(note) : data[3 * i + 1];
    });
    if (report.returned !== undefined) return new Opaque(report.returned);
    const winner = data[3 * n];
    return winner === NO_WINNER ? null : winner; // (the harness writes NO_WINNER for NONE)
  }

  #join(backend: { name: string; score: number | Opaque }): void {
    const r = this.#run(this.#entries!.join, [backend.name, backend.score as number]);
    if (r === undefined) return;
    if (typeof r === 'number') backend.score = r;
    // An Opaque score is for the checks in toScriptRules to report.
    else if (r.scores?.['0'] !== undefined) backend.score = new Opaque(r.scores['0']);
  }

  /** Frees the runtime. Safe to call twice, and after a failure. */
  dispose(): void {
    if (this.#disposed) return;
    this.#disposed = true;
    if (!this.#sandbox.usable) return; // a spoiled instance is dropped whole
    try {
      if (this.#entries) for (const key of ENTRY_NAMES) this.#entries[key].dispose();
      this.#context.dispose();
      this.#runtime.dispose();
    } catch {
      this.#sandbox.spoil();
    }
  }

  /**
   * One call into QuickJS, unless the session has stopped. Gives the number
   * the harness returned, or its report; undefined when the call did not run
   * or ran out of time (the session then stops). An exception of the
   * learner's is thrown as a LearnerException. Running out of memory stops
   * the session, and so does a host-level failure, which also spoils the
   * instance: both are reported once, as the learner's problem.
   */
  #run(fn: QuickJSHandle, args: HarnessArg[]): number | HarnessReport | undefined {
    if (this.#stopped || this.#disposed) return undefined;
    // Calls that each do a lot in one native operation ("x".repeat(1e7))
    // rarely reach QuickJS's interrupt check: the backstop is checked here too.
    if (this.#learnerMs() > this.#backstopMs) {
      this.#stopped = 'time';
      return undefined;
    }
    let r: number | string;
    try {
      // Every call leaves HEADROOM_BYTES free for the next; more than about
      // that (a large pool, a long name) is checked for first.
      const need = argumentBytes(args);
      if (need > HEADROOM_BYTES / 2 && this.#call(this.#entries!.room, [need]) !== 1) {
        return this.#outOfMemory('InternalError: out of memory (too little left for the data of this call)');
      }
      r = this.#call(fn, args);
    } catch (e) {
      this.#stopped = 'broken';
      this.#sandbox.spoil();
      throw new LearnerException(hostFailure(e));
    }
    if (this.#interrupted) {
      this.#stopped = 'time';
      return undefined;
    }
    if (typeof r === 'number') return r;
    const report = this.#parse(r);
    if (report.threw !== undefined && OUT_OF_MEMORY.test(report.threw)) return this.#outOfMemory(report.threw, report.line);
    if (report.exhausted) return this.#outOfMemory(undefined, report.line);
    if (report.threw !== undefined) throw new LearnerException(withHint(report.threw, this.#memoryBytes), report.line || undefined);
    return report;
  }

  #outOfMemory(message = 'InternalError: out of memory', codeLine?: number): never {
    this.#stopped = 'memory';
    throw new LearnerException(withHint(message, this.#memoryBytes), codeLine || undefined);
  }

  /**
   * Calls a harness entry with numbers, strings, a Float64Array (copied
   * into QuickJS as an ArrayBuffer, and back out after the call) or a
   * handle QuickJS gave (an exception); gives back the number or the string
   * the harness returned. Only QuickJS's own errors escape the harness (it
   * catches the learner's): interrupted, or out of memory in the harness
   * itself, reported as exhausted.
   */
  #call(fn: QuickJSHandle, args: HarnessArg[]): number | string {
    const ctx = this.#context;
    const made: QuickJSHandle[] = [];
    try {
      const handles = args.map((a) => {
        if (typeof a === 'object' && !(a instanceof Float64Array)) return a;
        const h = typeof a === 'number' ? ctx.newNumber(a) : typeof a === 'string' ? ctx.newString(a) : ctx.newArrayBuffer(a.buffer);
        made.push(h);
        return h;
      });
      this.#setLoopLine(0); // a loop of an earlier call is not this call's
      const result = this.#inQuickJS(() => ctx.callFunction(fn, ctx.undefined, handles));
      if (result.error) {
        if (this.#interrupted) {
          const loop = this.#loopLine();
          this.#stoppedInLoop = loop !== undefined;
          this.#stoppedLine = loop ?? this.#codeLineOf(result.error);
        }
        result.error.dispose();
        return this.#interrupted ? 0 : JSON.stringify({ exhausted: true } satisfies HarnessReport);
      }
      args.forEach((a, i) => {
        if (!(a instanceof Float64Array)) return;
        const bytes = ctx.getArrayBuffer(handles[i]);
        try {
          a.set(new Float64Array(bytes.value.slice().buffer, 0, a.length));
        } finally {
          bytes.dispose();
        }
      });
      const value = result.value;
      try {
        const type = ctx.typeof(value);
        if (type === 'number') return ctx.getNumber(value);
        // The harness caps its reports far below this; the check is for the day it would not.
        const text = type === 'string' ? ctx.getString(value) : '';
        return text.length > 0 && text.length <= MAX_REPORT_CHARS ? text : JSON.stringify({ threw: 'the sandbox gave an unexpected answer' });
      } finally {
        value.dispose();
      }
    } finally {
      for (const h of made) h.dispose();
    }
  }

  // The line of the loop that was running when time ran out (loop-marks.ts), if any.
  // Only a read of a plain data property: the interrupted runtime runs nothing more.
  #loopLine(): number | undefined {
    try {
      const mark = this.#context.getProp(this.#context.global, LOOP_MARK);
      try {
        const line = this.#context.typeof(mark) === 'number' ? this.#context.getNumber(mark) : 0;
        return Number.isInteger(line) && line > 0 ? line : undefined;
      } finally {
        mark.dispose();
      }
    } catch {
      return undefined;
    }
  }

  #setLoopLine(line: number): void {
    const value = this.#context.newNumber(line);
    try {
      this.#context.setProp(this.#context.global, LOOP_MARK, value);
    } finally {
      value.dispose();
    }
  }

  // `code` if QuickJS compiles it (compiling runs nothing), else null.
  #compiles(code: string | null): string | null {
    if (code === null) return null;
    const compiled = this.#context.evalCode(code, LEARNER_FILE, { compileOnly: true });
    const ok = !compiled.error;
    (compiled.error ?? compiled.value).dispose();
    return ok ? code : null;
  }

  // The first frame in the learner's code of an error's stack ("at pick (your-code.js:12:5)").
  // Only a property read: the interrupted runtime runs nothing more.
  #codeLineOf(error: QuickJSHandle): number | undefined {
    try {
      const stack = this.#context.getProp(error, 'stack');
      try {
        const text = this.#context.typeof(stack) === 'string' ? this.#context.getString(stack) : '';
        const m = new RegExp(`${LEARNER_FILE.replace('.', '\\.')}:(\\d+)`).exec(text.slice(0, 10_000));
        return m ? Number(m[1]) : undefined;
      } finally {
        stack.dispose();
      }
    } catch {
      return undefined;
    }
  }

  #parse(text: string): HarnessReport {
    try {
      const r = JSON.parse(text) as HarnessReport;
      return r && typeof r === 'object' ? r : {};
    } catch {
      return { threw: 'the sandbox gave an unreadable answer' };
    }
  }
}
