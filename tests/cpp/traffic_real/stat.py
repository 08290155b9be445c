#!/usr/bin/env python3
"""Polls HAProxy's stats socket every 50 ms for SECONDS and prints each
change of server b's status or effective weight: time (s since START), status, weight."""
import socket
import sys
import time

path, seconds, start = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
last = None
while time.time() < start + seconds:
    try:
        s = socket.socket(socket.AF_UNIX)
        s.connect(path)
        s.sendall(b"show stat\n")
        data = b""
        while chunk := s.recv(65536):
            data += chunk
        s.close()
        rows = [r.split(",") for r in data.decode().splitlines()]
        head = rows[0]
        col = {n.lstrip("# "): i for i, n in enumerate(head)}
        for r in rows[1:]:
            if len(r) > col["weight"] and r[col["pxname"]] == "pool" and r[col["svname"]] == "b":
                now = (r[col["status"]], r[col["weight"]])
                if now != last:
                    print(f"{time.time() - start:.3f} {now[0]} {now[1]}", flush=True)
                    last = now
    except OSError:
        pass
    time.sleep(0.05)
