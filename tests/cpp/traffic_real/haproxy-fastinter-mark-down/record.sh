#!/usr/bin/env bash
# Records which check comes next after an on-error mark-down with fastinter
# and downinter set (README.md beside this file). About 22 s; every process
# is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
backend 47401 a 100 1 0 "$start" /dev/null
# b: 100 ms x 11 = 1100 ms for every request from 0 to 30 s (past the run).
backend 47402 b 100 11 0 "$start" "$here/b.txt" --cold-until 30 --log-health
sleep 1.5
haproxy_start "$here/haproxy.cfg" "$start"
bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 14 "$start" > "$here/stat.txt"
client http://127.0.0.1:47400/ 10 12 "$start" "$here/client.txt"
sleep 1.5
haproxy_access "$start" "$here/access.txt"
echo "recorded in $here"
