#!/usr/bin/env bash
# Installs consumer apps (tests/consumers/*/) from their lock files, all at
# once, with npm's shared cache (--prefer-offline: a warm cache is not asked
# again). With no argument: every app; `npm test` starts this at the
# beginning (scripts/test.sh), beside npm ci and the native build, since it
# mostly waits on the network and the disk. A stamp (the lock file's copy in
# node_modules/) makes a second run a no-op until the lock changes.
set -euo pipefail
cd "$(dirname "$0")"
apps=("$@")
((${#apps[@]})) || mapfile -t apps < <(ls -d */ | sed 's#/$##' | grep -v '^static$')
status=0
for app in "${apps[@]}"; do
  (
    cd "$app"
    stamp=node_modules/.installed-lock
    if [[ -f $stamp ]] && cmp -s package-lock.json "$stamp"; then exit 0; fi
    rm -rf node_modules
    npm ci --prefer-offline --no-audit --no-fund --loglevel=error >"../.install-$(basename "$app").log" 2>&1 ||
      { echo "install.sh: npm ci failed in tests/consumers/$app:" >&2; tail -20 "../.install-$(basename "$app").log" >&2; exit 1; }
    cp package-lock.json "$stamp"
  ) &
done
for job in $(jobs -p); do wait "$job" || status=1; done
exit "$status"
