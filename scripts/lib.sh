# Shared by the scripts in this folder: strict mode, logging, and the
# environment Debian's Emscripten needs.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
# emcc's JS optimizer needs Debian's node modules (acorn) at -O1 and above.
export NODE_PATH="${NODE_PATH:+$NODE_PATH:}/usr/share/nodejs"
step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }
