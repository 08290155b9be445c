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
node tests/bench/bench.mjs
step "Web page and traffic simulation in Chromium"
npx vitest run --config tests/web/bench/vitest.config.ts
