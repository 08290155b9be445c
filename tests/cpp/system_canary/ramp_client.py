#!/usr/bin/env python3
"""An open-loop client whose rate ramps: from RATE0 to RATE1 requests a
second over SECONDS (so that requests served and time since the start tell
different stories), each request in its own thread. Prints nothing; the
proxy's access log is the record.

    ramp_client.py URL RATE0 RATE1 SECONDS
"""
import sys
import threading
import time
import urllib.request

url, r0, r1, seconds = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])


def one(i):
    try:
        with urllib.request.urlopen(f"{url}?r={i}", timeout=10) as r:
            r.read()
    except Exception:
        pass


start = time.time()
threads = []
t, i = 0.0, 0
while t < seconds:
    at = start + t
    while time.time() < at:
        time.sleep(0.0005)
    th = threading.Thread(target=one, args=(i,))
    th.start()
    threads.append(th)
    rate = r0 + (r1 - r0) * t / seconds
    t += 1.0 / rate
    i += 1
for th in threads:
    th.join()
