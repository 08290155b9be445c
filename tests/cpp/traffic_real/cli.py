#!/usr/bin/env python3
"""Sends runtime commands to HAProxy's stats socket at given instants and
prints each with HAProxy's reply: time (s since START_EPOCH), the command,
the reply (one line, "-" when empty).

    cli.py SOCKET START_EPOCH "T COMMAND" ...

For example "2 set server pool/b state maint" at 2 s. The commands are sent in
the order given; each one waits for its instant. "T COMMAND > PATH" writes
the whole reply to PATH instead (e.g. "show servers state > FILE", the
state file a reload can load)."""
import sys
import time

from hasock import ask

path, start = sys.argv[1], float(sys.argv[2])
for item in sys.argv[3:]:
    at, command = item.split(" ", 1)
    while time.time() < start + float(at):
        time.sleep(0.001)
    command, _, out = command.partition(" > ")
    sent = time.time() - start
    try:
        reply = ask(path, command)
    except OSError as e:
        reply = f"error: {e}".encode()
    if out:
        with open(out, "wb") as f:
            f.write(reply)
        reply = f"{len(reply.splitlines())} lines to {out}".encode()
    text = " | ".join(line for line in reply.decode().splitlines() if line.strip()) or "-"
    print(f"{sent:.3f} {command} -> {text}", flush=True)
