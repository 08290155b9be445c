#!/usr/bin/env python3
"""A backend that is slow when cold, for the recorded nginx/HAProxy runs.

    backend.py PORT NAME BASE_MS COLD_FACTOR WARMUP_S START_EPOCH [options]

Options (the later recordings use them; without them the behaviour is the
first recording's):
    --log-health          also log each /health check (arrival, "/health", 0):
                          the proxy's real check grid
    --health-fail A B     /health answers 503 from A to B seconds after
                          START_EPOCH (a restarting app whose readiness fails)
    --cold-until S        cold model for S seconds only: warm before 0 and
                          after S, and cold at the START_EPOCH coldness (1) for
                          the whole of [0, S) when WARMUP_S is 0 (a backend
                          that stays slow: every request COLD_FACTOR x BASE_MS)

Warm until START_EPOCH; then as if restarted at that instant: a request to /
takes BASE_MS x (1 + (COLD_FACTOR - 1) x coldness) ms, coldness falling
linearly from 1 at START_EPOCH to 0 WARMUP_S seconds later (the lab's
--warm-by time). The process itself is up all along, so the proxies' checks
see it UP from the beginning (a restart the balancer did not notice; the
lab's ADD without a ramp). Every request has its own thread (no queue: the
lab's workers are many). /health answers at once (an active check is cheap).
The response names the backend (X-Backend). Each request to / is logged to
stdout: arrival (s since START_EPOCH), path, service ms.
"""
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port, name = int(sys.argv[1]), sys.argv[2]
base_ms, cold_factor, warmup = float(sys.argv[3]), float(sys.argv[4]), float(sys.argv[5])
start = float(sys.argv[6])
extra = sys.argv[7:]
log_health = "--log-health" in extra
health_fail = None
if "--health-fail" in extra:
    k = extra.index("--health-fail")
    health_fail = (float(extra[k + 1]), float(extra[k + 2]))
cold_until = None
if "--cold-until" in extra:
    cold_until = float(extra[extra.index("--cold-until") + 1])
lock = threading.Lock()


def coldness(now):
    """1 when just restarted, falling linearly to 0 over WARMUP_S; with
    --cold-until and WARMUP_S 0, 1 for the whole of [0, cold_until)."""
    if now < 0:
        return 0.0
    if cold_until is not None:
        if now >= cold_until:
            return 0.0
        if warmup <= 0:
            return 1.0
    return max(0.0, 1.0 - now / warmup) if warmup > 0 else 0.0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        now = time.time() - start
        ms = 0.0
        status = 200
        if self.path != "/health":
            ms = base_ms * (1.0 + (cold_factor - 1.0) * coldness(now))
            with lock:
                print(f"{now:.3f} {self.path} {ms:.0f}", flush=True)
            time.sleep(ms / 1000.0)
        else:
            if health_fail and health_fail[0] <= now < health_fail[1]:
                status = 503
            if log_health:
                with lock:
                    print(f"{now:.3f} /health {status}", flush=True)
        body = name.encode()
        try:
            self.send_response(status)
            self.send_header("X-Backend", name)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the proxy gave up (its timeout): the work was done anyway

    def log_message(self, *args):
        pass


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
