#!/usr/bin/env bash
# Records nginx's least_conn with unequal weights at a low and a high rate
# (README.md beside this file). About 21 s; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
backend 24211 a 50 1 0 "$start" "$here/a.txt"
backend 24212 b 50 1 0 "$start" "$here/b.txt"
nginx_start "$here/nginx.conf"
client_two_rates http://127.0.0.1:24210 "$start" "$here/client-10rps.txt" "$here/client-100rps.txt"
sleep 1
nginx_access "$start" "$here/access.txt"
echo "recorded in $here"
