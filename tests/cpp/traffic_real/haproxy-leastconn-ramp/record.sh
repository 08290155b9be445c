#!/usr/bin/env bash
# Records slowstart under leastconn at a low and a high rate (README.md
# beside this file): `bash record.sh [10rps|100rps]`, both when none is given.
# About 16 s each; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

run() {  # RATE
  local rate=$1
  start=$(at_second 8)
  backend 24171 a 50 1 0 "$start" /dev/null
  backend 24172 b 50 1 0 "$start" /dev/null
  sleep 1.5
  haproxy_start "$here/haproxy.cfg" "$start"
  bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 9 "$start" b > "$here/${rate}rps-stat.txt"
  bg "$py" "$harness/cli.py" "$tmp/haproxy.sock" "$start" \
    "1 set server pool/b state maint" "2 set server pool/b state ready" > "$here/${rate}rps-cli.txt"
  client http://127.0.0.1:24170/ "$rate" 8 "$start" "$here/${rate}rps-client.txt"
  sleep 1
  haproxy_access "$start" "$here/${rate}rps-access.txt"
  stop_run
}

rates=("$@")
[ ${#rates[@]} -gt 0 ] || rates=(10rps 100rps)
for rate in "${rates[@]}"; do
  case $rate in
    10rps) run 10 ;;
    100rps) run 100 ;;
    *) echo "unknown rate $rate" >&2; exit 2 ;;
  esac
done
echo "recorded in $here"
