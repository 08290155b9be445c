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
