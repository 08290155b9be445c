#!/usr/bin/env bash
# Records nginx with a single server in its upstream (README.md beside this
# file). About 17 s; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
# b "restarts" at 0: 100 ms x (1 + 10 x coldness), coldness 1 -> 0 over 3 s.
backend 24201 b 100 11 3 "$start" "$here/b.txt"
nginx_start "$here/nginx.conf"
client http://127.0.0.1:24200/ 10 8 "$start" "$here/client.txt"
sleep 1
nginx_access "$start" "$here/access.txt"
grep -c "temporarily disabled" "$tmp/nginx-error.log" > "$here/disabled-count.txt" || true
echo "recorded in $here"
