#!/usr/bin/env bash
# The inner loop (`npm run test:quick`), for a tree `npm test` has built
# once: rebuilds what changed (native, WebAssembly, dist/), then runs the C++
# unit and golden tests (CTest without the fuzz runs) and the Node-side
# Vitest files, leaving out the slowest (SLOWSTART_QUICK=1, vitest.config.ts
# lists them: the browser tests, packing, both CLIs grading real programs,
# the 1 GB line, the hostile programs), with fewer random CLI-parity scripts
# and fewer leak cycles. 1 to 2 minutes on 2 cores (docs/TESTING.md). Extra
# arguments go to Vitest (a file, -t NAME). `npm test` runs everything, as CI does.
source "$(dirname "$0")/lib.sh"
mkdir -p test-results
PHASES=test-results/phases-quick.txt
: >"$PHASES"
START=$(date +%s.%N)
[[ -x build/slowstart && -d node_modules ]] || {
  echo "test-quick: build the tree once with \`npm test\` (or scripts/setup.sh and build-native.sh)" >&2
  exit 2
}

status=0
phase "native build (incremental)" bash scripts/build-native.sh
step "Native tests (CTest, no fuzz runs)"
phase "native tests (CTest -LE fuzz)" ctest --test-dir build -j2 -LE fuzz --output-on-failure | tail -3 || status=1
phase "WebAssembly build (incremental)" bash scripts/build-wasm.sh
phase "package build" bash scripts/build-package.sh
step "Vitest: the unit project, quick"
SLOWSTART_QUICK=1 PARITY_COUNT=${PARITY_COUNT:-40} LEAK_CYCLES=${LEAK_CYCLES:-100000} \
  phase "Vitest (unit, quick)" npx vitest run --project unit "$@" || status=1
echo "test:quick: $(seconds_since "$START") s in all" >>"$PHASES"
step "Phases (test-results/phases-quick.txt)"
cat "$PHASES"
exit "$status"
