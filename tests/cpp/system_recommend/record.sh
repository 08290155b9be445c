#!/usr/bin/env bash
# The chain from a canary to a checked window (README.md beside this file):
#   1. a canary restart of b through HAProxy (canary.cfg), its log fitted:
#      canary-haproxy.log, canary-backend.txt -> fit.json (slowstart fit)
#   2. slowstart recommend --from haproxy.cfg --fit fit.json --rps 75 --workers 4 restart.txt
#      -> recommend.txt, recommend.json, emit.txt; the window W
#   3. the same restart of b, for real, under 75 requests a second, twice:
#      haproxy.cfg as it is (without-*) and with `slowstart W` added to its
#      default-server line (haproxy-slowstart.cfg, with-*).
# About 2 minutes; bounded by timeout; every process it starts is stopped by
# its pid; ports 24600-24611. Needs build/slowstart (npm run build:native).
#     apt-get install -y haproxy    (HAProxy 2.6.12 when recorded)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../traffic_real/lib.sh"
canary="$here/../system_canary"
slowstart=${SLOWSTART:-"$here/../../../build/slowstart"}
rps=75

# The app: 40 ms a request warm, 4 requests served at once (more wait for a
# slot). A restarted process is cold: 6 x 40 ms at first, warm after 300
# requests (canary_backend.py: BASE_MS COLD_FACTOR WARMUP SLOTS).
cold_app() { bg "$py" "$canary/canary_backend.py" "$1" 40 6 300 4 --by-requests > "$2"; }
warm_app() { bg "$py" "$canary/canary_backend.py" "$1" 40 1 0 4 > /dev/null; }
until_second() { "$py" -c "import time; time.sleep(max(0.0, $1 - time.time()))"; }

# ---- 1. the canary: b restarted alone, its rate ramping from 5 to 30 a second over 30 s ----
sed "s#DIR#$tmp#g" "$here/canary.cfg" > "$tmp/canary.cfg"
haproxy -c -q -f "$tmp/canary.cfg"
bg haproxy -f "$tmp/canary.cfg" -db > "$tmp/canary-raw.log" 2>&1
cold_app 24611 "$here/canary-backend.txt"
sleep 1
timeout 60 "$py" "$canary/ramp_client.py" http://127.0.0.1:24610/ 5 30 30
sleep 1
grep ' canary/b ' "$tmp/canary-raw.log" > "$here/canary-haproxy.log" || true
stop_run

# ---- 2. the fit and the recommendation ----
"$slowstart" fit --json --log-format haproxy "$here/canary-haproxy.log" > "$here/fit.json"
( cd "$here" && "$slowstart" recommend --from haproxy.cfg --fit fit.json --rps $rps --workers 4 restart.txt ) > "$here/recommend.txt" 2>&1 || true
( cd "$here" && "$slowstart" recommend --from haproxy.cfg --fit fit.json --rps $rps --workers 4 --emit haproxy restart.txt ) > "$here/emit.txt" || true
window=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['window_s'])" \
  <(cd "$here" && "$slowstart" recommend --from haproxy.cfg --fit fit.json --rps $rps --workers 4 --json restart.txt || true))
echo "recommended window: ${window} s"
sed "s/^\(    default-server .*\)$/\1 slowstart ${window}s/; s/^# No slowstart: .*/# With the recommended slowstart (record.sh wrote this file)./" \
  "$here/haproxy.cfg" > "$here/haproxy-slowstart.cfg"

# ---- 3. the restart, for real: b stopped at 5 s, started again cold at 9 s ----
run() {  # CONFIG PREFIX
  local start
  start=$(at_second 3)
  warm_app 24601
  warm_app 24603
  warm_app 24602
  local old_b=$!
  sleep 1
  haproxy_start "$1" "$start"
  bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 42 "$start" b > "$here/$2-stat.txt"
  client http://127.0.0.1:24600/ $rps 40 "$start" "$here/$2-client.txt" &
  local client_pid=$!
  until_second "$start + 5"
  kill "$old_b"
  until_second "$start + 9"
  cold_app 24602 "$here/$2-b.txt"
  wait "$client_pid"
  sleep 1
  haproxy_access "$start" "$here/$2-access.txt"
  stop_run
}
run "$here/haproxy.cfg" without
run "$here/haproxy-slowstart.cfg" with
echo "recorded in $here (window ${window} s)"
