#!/usr/bin/env bash
# Builds the WebAssembly engine into web/wasm/ (engine.mjs + engine.wasm).
source "$(dirname "$0")/lib.sh"
step "Building the WebAssembly engine"
if [[ ! -f build/wasm/CMakeCache.txt ]]; then
  # emcmake's default emulator flag breaks Node 20; name node ourselves.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build build/wasm -j2
