#!/usr/bin/env bash
# Records two canary restarts through Debian's proxies on 127.0.0.1, each a
# fresh backend process (cold from its start, canary_backend.py) behind
# the proxy, loaded by a client whose rate ramps from 10 to 60 requests a
# second over 20 s (ramp_client.py):
#   nginx    the backend warms by time: 40 ms x (1 + 4 x coldness), 8 s, 64 slots
#            (nginx-access.log: log_format canary '$msec $upstream_addr
#             $upstream_response_time $upstream_status')
#   haproxy  the backend warms by requests: 40 ms x (1 + 4 x coldness), 300 requests,
#            64 slots (haproxy.log: option httplog)
# and each backend's own log of what it did (nginx-backend.txt,
# haproxy-backend.txt: arrival, start, service ms, in service), the truth.
# About 50 s. Every process it starts is stopped by its pid; ports
# 25000-25011 (nothing else of the project uses them).
#     apt-get install -y nginx haproxy    (nginx 1.22.1, HAProxy 2.6.12 when recorded)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
# The recordings' shared steps: Python, priority, a temporary folder, and
# `bg`/`stop_run`, which start and stop processes by their pid.
source "$here/../traffic_real/lib.sh"

# ---- nginx: a backend that warms by time ----
cat > "$tmp/nginx.conf" <<CONF
worker_processes 1;
pid $tmp/nginx.pid;
error_log $tmp/nginx-error.log notice;
events { worker_connections 1024; }
http {
    access_log off;
    log_format canary '\$msec \$upstream_addr \$upstream_response_time \$upstream_status';
    upstream canary { server 127.0.0.1:25001; }
    server {
        listen 127.0.0.1:25000;
        location / {
            proxy_pass http://canary;
            proxy_read_timeout 10s;
            access_log $tmp/nginx-access.log canary;
        }
    }
}
CONF
nginx -t -q -p "$tmp" -c "$tmp/nginx.conf"
bg nginx -p "$tmp" -c "$tmp/nginx.conf" -g 'daemon off;'
bg "$py" "$here/canary_backend.py" 25001 40 5 8 64 > "$here/nginx-backend.txt"
sleep 1
timeout 60 "$py" "$here/ramp_client.py" http://127.0.0.1:25000/ 10 60 20
sleep 1
cp "$tmp/nginx-access.log" "$here/nginx-access.log"
stop_run

# ---- HAProxy: a backend that warms by requests ----
cat > "$tmp/haproxy.cfg" <<CONF
global
    log stdout format raw local0
defaults
    mode http
    log global
    option httplog
    timeout connect 1s
    timeout client 10s
    timeout server 10s
frontend canary
    bind 127.0.0.1:25010
    default_backend canary
backend canary
    server c 127.0.0.1:25011 maxconn 200
CONF
haproxy -c -q -f "$tmp/haproxy.cfg"
bg haproxy -f "$tmp/haproxy.cfg" -db > "$tmp/haproxy-raw.log" 2>&1
bg "$py" "$here/canary_backend.py" 25011 40 5 300 64 --by-requests > "$here/haproxy-backend.txt"
sleep 1
timeout 60 "$py" "$here/ramp_client.py" http://127.0.0.1:25010/ 10 60 20
sleep 1
grep ' canary/c ' "$tmp/haproxy-raw.log" > "$here/haproxy.log" || true
echo "recorded in $here: $(wc -l < "$here/nginx-access.log") nginx lines, $(wc -l < "$here/haproxy.log") HAProxy lines"
