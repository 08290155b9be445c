#!/usr/bin/env bash
# After `npm pack` / `npm publish` (package.json "postpack"), and at the start
# of prepack.sh: puts the repository's README.md back where prepack.sh put
# the npm README (docs/PACKAGE.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [[ -f build/pack/README.repository.md ]]; then
  mv -f build/pack/README.repository.md README.md
fi
