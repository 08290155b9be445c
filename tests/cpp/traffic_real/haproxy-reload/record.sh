#!/usr/bin/env bash
# Records a reload during a slowstart ramp, without and with a server-state
# file (README.md beside this file): `bash record.sh [plain|state-file]`, both
# when none is given. About 15 s each; every process is stopped by pid.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../lib.sh"

run() {  # NAME STATE_LINE
  local name=$1 state=$2
  start=$(at_second 8)
  backend 24161 a 50 1 0 "$start" /dev/null
  backend 24162 b 50 1 0 "$start" /dev/null
  sleep 1.5
  rm -f "$tmp/server-state"
  sed "s#STATE#$state#" "$here/haproxy.cfg" > "$tmp/reload.cfg"
  haproxy_start "$tmp/reload.cfg" "$start"
  local old=${pids[-1]}
  bg "$py" "$harness/stat.py" "$tmp/haproxy.sock" 9 "$start" b > "$here/$name-stat.txt"
  # b to maintenance at 1 s, back at 2 s: its ramp runs from 2 s to 6 s.
  "$py" "$harness/cli.py" "$tmp/haproxy.sock" "$start" \
    "1 set server pool/b state maint" "2 set server pool/b state ready" > "$here/$name-cli.txt" &
  local cli_pid=$!
  client http://127.0.0.1:24160/ 20 8 "$start" "$here/$name-client.txt" &
  local client_pid=$!
  # At 3.4 s the old process's states go to the state file; at 3.5 s the
  # reload: a new process with -sf the old one (which finishes its requests).
  "$py" "$harness/cli.py" "$tmp/haproxy.sock" "$start" "3.4 show servers state > $tmp/server-state" \
    "3.5 show info > /dev/null" >> "$here/$name-cli.txt"
  wait "$cli_pid"
  echo "$("$py" -c "import time; print(f'{time.time() - $start:.3f}')") reload" > "$here/$name-reload.txt"
  bg haproxy -f "$tmp/haproxy.cfg" -db -sf "$old" > >("$py" "$harness/stamp.py" "$start" > "$tmp/haproxy-raw-new.log") 2>&1
  wait "$client_pid"
  sleep 1.5
  cat "$tmp/haproxy-raw.log" "$tmp/haproxy-raw-new.log" > "$tmp/haproxy-raw-all.log"
  mv "$tmp/haproxy-raw-all.log" "$tmp/haproxy-raw.log"
  haproxy_access "$start" "$here/$name-access.txt"
  stop_run
}

runs=("$@")
[ ${#runs[@]} -gt 0 ] || runs=(plain state-file)
for name in "${runs[@]}"; do
  case $name in
    plain) run plain "" ;;
    state-file) run state-file "load-server-state-from-file global" ;;
    *) echo "unknown run $name" >&2; exit 2 ;;
  esac
done
echo "recorded in $here"
