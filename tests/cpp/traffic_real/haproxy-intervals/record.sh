#!/usr/bin/env bash
# Records which check interval HAProxy uses in each state (README.md beside
# this file). About 17 s; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
backend 24121 a 100 1 0 "$start" /dev/null
# b: requests always 100 ms; its /health answers 503 from 0 to 4 s.
backend 24122 b 100 1 0 "$start" "$here/b.txt" --log-health --health-fail 0 4
sleep 1.5
haproxy_start "$here/haproxy.cfg" "$start"
bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 12 "$start" b > "$here/stat.txt"
client http://127.0.0.1:24120/ 10 10 "$start" "$here/client.txt"
sleep 1.5
haproxy_access "$start" "$here/access.txt"
echo "recorded in $here"
