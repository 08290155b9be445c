#!/usr/bin/env bash
# Builds the native engine, CLI (build/slowstart), tests and benchmark.
source "$(dirname "$0")/lib.sh"
step "Building the native engine, CLI and tests"
if [[ ! -f build/CMakeCache.txt ]]; then
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
cmake --build build -j2
