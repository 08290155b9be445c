#!/usr/bin/env python3
"""A backend that restarts cold, for the recorded canaries.

    canary_backend.py PORT BASE_MS COLD_FACTOR WARMUP SLOTS [--by-requests]

Cold from the moment the process starts (a real restart): a request takes
BASE_MS x (1 + (COLD_FACTOR - 1) x coldness) ms, coldness falling linearly
from 1 to 0 over WARMUP seconds since the start (or, with --by-requests,
over WARMUP requests started since the start): the lab's service model,
--warm-by time or requests. SLOTS requests are served at once; more wait
for a slot, first come first served (the lab's --workers). /health answers
at once. Each request to / is logged to stdout (the truth the fit is held
to): arrival and start of service in seconds since the process started,
its service ms, the requests in service as it started.
"""
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

port = int(sys.argv[1])
base_ms, cold_factor, warmup, slots = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), int(sys.argv[5])
by_requests = "--by-requests" in sys.argv[6:]
started = time.time()
lock = threading.Lock()
free = threading.Semaphore(slots)
served = 0
busy = 0


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"

    def do_GET(self):
        global served, busy
        arrival = time.time() - started
        ms = 0.0
        if self.path != "/health":
            free.acquire()
            with lock:
                begin = time.time() - started
                x = served if by_requests else begin
                coldness = max(0.0, 1.0 - x / warmup) if warmup > 0 else 0.0
                ms = base_ms * (1.0 + (cold_factor - 1.0) * coldness)
                served += 1
                busy += 1
                in_service = busy
            time.sleep(ms / 1000.0)
            with lock:
                busy -= 1
                print(f"{arrival:.4f} {begin:.4f} {ms:.2f} {in_service}", flush=True)
            free.release()
        body = b"ok"
        try:
            self.send_response(200)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def log_message(self, *args):
        pass


ThreadingHTTPServer.daemon_threads = True
ThreadingHTTPServer.request_queue_size = 256
ThreadingHTTPServer(("127.0.0.1", port), Handler).serve_forever()
