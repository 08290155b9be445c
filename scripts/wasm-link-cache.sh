#!/usr/bin/env bash
# The WebAssembly modules' link cache: CMake's linker launcher of the two
# modules (cmake/wasm.cmake), called as `wasm-link-cache.sh em++ ARGS...`.
#
# The link (LTO of every object, then wasm-opt) is most of a build whose
# compiles ccache serves: the clean clone that `npm pack` builds in the
# package tests and the consumer matrix (tests/web/support/packed.ts) is the
# very commit this tree has just built, and linked both modules again: its
# build-wasm.sh took 61 s of CPU, 14 s with this cache (docs/performance-log.md,
# PL-39). Here a link whose inputs are the same as an earlier one's is a copy
# of that link's outputs, byte for byte what the link makes again (the link is
# deterministic: the tree's, a clone's linked anew and a clone's copied were
# the same bytes, PL-39). The key is a hash of:
#   - the emcc that links: its path, its and clang's versions (`emcc -v`),
#     its configuration file, wasm-opt's and node's versions;
#   - every argument, with this tree's path made relative (so that a clone
#     elsewhere has the same key; the output by its name alone), response
#     files (@FILE) read in place;
#   - the bytes of every argument that names a file (the objects, the rooms'
#     archives, any --js-library or --pre-js), wherever it is;
#   - the EMCC_* variables of the environment.
# The outputs kept are the -o file and the files beside it with its name and
# another extension (engine.mjs: engine.wasm). Entries live in
# $SLOWSTART_WASM_LINK_CACHE (default ~/.cache/slowstart/wasm-link); the
# newest 16 are kept. SLOWSTART_WASM_LINK_CACHE=off links every time.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${SLOWSTART_WASM_LINK_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/slowstart/wasm-link}
[[ $cache == off ]] && exec "$@"

out=
prev=
for a in "$@"; do
  [[ $prev == -o ]] && out=$a
  prev=$a
done
[[ -n $out ]] || exec "$@"
case $out in /*) ;; *) out=$PWD/$out ;; esac

# What decides the link's outputs, one line each; its hash is the key.
describe() {
  local emcc=$1 a f
  echo "emcc $(command -v "$emcc" || echo "$emcc")"
  "$emcc" -v 2>&1 | grep -v '^InstalledDir' || true  # emcc's and clang's versions
  local config=${EM_CONFIG:-$(dirname "$(readlink -f "$(command -v "$emcc")")")/.emscripten}
  [[ -f $config ]] && cat "$config"
  command -v wasm-opt >/dev/null && wasm-opt --version
  command -v node >/dev/null && node --version  # (emcc's JavaScript optimizer)
  env | grep '^EMCC_' | sort || true
  for a in "$@"; do
    if [[ $a == @* && -f ${a#@} ]]; then
      echo "response file:"
      # Each word of the response file as an argument of its own.
      # shellcheck disable=SC2046
      describe_args $(cat "${a#@}")
    else
      describe_args "$a"
    fi
  done
}
describe_args() {
  local a p
  for a in "$@"; do
    p=$a
    case $p in /*) ;; *) [[ -e $p ]] && p=$PWD/$p ;; esac
    # The output's folder is this tree's, whichever tree (the copy puts it
    # there); its name is in the glue (engine.mjs loads engine.wasm).
    if [[ $p == "$out" ]]; then echo "arg <output folder>/$(basename "$out")"; continue; fi
    if [[ -f $p ]]; then
      echo "file ${p#"$root"/} $(sha256sum <"$p" | cut -c1-64)"
    else
      echo "arg ${a//"$root"/<root>}"
    fi
  done
}

key=$(describe "$@" | sha256sum | cut -c1-64)
entry=$cache/$key
stem=$(basename "${out%.*}")
dir=$(dirname "$out")

copied() {
  local f
  for f in "$entry"/files/*; do cp -f "$f" "$dir/$(basename "$f")" || return 1; done
  [[ -f $out ]] && touch "$entry/done" "$out"
}
if [[ -f $entry/done ]] && copied; then
  echo "wasm-link-cache: $(basename "$out") copied from an earlier identical link (${key:0:12})" >&2
  exit 0
fi

# Keeping the outputs is a favour: a cache that cannot be written (a
# read-only home) leaves the link done and the build going.
tmp=
if mkdir -p "$cache" 2>/dev/null && tmp=$(mktemp -d "$cache/.new.XXXXXX" 2>/dev/null); then
  mkdir "$tmp/files"
  touch "$tmp/started"
else
  echo "wasm-link-cache: cannot write $cache: linking without it" >&2
  exec "$@"
fi
"$@" || { status=$?; rm -rf "$tmp"; exit "$status"; }
store() {
  local f
  for f in "$dir/$stem".*; do
    # Outputs of this link: the -o file and its siblings written since it started.
    # (Not the typings, engine.d.mts: a step of the build after the link copies them.)
    if [[ -f $f && $f != *.d.mts && ( $f == "$out" || $f -nt $tmp/started ) ]]; then
      cp -f "$f" "$tmp/files/" || return 1
    fi
  done
  touch "$tmp/done"
  # An entry is whole or absent: made aside, then renamed (one that another
  # link made meanwhile stays).
  if [[ -d $entry && ! -f $entry/done ]]; then rm -rf "$entry"; fi
  mv -T "$tmp" "$entry" 2>/dev/null || rm -rf "$tmp"
  # The newest 16 entries stay.
  ls -1td "$cache"/*/ 2>/dev/null | tail -n +17 | xargs -r rm -rf
}
store || { rm -rf "$tmp"; echo "wasm-link-cache: could not keep $(basename "$out") in $cache (linked anyway)" >&2; }
exit 0
