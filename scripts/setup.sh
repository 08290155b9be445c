#!/usr/bin/env bash
# Installs whatever this machine lacks to build, run and test slowstart, and
# nothing it already has: Debian packages (compilers, GoogleTest, Google
# Benchmark, clang for the fuzzer, Emscripten, Chromium, librsvg, Python 3 for the
# grading tests' learner programs and XML parsing) and the npm
# dependencies. Safe to run again; a no-op when all is there.
#
#   scripts/setup.sh            both
#   scripts/setup.sh --system   the Debian packages only
#   scripts/setup.sh --npm      the npm dependencies only (scripts/test.sh runs
#                               this beside the native build, which needs none)
source "$(dirname "$0")/lib.sh"
what=${1:-all}
case $what in
  all | --system | --npm) ;;
  *) echo "usage: $0 [--system | --npm]" >&2; exit 2 ;;
esac

need=()
have() { command -v "$1" >/dev/null 2>&1; }
have_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "ok installed"; }
have cmake || need+=(cmake)
have g++ || need+=(g++)
have make || need+=(make)
have_pkg libgtest-dev || need+=(libgtest-dev)
have_pkg libgmock-dev || need+=(libgmock-dev)
have_pkg libbenchmark-dev || need+=(libbenchmark-dev)
have clang++ || need+=(clang)
have_pkg libclang-rt-14-dev || need+=(libclang-rt-14-dev)
# The pick's fuzzer also runs with a 32-bit size_t, as WebAssembly has:
# built with clang -m32 (32-bit C and C++ libraries) and run under qemu-i386
# (this machine's kernel runs no i386 code itself).
have_pkg g++-multilib || need+=(g++-multilib)
have qemu-i386 || need+=(qemu-user)
have em++ || need+=(emscripten)
# Emscripten pulls Python in too; named here because the grading tests run
# tests/grade/learners/learner.py and parse JUnit XML with it.
have python3 || need+=(python3)
have chromium || need+=(chromium)
# rsvg-convert (librsvg, what GNOME and LibreOffice draw SVG with): the chart's SVG export is
# checked to draw right outside a browser (tests/web/e2e/chart-export.test.ts).
have rsvg-convert || need+=(librsvg2-bin)
have gzip || need+=(gzip)

if [[ $what != --npm ]] && ((${#need[@]})); then
  step "Installing Debian packages: ${need[*]}"
  if [[ $(id -u) -ne 0 ]]; then SUDO=sudo; else SUDO=; fi
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q "${need[@]}"
fi

# npm ci when node_modules is missing or older than the lock file.
if [[ $what != --system ]] && [[ ! -d node_modules || package-lock.json -nt node_modules/.package-lock.json ]]; then
  step "Installing npm dependencies (npm ci)"
  npm ci --no-audit --no-fund
fi
