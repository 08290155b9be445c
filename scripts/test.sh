#!/usr/bin/env bash
# Everything that must pass: native unit and golden tests (CTest, with short
# fuzz runs), then the WASM build, the typed API, the Node CLI parity, the
# package and the browser tests (Vitest). Installs what is missing first.
# Ends with one plain "N passed, N failed" line for CI.
#
# The phases overlap where the two cores would otherwise wait: npm ci (mostly
# network and disk) beside the native build and the fuzz binaries, CTest
# beside the WebAssembly build, the package, the type check and Vitest. Each
# phase's wall time and CPU time (user + sys of all it ran) go to
# test-results/phases.txt, printed at the end. A quicker loop on a built
# tree: `npm run test:quick` (scripts/test-quick.sh).
source "$(dirname "$0")/lib.sh"
mkdir -p test-results
PHASES=test-results/phases.txt
: >"$PHASES"
START=$(date +%s.%N)

# Shows a background phase's log once it is done; fails when it did.
finish() {
  local pid=$1 log=$2 status=0
  wait "$pid" || status=$?
  cat "$log"
  return "$status"
}

phase "set-up: Debian packages" bash scripts/setup.sh --system

# npm ci, the native build and the fuzz binaries (clang++ with sanitizers, for
# CTest's fuzz runs) at once; build/ configured first (a few seconds), since
# the fuzz build compiles the native build's unity units (tests/fuzz/run.sh).
phase "native build: configure" bash scripts/build-native.sh --configure
phase "set-up: npm ci" bash scripts/setup.sh --npm >test-results/npm-ci.log 2>&1 &
npm_pid=$!
fuzz_pid=
if command -v clang++ >/dev/null; then
  phase "fuzz binaries (clang++, sanitizers)" bash tests/fuzz/run.sh --build >test-results/fuzz-build.log 2>&1 &
  fuzz_pid=$!
fi
# The consumer apps of tests/web/e2e/consumer-matrix.test.ts (VitePress,
# Astro, Docusaurus, Next.js, Vite 5-7 with React, Vue and Svelte, Rollup):
# one npm workspace, one npm ci from its lock file and npm's cache, waiting
# on the network and the disk while the cores build. A failure here is the
# matrix test's to report (it runs the same script).
phase "set-up: consumer apps (tests/consumers)" bash tests/consumers/install.sh >test-results/consumers-install.log 2>&1 &
consumers_pid=$!
phase "native build" bash scripts/build-native.sh
finish "$npm_pid" test-results/npm-ci.log
# CTest rebuilds the fuzz binaries itself if this failed, and reports it.
[[ -z $fuzz_pid ]] || wait "$fuzz_pid" || true

# CTest in the background, from here to the end.
step "Native tests (CTest), in the background: test-results/ctest.log"
phase "native tests (CTest)" ctest --test-dir build --output-on-failure -j2 >test-results/ctest.log 2>&1 &
ctest_pid=$!

phase "WebAssembly build" bash scripts/build-wasm.sh
phase "package build" bash scripts/build-package.sh
step "Type check"
phase "type check (tsc)" npx tsc -p tsconfig.json
wait "$consumers_pid" || true # (the matrix test must not install beside it)
step "API, CLI parity, package and browser tests (Vitest)"
web_status=0
rm -f test-results/vitest.json
phase "Vitest (unit + e2e)" npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@" ||
  web_status=$?

step "Native tests (CTest)"
native_status=0
wait "$ctest_pid" || native_status=$?
if ((native_status)); then cat test-results/ctest.log; else sed -n '/tests passed/,$p' test-results/ctest.log; fi

# "NN% tests passed, F tests failed out of T"
read -r native_failed native_total < <(sed -nE 's/.* ([0-9]+) tests? failed out of ([0-9]+).*/\1 \2/p' test-results/ctest.log | tail -1) || true
native_failed=${native_failed:-0} native_total=${native_total:-0}
# No summary at all (CTest itself failed) counts as one failure.
((native_total || !native_status)) || native_failed=1 native_total=1
# No report at all (Vitest itself failed) counts as one failure.
web=$(node -e "const r=require('./test-results/vitest.json');console.log(r.numPassedTests+' '+r.numFailedTests)" 2>/dev/null || echo "0 1")
read -r web_passed web_failed <<<"$web"
echo "npm test: $(seconds_since "$START") s in all" >>"$PHASES"
step "Phases (test-results/phases.txt)"
cat "$PHASES"
echo
echo "$((native_total - native_failed + web_passed)) passed, $((native_failed + web_failed)) failed"
if ((native_status || web_status)); then exit 1; fi
