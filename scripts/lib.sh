# Shared by the scripts in this folder: strict mode, logging, and the
# environment Debian's Emscripten needs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# emcc's JS optimizer needs Debian's node modules (acorn) at -O1 and above.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
# Debian's em++, emcc and emcmake are shell wrappers that start `python3`
# from PATH: name the system's, which Debian's Emscripten is packaged for,
# where the first python3 on PATH is a version manager's shim (pyenv: 0.35 s
# of CPU per start, against 0.03 s; a build starts em++ over a hundred times).
if [[ -z ${EMSDK_PYTHON:-} && -x /usr/bin/python3 ]]; then export EMSDK_PYTHON=/usr/bin/python3; fi
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

# Whole seconds since $1 (a `date +%s.%N`).
seconds_since() { awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { printf "%.0f", b - a }'; }

# phase NAME COMMAND...: runs COMMAND; appends NAME, its start (seconds after
# $START), wall time and CPU time (user + sys of all it ran) to $PHASES;
# returns COMMAND's status. For scripts/test.sh and test-quick.sh.
phase() {
  local name=$1 t status=0 TIMEFORMAT='%R %U %S' at real user sys
  shift
  at=$(seconds_since "$START")
  { t=$({ time "$@" 1>&3 2>&4; } 2>&1); } 3>&1 4>&2 || status=$?
  read -r real user sys <<<"$(tail -1 <<<"$t")"
  awk -v n="$name" -v at="$at" -v r="$real" -v u="$user" -v s="$sys" -v st="$status" \
    'BEGIN { printf "%-36s at %4d s %7.1f s wall %7.1f s CPU%s\n", n, at, r, u + s, st ? "  (failed)" : "" }' >>"$PHASES"
  return "$status"
}
