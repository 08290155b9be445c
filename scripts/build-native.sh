#!/usr/bin/env bash
# Builds the native engine, CLI (build/slowstart), tests and benchmark.
#   --configure  configure build/ and stop (scripts/test.sh: the fuzz build
#                compiles the unity units CMake writes there, tests/fuzz/run.sh)
source "$(dirname "$0")/lib.sh"
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
[[ ${1:-} == --configure ]] && exit 0
step "Building the native engine, CLI and tests"
cmake --build build -j2
