#!/usr/bin/env bash
# Records HAProxy's leastconn with unequal weights at a low and a high rate
# (README.md beside this file). About 20 s; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
backend 24131 a 50 1 0 "$start" "$here/a.txt"
backend 24132 b 50 1 0 "$start" "$here/b.txt"
sleep 1.5
haproxy_start "$here/haproxy.cfg" "$start"
client_two_rates http://127.0.0.1:24130 "$start" "$here/client-10rps.txt" "$here/client-100rps.txt"
sleep 1
haproxy_access "$start" "$here/access.txt"
echo "recorded in $here"
