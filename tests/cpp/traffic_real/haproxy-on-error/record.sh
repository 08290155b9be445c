#!/usr/bin/env bash
# Records HAProxy's on-error modes other than mark-down (README.md beside
# this file): `bash record.sh [fail-check|sudden-death|fastinter]`, all three
# when none is given. About 17 s a mode; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

run() {  # MODE ON_ERROR_LINE
  local mode=$1 line=$2
  start=$(at_second 8)
  backend 24111 a 100 1 0 "$start" /dev/null
  # b "restarts" at 0: 100 ms x (1 + 10 x coldness), coldness 1 -> 0 over 3 s.
  backend 24112 b 100 11 3 "$start" "$here/$mode-b.txt" --log-health
  sleep 1.5
  sed "s#ON_ERROR#$line#" "$here/haproxy.cfg" > "$tmp/on-error.cfg"
  haproxy_start "$tmp/on-error.cfg" "$start"
  bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 12 "$start" b > "$here/$mode-stat.txt"
  client http://127.0.0.1:24110/ 10 10 "$start" "$here/$mode-client.txt"
  sleep 1.5
  haproxy_access "$start" "$here/$mode-access.txt"
  stop_run
}

modes=("$@")
[ ${#modes[@]} -gt 0 ] || modes=(fail-check sudden-death fastinter)
for mode in "${modes[@]}"; do
  case $mode in
    fail-check) run fail-check "" ;;                 # the default: on-error not written
    sudden-death) run sudden-death "on-error sudden-death" ;;
    fastinter) run fastinter "on-error fastinter fastinter 250ms" ;;
    *) echo "unknown mode $mode" >&2; exit 2 ;;
  esac
done
echo "recorded in $here"
