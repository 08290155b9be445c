# Shared by the recording scripts in the folders beside this file (each
# folder's record.sh sources it). run.sh, the first recording, predates it and
# keeps its own copy of these steps so that its fixtures stay as recorded.
#
# Everything a script starts goes through `bg` and is stopped by its pid on
# exit (never by name: other people's proxies may run on the same machine).
# Ports: each script takes its own from 24000-24999.

harness=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# A recording is a timing measurement: on a machine busy with builds, give
# this script and everything it starts a higher priority (they mostly sleep,
# so this costs the builds little). Needs root; harmless without it.
renice -n -10 -p $$ > /dev/null 2>&1 || true
# Debian's Python 3.11 starts in ~0.1 s; a version manager's shim on PATH can
# take seconds under load, which would shift every process's start.
py=/usr/bin/python3
[ -x "$py" ] || py=python3
tmp=$(mktemp -d)
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 0.3
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null || true; done
  rm -rf "$tmp"
}
trap cleanup EXIT

# bg CMD...: start in the background and remember the pid.
bg() { "$@" & pids+=($!); }

# stop_run: stops what this script started so far (by pid), before a second
# run of the same script reuses the ports.
stop_run() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  sleep 0.5
  pids=()
}

# at_second N: a whole second of the wall clock N seconds from now (nginx's
# clock is whole seconds, so runs start on one).
at_second() { "$py" -c "import time; print(int(time.time()) + $1)"; }

# relative START < log: first field (epoch seconds) made relative to START.
relative() { awk -v s="$1" '{ printf "%.3f", $1 - s; $1 = ""; print }'; }

# backend PORT NAME BASE_MS COLD_FACTOR WARMUP_S START OUT [backend.py options]
backend() {
  local port=$1 name=$2 base=$3 cold=$4 warm=$5 start=$6 out=$7
  shift 7
  bg "$py" "$harness/backend.py" "$port" "$name" "$base" "$cold" "$warm" "$start" "$@" > "$out"
}

# client URL RPS SECONDS START OUT: the open-loop client, bounded by timeout.
client() { timeout $(( ${3%.*} + 20 )) "$py" "$harness/client.py" "$1" "$2" "$3" "$4" > "$5"; }

# client_two_rates URL START OUT_LOW OUT_HIGH: 10 requests a second from 0
# to 6 s (servers of 50 ms are idle between requests), then 100 a second from
# 6 to 12 s (about 5 in flight) to URL "fast" (its requests are told apart in
# the logs). Times in OUT_HIGH are from START too.
client_two_rates() {
  local url=$1 start=$2
  client "$url/" 10 6 "$start" "$3" &
  local slow=$!
  client "$url/fast" 100 6 "$((start + 6))" "$tmp/client-high.txt"
  wait "$slow"
  awk '{ printf "%.3f", $1 + 6; $1 = ""; print }' "$tmp/client-high.txt" > "$4"
}

# haproxy_start CONFIG START: fills DIR in CONFIG, runs HAProxy in the
# foreground mode (-db) with its log lines stamped on arrival by stamp.py.
# The stats socket is $tmp/haproxy.sock; the raw log is $tmp/haproxy-raw.log.
haproxy_start() {
  sed "s#DIR#$tmp#g" "$1" > "$tmp/haproxy.cfg"
  haproxy -c -q -f "$tmp/haproxy.cfg"
  bg haproxy -f "$tmp/haproxy.cfg" -db > >("$py" "$harness/stamp.py" "$2" > "$tmp/haproxy-raw.log") 2>&1
}

# haproxy_access START OUT: HAProxy's request lines (accept time, server,
# status, retries, response ms, URI) and its own server/health messages
# (stamped on arrival), in time order, times relative to START.
haproxy_access() {
  awk '$2 ~ /^[0-9]+\.[0-9]+$/ && $2 > 1e9 { $1 = ""; print; next }
       /^[-0-9.]+ (Server|Health check for( backup)? server) pool\// { print }' "$tmp/haproxy-raw.log" |
    awk -v s="$1" '$1 ~ /^[0-9]+\.[0-9]+$/ && $1 > 1e9 { printf "%.3f", $1 - s; $1 = ""; print; next } { print }' |
    sort -n -s -k1,1 > "$2" || true
}

# nginx_start CONFIG: fills DIR in CONFIG and runs nginx with its own prefix
# and pid file in $tmp (never the system's).
nginx_start() {
  sed "s#DIR#$tmp#g" "$1" > "$tmp/nginx.conf"
  nginx -t -q -p "$tmp" -c "$tmp/nginx.conf"
  bg nginx -p "$tmp" -c "$tmp/nginx.conf" -g 'daemon off;'
}

# nginx_access START OUT: nginx's access log ($msec, upstreams tried, their
# statuses, status, URI), times relative to START, in time order.
nginx_access() { relative "$1" < "$tmp/nginx-access.log" | sort -n > "$2"; }

# per_second FILE [FILTER]: count lines per whole second of their first field
# (used by the READMEs' tables; FILTER is an awk condition on the line).
per_second() {
  awk "${2:-1}"' { c[int($1)]++ } END { for (k in c) print k, c[k] }' "$1" | sort -n
}
