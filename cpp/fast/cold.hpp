// How the hot and the cold paths are compiled.
//
// SLOWSTART_COLD marks functions that are off the per-pick and per-line hot
// paths (weight changes, rebuilds, diagnostics): not inlined, and optimized
// for size under clang (Emscripten). The WebAssembly engine module has a
// 40 KB (gzipped) budget, and -O3 inlining these everywhere buys no speed.
#pragma once

#if defined(__clang__)
#define SLOWSTART_COLD __attribute__((noinline, minsize))
#else
#define SLOWSTART_COLD __attribute__((noinline))
#endif

// SLOWSTART_OUT_OF_LINE marks functions that script lines call now and then
// (a POOL, ADD, DOWN or UP line's change to the pool, WEIGHTS' order):
// compiled for speed but called, not inlined, so that the engine module
// keeps one copy of each. Under minsize their code in WebAssembly ran twice
// the instructions of g++'s (docs/PERFORMANCE.md).
#define SLOWSTART_OUT_OF_LINE __attribute__((noinline))

// SLOWSTART_HOT marks the few functions every script line goes through
// (reading the line and its tokens, finding its keyword): always inlined
// into their callers where the compiler can see them (Emscripten's build
// links with LTO). In WebAssembly a call costs more than natively: V8 keeps
// no register across it.
#if defined(__clang__)
#define SLOWSTART_HOT __attribute__((always_inline))
#else
#define SLOWSTART_HOT
#endif
