#!/usr/bin/env python3
"""Polls HAProxy's stats socket every 50 ms for SECONDS and prints each
change of server b's status or effective weight: time (s since START), status, weight.

    stat.py SOCKET SECONDS START_EPOCH [SERVER ...]

With SERVER names (later recordings), it watches those servers of backend
"pool" and each line also names the server and adds two counters: time,
server, status, weight, chkfail (failed checks, the simulated ones included),
hanafail (times observe's error-limit was reached). A line is printed when
any of them changes. HAProxy's status column carries the check progress
("DOWN 1/2", "UP 2/3")."""
import sys
import time

from hasock import ask

path, seconds, start = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
servers = sys.argv[4:]
named = bool(servers)
if not named:
    servers = ["b"]
last = {}
while time.time() < start + seconds:
    try:
        data = ask(path, "show stat")
        rows = [r.split(",") for r in data.decode().splitlines()]
        head = rows[0]
        col = {n.lstrip("# "): i for i, n in enumerate(head)}
        for r in rows[1:]:
            if len(r) > col["weight"] and r[col["pxname"]] == "pool" and r[col["svname"]] in servers:
                name = r[col["svname"]]
                now = (r[col["status"]], r[col["weight"]])
                if named:
                    now += (r[col["chkfail"]], r[col["hanafail"]])
                if now != last.get(name):
                    label = f" {name}" if named else ""
                    print(f"{time.time() - start:.3f}{label} {' '.join(now)}", flush=True)
                    last[name] = now
    except OSError:
        pass
    time.sleep(0.05)
