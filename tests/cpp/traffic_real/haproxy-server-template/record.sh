#!/usr/bin/env bash
# Records a server-template slot leaving resolver maintenance when its name
# appears in DNS (README.md beside this file). About 19 s; every process is
# stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

start=$(at_second 8)
backend 24151 a 50 1 0 "$start" /dev/null
backend 24152 s1 50 1 0 "$start" "$here/s1.txt" --log-health
# app.test resolves to 127.0.0.1 from 2 s (NXDOMAIN before).
bg "$py" "$harness/dns.py" 24159 app.test 127.0.0.1 2 "$start" > "$here/dns.txt"
sleep 1.5
haproxy_start "$here/haproxy.cfg" "$start"
bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 11 "$start" a s1 > "$here/stat.txt"
client http://127.0.0.1:24150/ 20 10 "$start" "$here/client.txt"
sleep 1.5
haproxy_access "$start" "$here/access.txt"
echo "recorded in $here"
