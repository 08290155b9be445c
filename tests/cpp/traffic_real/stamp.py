#!/usr/bin/env python3
"""Prefixes each line of standard input with the time it arrived, in seconds
since START_EPOCH (HAProxy's health messages carry no time of their own)."""
import sys
import time

start = float(sys.argv[1])
for line in sys.stdin:
    print(f"{time.time() - start:.3f} {line}", end="", flush=True)
