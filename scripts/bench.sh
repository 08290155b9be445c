#!/usr/bin/env bash
# Benchmarks: native (Google Benchmark) and WASM vs native vs JS peers (Node).
# Figures go to stdout; docs/PERFORMANCE.md records one run of each.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build-native.sh
bash scripts/build-wasm.sh
bash scripts/build-package.sh
step "Native engine (Google Benchmark)"
build/slowstart_bench "$@"
step "WASM vs native vs JS peers"
# On one CPU, both sides: on the VM these figures come from, the two vCPUs
# ran at different speeds (the native engine took 95 ms on one and 145 ms on
# the other, pinned), so an unpinned run compared whichever CPU each side
# happened to get. The first CPU this shell may use; all of them without taskset.
pin=()
if command -v taskset >/dev/null && [[ $(nproc) -gt 1 ]]; then
  first=$(taskset -cp $$ | sed 's/.*: //; s/[-,].*//')
  pin=(taskset -c "$first")
fi
"${pin[@]}" node tests/bench/bench.mjs
step "Web page and traffic simulation in Chromium"
# TRAFFIC_BENCH_BASELINE=<another build's dist> (main's, say) runs the traffic
# workloads on that build too, alternating, and prints each one's CPU ratio.
npx vitest run --config tests/web/bench/vitest.config.ts
