// How the hot and the cold paths are compiled. Each attribute here is one of
// the fast path's tricks and stays only while it earns it (docs/PERFORMANCE.md,
// the rule; each names its measurement in docs/performance-log.md).
//
// SLOWSTART_COLD marks functions that are off the per-pick and per-line hot
// paths (weight changes, rebuilds, diagnostics): not inlined, and under
// clang (Emscripten) optimized for size. The WebAssembly engine module has a
// 40 KB (gzipped) budget; without minsize it is about 1 KB larger, over the
// budget, and no faster on the 1M-line script (performance log PL-2, PL-16).
#pragma once

#if defined(__clang__)  // (minsize: the module's size budget, PL-16)
#define SLOWSTART_COLD __attribute__((noinline, minsize))
#else
#define SLOWSTART_COLD __attribute__((noinline))
#endif

// SLOWSTART_OUT_OF_LINE marks functions that script lines call now and then
// (a POOL, ADD, DOWN or UP line's change to the pool, WEIGHTS' order):
// compiled for speed but called, not inlined, so that the engine module
// keeps one copy of each. Under minsize their code in WebAssembly ran twice
// the instructions of g++'s (PL-9). Inlined instead, the 1M-line script
// runs about 2 % faster in WebAssembly, but pickMany on 3 backends takes
// 1.6 times as long, which its goal does not allow (PL-16).
#define SLOWSTART_OUT_OF_LINE __attribute__((noinline))

// SLOWSTART_HOT marks the few functions every script line goes through
// (reading the line and its tokens, finding its keyword): always inlined
// into their callers where the compiler can see them (Emscripten's build
// links with LTO). In WebAssembly a call costs more than natively: V8 keeps
// no register across it. Alone it gains 1–2 % on the 1M-line script; with
// Pool::names_ and short_bytes.hpp's WebAssembly paths, 3–5 %, which keeps
// run() within 1.3x of native (PL-14, PL-18).
#if defined(__clang__)  // (PL-14)
#define SLOWSTART_HOT __attribute__((always_inline))
#else
#define SLOWSTART_HOT
#endif
