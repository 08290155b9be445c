# A hostile submission (docs/SECURITY.md): a fork bomb that leaves its
# process group: a child in a session of its own, and every process it
# makes forks again without end (each in a new session too), retrying when
# the user's process limit says no. It prints the right answer (a) first.
# The test runs it as an unprivileged user under a process limit (prlimit
# --nproc), so it stays within that limit; without one it does not start
# (a shared machine is no place for a real one). argv[1]: it stops by
# itself after that many seconds; argv[2]: a file it marks when it starts.
import os
import resource
import sys
import time

sys.stdin.buffer.read()
print("a", flush=True)
limit, _ = resource.getrlimit(resource.RLIMIT_NPROC)
if os.getuid() == 0 or limit == resource.RLIM_INFINITY or limit > 500:
    sys.stderr.write(f"fork-bomb.py: not started: no process limit under 500 (uid {os.getuid()}, limit {limit})\n")
    sys.exit(0)
with open(sys.argv[2], "a") as f:
    f.write(f"{os.getpid()}\n")
if os.fork() == 0:
    start = time.time()
    os.setsid()
    while time.time() - start < float(sys.argv[1]):
        try:
            if os.fork() == 0:
                os.setsid()
        except OSError:
            time.sleep(0.001)
    os._exit(0)
