#!/usr/bin/env python3
"""A backend that is slow when cold, for the recorded nginx/HAProxy runs.

    backend.py PORT NAME BASE_MS COLD_FACTOR WARMUP_S START_EPOCH

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
lock = threading.Lock()


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        now = time.time() - start
        ms = 0.0
        if self.path != "/health":
            coldness = max(0.0, 1.0 - now / warmup) if warmup > 0 and now >= 0 else 0.0
            ms = base_ms * (1.0 + (cold_factor - 1.0) * coldness)
            with lock:
                print(f"{now:.3f} {self.path} {ms:.0f}", flush=True)
            time.sleep(ms / 1000.0)
        body = name.encode()
        try:
            self.send_response(200)
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
