#!/usr/bin/env bash
# Builds the WebAssembly engine into web/wasm/ (engine.mjs + engine.wasm).
source "$(dirname "$0")/lib.sh"
step "Building the WebAssembly engine"
# Each compile goes through ccache when it is installed (Emscripten's own
# hook: em++ runs `ccache clang++ ...`), keyed on paths relative to the tree:
# the clean clone that `npm pack` builds in the package tests (and the same
# sources in any other checkout) compiles nothing this tree has compiled.
# The link (LTO and wasm-opt) goes through a cache of its own
# (scripts/wasm-link-cache.sh, CMake's linker launcher of the two modules):
# a link whose objects, archives, flags and emcc are an earlier link's is a
# copy of that link's outputs, so that clone links nothing either.
# SLOWSTART_WASM_LINK_CACHE=off links every time.
if command -v ccache >/dev/null && [[ -z ${EM_COMPILER_WRAPPER:-} ]]; then
  export EM_COMPILER_WRAPPER=ccache CCACHE_BASEDIR=$ROOT CCACHE_NOHASHDIR=1
fi
if [[ ! -f build/wasm/CMakeCache.txt ]]; then
  # emcmake's default emulator flag breaks Node 20; name node ourselves.
  emcmake cmake -S . -B build/wasm -DCMAKE_BUILD_TYPE=Release \
    -DCMAKE_CROSSCOMPILING_EMULATOR=/usr/bin/node >/dev/null
fi
cmake --build build/wasm -j2
