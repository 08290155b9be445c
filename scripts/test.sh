#!/usr/bin/env bash
# Everything that must pass: native unit and golden tests (CTest, with a
# short fuzz run), then the WASM build, the typed API, the Node CLI parity,
# the package and the browser tests (Vitest). Installs what is missing first.
source "$(dirname "$0")/lib.sh"
bash scripts/setup.sh
bash scripts/build-native.sh
step "Native tests (CTest)"
ctest --test-dir build --output-on-failure -j2
bash scripts/build-wasm.sh
bash scripts/build-package.sh
step "Type check"
npx tsc -p tsconfig.json
step "API, CLI parity, package and browser tests (Vitest)"
npx vitest run "$@"
