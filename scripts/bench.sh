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
# The traffic workloads run on a baseline build too, alternating in one
# browser, and each one's CPU ratio is printed: by default the build of the
# day issue #31 set its goals (tests/web/bench/traffic-baseline.json, built
# once into build/baselines/ by scripts/bench-baseline.sh), and the bench says
# what this build's figures are in that day's CPU seconds: a goal "under 6 s"
# is checked as a ratio to a build measured beside it, whatever this
# machine's speed today (the VM ran that build 1.6-1.9 times slower a day
# later, PL-52). TRAFFIC_BENCH_BASELINE=<another build's dist> (main's, say) instead;
# TRAFFIC_BENCH_BASELINE_COMMIT=<commit> builds another commit,
# TRAFFIC_BENCH_BASELINE_COMMIT=none runs no baseline.
if [[ -z ${TRAFFIC_BENCH_BASELINE:-} && ${TRAFFIC_BENCH_BASELINE_COMMIT:-} != none ]]; then
  commit=${TRAFFIC_BENCH_BASELINE_COMMIT:-$(node -p "require('./tests/web/bench/traffic-baseline.json').commit")}
  if dist=$(bash scripts/bench-baseline.sh "$commit"); then
    export TRAFFIC_BENCH_BASELINE=$dist TRAFFIC_BENCH_BASELINE_COMMIT=$commit
  else
    echo "bench: no baseline build ($commit); the traffic figures are this build's alone" >&2
  fi
fi
npx vitest run --config tests/web/bench/vitest.config.ts
