#!/usr/bin/env bash
# Installs the consumer apps (tests/consumers/*/): one npm workspace
# (package.json here lists them), one lock file, one `npm ci`, from npm's
# shared cache (--prefer-offline: a warm cache is not asked again); shared
# dependencies (React, Vue, Vite 5, TypeScript) are installed once. `npm
# test` starts this at the beginning (scripts/test.sh), beside npm ci and
# the native build, since it mostly waits on the network and the disk. A
# stamp (the lock file's copy in node_modules/) makes a second run a no-op
# until the lock changes.
set -euo pipefail
cd "$(dirname "$0")"
stamp=node_modules/.installed-lock
if [[ -f $stamp ]] && cmp -s package-lock.json "$stamp"; then exit 0; fi
log=.install.log
npm ci --prefer-offline --no-audit --no-fund --loglevel=error >"$log" 2>&1 ||
  { echo "install.sh: npm ci failed in tests/consumers:" >&2; tail -20 "$log" >&2; exit 1; }
cp package-lock.json "$stamp"
