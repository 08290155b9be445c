#!/usr/bin/env bash
# Builds the libFuzzer target with clang++ (ASan + UBSan + LeakSanitizer) and
# runs it for a bounded time.
#
#   tests/fuzz/run.sh [SECONDS]         fuzz the interpreter for SECONDS (default 20)
#   tests/fuzz/run.sh --pick [SECONDS]  fuzz the fast pick against the O(n) oracle
#   tests/fuzz/run.sh --system [SECONDS]  fuzz cpp/system: proxies' configurations
#                                       and canary logs (fuzz_system.cpp)
#   tests/fuzz/run.sh --m32 [SECONDS]   the same, built for i386 and run under
#                                       qemu-i386: a 32-bit size_t, as in
#                                       WebAssembly (UBSan only; no ASan there)
#   tests/fuzz/run.sh --selftest        check that LeakSanitizer reports a leak
#   tests/fuzz/run.sh --build           build the binaries and stop (ctest's
#                                       fixture fuzz.build, so that the smoke runs
#                                       that follow never compile and run side by side)
#
# Environment:
#   FUZZ_OUT_DIR   where the binary, the working corpus and crash artifacts go
#                  (default: <repo>/build)
#   FUZZ_CXX       the compiler (default: clang++; g++ has no libFuzzer)
#   FUZZ_JOBS      passed as -jobs/-workers when > 1 (default 1)
#   FUZZ_BUILD_JOBS  clang++ processes at once when building (default: the cores)
#   FUZZ_MAX_LEN   longest input (default 4096 for the interpreter, 1024 for --pick)
#   FUZZ_SMOKE     when 1, start from the checked-in seeds alone, in a corpus
#                  emptied first (ctest's smoke runs): reading back the corpus
#                  long runs keep takes longer than the run itself once it has
#                  grown (1,141 inputs of --pick: minutes under the sanitizers).
#                  A smoke run has a fixed seed and a fixed count of inputs,
#                  not a time: the same mutations are tried on every machine
#                  and under any load (which of them are kept follows coverage,
#                  which differs by a few edges between runs of the same
#                  inputs, so most of the inputs, not all, are the same). With
#                  libFuzzer's random seed and a time limit, twice a CI run
#                  failed on a fault that had been in the tree for hours (an
#                  importer's, found by that run's seed alone). Finding new
#                  faults is a hunt's job: run.sh [--pick | --system] SECONDS,
#                  random seed, before a change to what the fuzzers read lands;
#                  what it finds becomes a seed (seeds*/), run by every smoke run.
#   SLOWSTART_FUZZ_SEED
#                  a smoke run's seed (default 1; 0: libFuzzer's random one)
#   SLOWSTART_FUZZ_SMOKE_RUNS
#                  a smoke run's count of inputs (default: per target, about
#                  8 s of one core of these machines; see smoke_runs below)
#   SLOWSTART_FUZZ_SMOKE_SECONDS
#                  when set, a smoke run fuzzes that long instead of a count
# Exit status: 0 when the run found nothing, non-zero otherwise. A crashing
# input is saved as $FUZZ_OUT_DIR/fuzz_artifacts/crash-* (or leak-*, timeout-*,
# oom-*); reproduce with: $FUZZ_OUT_DIR/fuzz_interpreter <artifact>
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
out=${FUZZ_OUT_DIR:-$root/build}
cxx=${FUZZ_CXX:-clang++}
target=interpreter

mkdir -p "$out"
cd "$root"

# The binaries: interpreter and pick (ASan + UBSan) share the engine's
# objects; pick32 (-m32, UBSan) has its own. Each object is one clang++
# process, FUZZ_BUILD_JOBS (default: the cores) at a time.
# -gline-tables-only: the file and line of every frame of a sanitizer's report,
# without the types and variables only a debugger reads (7-10% less CPU per
# compile, smaller objects to link).
flags() {  # flags asan|m32 compile|link
  local kind=fuzzer-no-link
  [[ $2 == link ]] && kind=fuzzer
  if [[ $1 == m32 ]]; then
    echo "-m32 -std=c++20 -gline-tables-only -O1 -fsanitize=$kind,undefined -fno-sanitize-recover=undefined"
  else
    echo "-std=c++20 -gline-tables-only -O1 -fsanitize=$kind,address,undefined -fno-sanitize-recover=undefined"
  fi
}
flavour() { [[ $1 == pick32 ]] && echo m32 || echo asan; }
binary() { echo "$out/fuzz_$1"; }
# The rooms a variant links: the engine's, and for system also traffic's and its own.
# pick32 compiles for itself alone (no other variant is -m32), so it takes only
# what the pick's differential test uses (tests/support/pick_differential.hpp):
# the fast room and the pool (cpp/core/pool.cpp), not the core room's unit of
# seven files (the interpreter, commands, the timeline): 3 s of CPU instead of
# 12 s. Should the test come to need more of core, the link says which symbol.
rooms() {
  case $1 in
    system) echo "fast core traffic system" ;;
    pick32) echo "fast" ;;
    *) echo "fast core" ;;
  esac
}
# Single sources a variant compiles besides its rooms' units.
extra_sources() { [[ $1 == pick32 ]] && echo cpp/core/pool.cpp || true; }
# What a variant's rooms compile: the native build's unity units when CMake
# has configured $out (CMakeLists.txt: eight sources to a unit, so the headers
# are parsed once per eight files under the sanitizers too: 0.69 of the CPU
# for cpp/system; names two files of a room share already stop the native
# build), else each .cpp by itself.
room_sources() {  # room_sources VARIANT
  local r units
  for r in $(rooms "$1"); do
    units=("$out/CMakeFiles/slowstart_$r.dir/Unity/"unity_*_cxx.cxx)
    if [[ -f ${units[0]} ]]; then echo "${units[@]}"; else echo cpp/"$r"/*.cpp; fi
  done
  extra_sources "$1"
}
# An object's name in fuzz_obj/FLAVOUR/: its source's path, flattened.
object() {  # object SOURCE
  local p=${1#"$out"/CMakeFiles/}
  p=${p%.*}
  echo "${p//\//_}.o"
}
# A binary is rebuilt when a source is newer than it (ctest runs this often).
stale() {
  local bin sources s
  bin=$(binary "$1")
  [[ -x $bin ]] || return 0
  sources=(cpp/spec/*.?pp "tests/fuzz/fuzz_${1%32}.cpp" tests/support/*.hpp "$here/run.sh")
  local r
  for r in $(rooms "$1"); do sources+=(cpp/"$r"/*.?pp "$out/CMakeFiles/slowstart_$r.dir/Unity/"unity_*_cxx.cxx); done
  sources+=(cpp/core/*.?pp)  # (pick32's pool.cpp and the headers it includes)
  for s in "${sources[@]}"; do [[ $s -nt $bin ]] && return 0; done
  return 1
}
compile_one() {  # compile_one FLAVOUR SOURCE
  # shellcheck disable=SC2046
  "$cxx" $(flags "$1" compile) -I cpp -c "$2" -o "$out/fuzz_obj/$1/$(object "$2")"
}
build() {  # build VARIANT...: the stale ones
  local v stale_ones=() flavours=() jobs=() f src
  for v in "$@"; do stale "$v" && stale_ones+=("$v"); done
  ((${#stale_ones[@]})) || return 0
  echo "run.sh: compiling ${stale_ones[*]/#/fuzz_}" >&2
  for v in "${stale_ones[@]}"; do
    f=$(flavour "$v")
    [[ " ${flavours[*]} " == *" $f "* ]] || flavours+=("$f")
    jobs+=("$f tests/fuzz/fuzz_${v%32}.cpp")
  done
  # Each flavour's objects: every room a stale variant of it links, once.
  for f in "${flavours[@]}"; do
    mkdir -p "$out/fuzz_obj/$f"
    local needed=()
    for v in "${stale_ones[@]}"; do
      [[ $(flavour "$v") == "$f" ]] || continue
      for src in $(room_sources "$v"); do
        [[ " ${needed[*]} " == *" $src "* ]] || needed+=("$src")
      done
    done
    for src in "${needed[@]}"; do jobs+=("$f $src"); done
  done
  export -f compile_one flags object
  export cxx out
  printf '%s\n' "${jobs[@]}" | xargs -P "${FUZZ_BUILD_JOBS:-$(nproc)}" -L1 bash -c 'compile_one "$@"' _
  for v in "${stale_ones[@]}"; do
    f=$(flavour "$v")
    local objs=("$out/fuzz_obj/$f/$(object "tests/fuzz/fuzz_${v%32}.cpp")")
    for src in $(room_sources "$v"); do objs+=("$out/fuzz_obj/$f/$(object "$src")"); done
    # shellcheck disable=SC2046
    "$cxx" $(flags "$f" link) "${objs[@]}" -o "$(binary "$v").tmp"
    mv -f "$(binary "$v").tmp" "$(binary "$v")"
  done
}

if [[ ${1:-} == --build ]]; then
  # All three at once: in ctest, the fixture the smoke runs require, so
  # that they never compile and can run side by side.
  variants=(interpreter pick system)
  command -v qemu-i386 >/dev/null && variants+=(pick32)
  build "${variants[@]}"
  exit 0
fi

selftest=0
secs=20
smoke=0
if [[ ${FUZZ_SMOKE:-0} == 1 ]]; then
  smoke=1
  [[ -n ${SLOWSTART_FUZZ_SMOKE_SECONDS:-} ]] && secs=$SLOWSTART_FUZZ_SMOKE_SECONDS
fi
m32=0
if [[ ${1:-} == --pick ]]; then target=pick; shift; fi
if [[ ${1:-} == --system ]]; then target=system; shift; fi
if [[ ${1:-} == --m32 ]]; then target=pick; m32=1; shift; fi
case "${1:-}" in
  --selftest) selftest=1 ;;
  "") ;;
  *[!0-9]*) echo "usage: $0 [--pick | --m32 | --system] [SECONDS] | --selftest | --build" >&2; exit 2 ;;
  *) secs=$1; smoke=0 ;;  # SECONDS given: a hunt, even under CTest's FUZZ_SMOKE
esac
variant=$target
(( m32 )) && variant=pick32
bin=$(binary "$variant")
build "$variant"

# Leak detection is on by default for ASan on x86-64 Linux; say so explicitly
# so that an inherited ASAN_OPTIONS cannot silently turn it off.
export ASAN_OPTIONS="detect_leaks=1:abort_on_error=0:allocator_may_return_null=0:${ASAN_OPTIONS:-}"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:${UBSAN_OPTIONS:-}"

suffix=${target/interpreter/}
(( m32 )) && suffix=pick32
artifacts=$out/fuzz_artifacts${suffix:+_$suffix}
corpus=$out/fuzz_corpus${suffix:+_$suffix}     # grows between runs; safe to delete
if [[ ${FUZZ_SMOKE:-0} == 1 ]]; then
  corpus=$out/fuzz_smoke_corpus${suffix:+_$suffix}
  rm -rf "$corpus"
fi
seeds=$out/fuzz_seeds${suffix:+_$suffix}       # rebuilt each run from the checked-in seeds
# The self-test shares the interpreter's binary, not its folders: the two
# may run at the same time.
(( selftest )) && seeds=$out/fuzz_seeds_selftest
mkdir -p "$artifacts" "$corpus"
rm -rf "$seeds"; mkdir -p "$seeds"
if [[ $target == interpreter ]]; then
  cp "$here"/seeds/* "$seeds"/
  shopt -s nullglob
  for c in "$root"/tests/cases/*.txt; do cp "$c" "$seeds/case_$(basename "$c")"; done
  shopt -u nullglob
elif [[ $target == system ]]; then
  # The import tests' configurations and the recorded canaries' first 4 KB,
  # each behind the byte that chooses its reader (fuzz_system.cpp).
  k=0
  for c in tests/cpp/system_configs/*; do
    [[ $c == *README.md ]] && continue
    for mode in 0 1 2 3 4 5 6; do { printf "\\x0$mode"; head -c 4000 "$c"; } > "$seeds/config_${k}_$mode"; done
    k=$((k + 1))
  done
  { printf '\x08'; head -c 4000 tests/cpp/system_canary/nginx-access.log; } > "$seeds/nginx_log"
  { printf '\x09'; head -c 4000 tests/cpp/system_canary/haproxy.log; } > "$seeds/haproxy_log"
  { printf '\x07'; echo 't,latency_ms,in_flight'; for i in $(seq 0 60); do echo "$i,$((400 - i * 5)),1"; done; } > "$seeds/csv"
  cp "$here"/seeds_system/* "$seeds"/  # inputs that once found a fault
else
  # Operation streams are bytes; a few random ones start the corpus, with
  # the inputs that once found a fault (seeds_pick/).
  # (A smoke run's are the same bytes each time: perl's rand from a fixed
  # seed; perl-base is in every Debian.)
  for k in 1 2 3 4 5 6 7 8; do
    if (( smoke )); then
      perl -e 'srand($ARGV[0]); print map { chr(int(rand(256))) } 1 .. 1024' "$k" >"$seeds/random_$k"
    else
      head -c 1024 /dev/urandom >"$seeds/random_$k"
    fi
  done
  cp "$here"/seeds_pick/* "$seeds"/
fi

if (( selftest )); then
  # Must FAIL with a LeakSanitizer report; we succeed only if it does.
  log=$out/fuzz_selftest.log
  if SLOWSTART_FUZZ_SELFTEST=leak "$bin" -runs=50 -detect_leaks=1 \
       -artifact_prefix="$out/fuzz_selftest_" "$seeds" >"$log" 2>&1; then
    echo "run.sh --selftest: the deliberate leak was NOT reported; leak detection is off" >&2
    exit 1
  fi
  if grep -q "ERROR: LeakSanitizer: detected memory leaks" "$log"; then
    rm -f "$out"/fuzz_selftest_leak-*
    echo "run.sh --selftest: LeakSanitizer is active (deliberate leak reported)"
    exit 0
  fi
  echo "run.sh --selftest: the run failed, but not with a leak report; see $log" >&2
  exit 1
fi

dict=
max_len=1024  # operation streams: long enough for hundreds of operations
[[ $target == interpreter ]] && dict=$here/slowstart.dict && max_len=4096
[[ $target == system ]] && max_len=4096
jobs=${FUZZ_JOBS:-1}
extra=()
if (( jobs > 1 )); then extra=(-jobs="$jobs" -workers="$jobs"); fi

runner=()
timeout=10
if (( m32 )); then
  # libFuzzer's own -timeout never fires under qemu-user: the target's
  # watchdog does its job (tests/fuzz/fuzz_pick.cpp).
  runner=(qemu-i386)
  timeout=0
  export SLOWSTART_FUZZ_WATCHDOG=20
fi

# How far a smoke run goes: a count of inputs, about 8 s of one core of
# these machines for each target (the inputs each ran in 8 s, one run at a
# time on a quiet machine, 2026-12-08; SLOWSTART_FUZZ_SMOKE_RUNS or _SECONDS
# override).
smoke_runs() {
  case $variant in
    interpreter) echo 2000 ;;  # 2,240 inputs in 8 s
    pick) echo 300 ;;          # 313: each input is a pool run twice, fast and O(n)
    pick32) echo 8000 ;;       # 8,603, from an empty corpus (below)
    system) echo 2500 ;;       # 3,054
  esac
}
limit=(-max_total_time="$secs")
if (( smoke )); then
  limit=(-seed="${SLOWSTART_FUZZ_SEED:-1}")
  if [[ -n ${SLOWSTART_FUZZ_SMOKE_SECONDS:-} ]]; then limit+=(-max_total_time="$secs")
  else limit+=(-runs="${SLOWSTART_FUZZ_SMOKE_RUNS:-$(smoke_runs)}"); fi
fi

if (( m32 )); then
  # The 32-bit libFuzzer lists no file of a folder on ext4 ("0 files found",
  # even for one file; the same files on tmpfs are listed: most likely its
  # readdir, built without large-file offsets, refuses ext4's 64-bit hash
  # offsets), so it would fuzz from nothing and never run the seeds. Each
  # seed is run by name first (files it reads), then the fuzzing starts
  # from an empty corpus, the seeds' folder not named (so that "0 files
  # found in ...fuzz_seeds..." is never printed: fuzz.cmake fails a smoke
  # run that prints it, a run whose seeds went unread).
  seed_files=("$seeds"/*)
  "${runner[@]}" "$bin" -timeout="$timeout" "${seed_files[@]}" >"$out/fuzz_pick32_seeds.log" 2>&1 ||
    { cat "$out/fuzz_pick32_seeds.log" >&2; echo "run.sh: a seed of $seeds failed (above)" >&2; exit 1; }
  echo "run.sh: ${#seed_files[@]} seeds of fuzz_pick32 run one by one, none failed"
fi

exec "${runner[@]}" "$bin" \
  "${limit[@]}" \
  -max_len="${FUZZ_MAX_LEN:-$max_len}" \
  -rss_limit_mb=2048 \
  -timeout="$timeout" \
  -detect_leaks=$(( m32 ? 0 : 1 )) \
  ${dict:+-dict="$dict"} \
  -artifact_prefix="$artifacts/" \
  -print_final_stats=1 \
  "${extra[@]}" \
  "$corpus" $( ((m32)) || echo "$seeds")
