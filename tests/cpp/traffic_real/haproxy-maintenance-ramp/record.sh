#!/usr/bin/env bash
# Records HAProxy's slowstart on leaving maintenance (README.md beside this
# file): `bash record.sh [roundrobin|static-rr]`, both when none is given.
# About 32 s and 15 s; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

run() {  # BALANCE SECONDS CLI_EVENTS...
  local balance=$1 seconds=$2
  shift 2
  start=$(at_second 8)
  backend 24141 a 50 1 0 "$start" /dev/null
  backend 24142 b 50 1 0 "$start" /dev/null
  backend 24143 c 50 1 0 "$start" /dev/null
  sleep 1.5
  sed "s#BALANCE#$balance#" "$here/haproxy.cfg" > "$tmp/ramp.cfg"
  haproxy_start "$tmp/ramp.cfg" "$start"
  bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" "$((seconds + 1))" "$start" a b c > "$here/$balance-stat.txt"
  bg "$py" "$harness/cli.py" "$tmp/haproxy.sock" "$start" "$@" > "$here/$balance-cli.txt"
  client http://127.0.0.1:24140/ 20 "$seconds" "$start" "$here/$balance-client.txt"
  sleep 1.5
  haproxy_access "$start" "$here/$balance-access.txt"
  stop_run
}

balances=("$@")
[ ${#balances[@]} -gt 0 ] || balances=(roundrobin static-rr)
for balance in "${balances[@]}"; do
  case $balance in
    roundrobin)
      run roundrobin 26 \
        "2 set server pool/b state maint" "4 set server pool/b state ready" \
        "8 set server pool/b state maint" "14 set server pool/b state ready" \
        "18 add server pool/c 127.0.0.1:24143 weight 100 slowstart 4s" "18.5 enable server pool/c" ;;
    static-rr)
      run static-rr 9 "2 set server pool/b state maint" "4 set server pool/b state ready" ;;
    *) echo "unknown balance $balance" >&2; exit 2 ;;
  esac
done
echo "recorded in $here"
