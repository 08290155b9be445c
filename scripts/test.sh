#!/usr/bin/env bash
# Everything that must pass: native unit and golden tests (CTest, with a
# short fuzz run), then the WASM build, the typed API, the Node CLI parity,
# the package and the browser tests (Vitest). Installs what is missing first.
# Ends with one plain "N passed, N failed" line for CI.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build-native.sh
step "Native tests (CTest)"
mkdir -p test-results
ctest --test-dir build --output-on-failure -j2 | tee test-results/ctest.log
native=$(grep -oE 'out of [0-9]+' test-results/ctest.log | tail -1 | grep -oE '[0-9]+')
bash scripts/build-wasm.sh
bash scripts/build-package.sh
step "Type check"
npx tsc -p tsconfig.json
step "API, CLI parity, package and browser tests (Vitest)"
npx vitest run --reporter=default --reporter=json --outputFile.json=test-results/vitest.json "$@"
web=$(node -e "const r=require('./test-results/vitest.json');console.log(r.numPassedTests+' '+r.numFailedTests)")
read -r web_passed web_failed <<<"$web"
echo
echo "$((native + web_passed)) passed, ${web_failed} failed"
