#!/usr/bin/env bash
# Records a real nginx and a real HAProxy in front of two local backends, a
# warm one (a) and one that turns cold at a given instant (b), all on
# 127.0.0.1, bounded in time (about 35 s; every process this script starts
# is stopped by its pid at the end). Needs Debian's packages:
#     apt-get install -y nginx haproxy     (nginx 1.22.1, HAProxy 2.6.12 when recorded)
# Writes the recordings next to this script; TrafficReal.*
# (tests/cpp/traffic_real_test.cpp) compares them with the lab's model.
#
# Both runs: from START (a whole second of the wall clock: nginx's clock is
# whole seconds) b serves in 100 ms x (1 + 10 x coldness), coldness falling
# from 1 to 0 over 3 s; a is warm (100 ms). The client sends 10 requests a
# second from START. Proxy timeout 500 ms, one retry on the other server.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; sleep 0.2; rm -rf "$tmp"; }
trap cleanup EXIT
at_second() { python3 -c "import time; print(int(time.time()) + $1)"; }
relative() { awk -v s="$1" '{ printf "%.3f", $1 - s; $1 = ""; print }'; }

# ---- nginx: upstream a, b max_fails=1 fail_timeout=2s ----
start=$(at_second 3)
python3 "$here/backend.py" 9101 a 100 1 0 "$start" > /dev/null & pids+=($!)
python3 "$here/backend.py" 9102 b 100 11 3 "$start" > "$here/nginx-b.txt" & pids+=($!)
sed "s#DIR#$tmp#g" "$here/nginx.conf" > "$tmp/nginx.conf"
nginx -p "$tmp" -c "$tmp/nginx.conf" -g 'daemon off;' & pids+=($!)
timeout 30 python3 "$here/client.py" http://127.0.0.1:9100/ 10 8 "$start" > "$here/nginx-client.txt"
sleep 1
relative "$start" < "$tmp/nginx-access.log" | sort -n > "$here/nginx-access.txt"

# ---- HAProxy: observe layer7 error-limit 2 on-error mark-down inter 1s rise 2 slowstart 4s ----
# Twice: without retries of timed-out requests (haproxy-*), then with
# "retry-on conn-failure response-timeout" (haproxy-retry-*).
haproxy_run() {  # PREFIX RETRY_LINE PORT_BASE
  local prefix=$1 retry=$2 base=$3
  start=$(at_second 5)
  python3 "$here/backend.py" $((base + 1)) a 100 1 0 "$start" > /dev/null & pids+=($!)
  python3 "$here/backend.py" $((base + 2)) b 100 11 3 "$start" > "$here/$prefix-b.txt" & pids+=($!)
  sleep 2    # both listening before HAProxy's first check: both UP from the start (no slowstart)
  sed "s#DIR#$tmp#g; s#\# RETRY.*#$retry#; s#127.0.0.1:9201#127.0.0.1:$((base + 1))#; s#127.0.0.1:9202#127.0.0.1:$((base + 2))#; s#127.0.0.1:9200#127.0.0.1:$base#" \
    "$here/haproxy.cfg" > "$tmp/haproxy.cfg"
  haproxy -f "$tmp/haproxy.cfg" -db > >(python3 "$here/stamp.py" "$start" > "$tmp/$prefix-raw.log") 2>&1 & pids+=($!)
  python3 "$here/stat.py" "$tmp/haproxy.sock" 13 "$start" > "$here/$prefix-stat.txt" & pids+=($!)
  timeout 30 python3 "$here/client.py" "http://127.0.0.1:$base/" 10 12 "$start" > "$here/$prefix-client.txt"
  sleep 1.5
  # Request lines (accept time, server, status, retries, response ms, URI)
  # and the servers' state changes (stamped on arrival), in time order.
  awk '$2 ~ /^[0-9]+\.[0-9]+$/ { $1 = ""; print; next } /^[-0-9.]+ Server pool\// { print }' "$tmp/$prefix-raw.log" |
    awk -v s="$start" '$1 ~ /^[0-9]+\.[0-9]+$/ && $1 > 1e9 { printf "%.3f", $1 - s; $1 = ""; print; next } { print }' |
    sort -n > "$here/$prefix-access.txt" || true
}
haproxy_run haproxy "" 9200
haproxy_run haproxy-retry "    retry-on conn-failure response-timeout" 9300
echo "recorded in $here"
