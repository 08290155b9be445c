#!/usr/bin/env python3
"""An open-loop client: RPS requests a second for SECONDS, each in its own
thread, starting at a whole second of the wall clock (nginx's clock is whole
seconds). Prints one line per request: sent (s since start), status,
backend that answered, ms.

    client.py URL RPS SECONDS START_EPOCH
"""
import sys
import threading
import time
import urllib.request

url, rps, seconds, start = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
lines = []
lock = threading.Lock()


def one(i, sent):
    status, backend = 0, "-"
    try:
        with urllib.request.urlopen(f"{url}?r={i}", timeout=10) as r:
            status, backend = r.status, r.headers.get("X-Backend", "-")
            r.read()
    except urllib.error.HTTPError as e:
        status = e.code
    except Exception:
        status = -1
    with lock:
        lines.append((sent, status, backend, (time.time() - start - sent) * 1000))


while time.time() < start:
    time.sleep(0.0005)
threads = []
n = int(rps * seconds)
for i in range(n):
    at = start + i / rps
    while time.time() < at:
        time.sleep(0.0005)
    t = threading.Thread(target=one, args=(i, time.time() - start))
    t.start()
    threads.append(t)
for t in threads:
    t.join()
for sent, status, backend, ms in sorted(lines):
    print(f"{sent:.3f} {status} {backend} {ms:.0f}")
