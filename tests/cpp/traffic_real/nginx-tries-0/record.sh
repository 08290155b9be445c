#!/usr/bin/env bash
# Records proxy_next_upstream_tries 0 (every server), 2, and 0 with
# proxy_next_upstream_timeout 700ms (README.md beside this file):
# `bash record.sh [tries-0|tries-2|tries-0-timeout-700ms]`, all three when none
# is given. About 13 s each; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

run() {  # NAME TRIES TIMEOUT
  local name=$1 tries=$2 timeout=$3
  start=$(at_second 6)
  backend 24221 a 100 1 0 "$start" /dev/null
  backend 24222 b 100 11 0 "$start" /dev/null --cold-until 100
  backend 24223 c 100 11 0 "$start" /dev/null --cold-until 100
  sed "s#TRIES#$tries#; s#TIMEOUT#$timeout#" "$here/nginx.conf" > "$tmp/tries.conf"
  rm -f "$tmp/nginx-access.log"
  nginx_start "$tmp/tries.conf"
  client http://127.0.0.1:24220/ 5 6 "$start" "$here/$name-client.txt"
  sleep 1
  nginx_access "$start" "$here/$name-access.txt"
  stop_run
}

runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(tries-0 tries-2 tries-0-timeout-700ms)
for name in "${runs[@]}"; do
  case $name in
    tries-0) run tries-0 0 0 ;;
    tries-2) run tries-2 2 0 ;;
    tries-0-timeout-700ms) run tries-0-timeout-700ms 0 700ms ;;
    *) echo "unknown run $name" >&2; exit 2 ;;
  esac
done
echo "recorded in $here"
