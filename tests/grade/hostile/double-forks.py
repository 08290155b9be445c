# A hostile submission (docs/SECURITY.md): a plain double fork with no wait
# (the daemon of every tutorial): the program prints its answer and ends at
# once, while its child goes into a session of its own, forks the daemon
# and ends. argv[1]: a file where the daemon writes its pid (the test checks
# that none is alive once the grader ends).
import os
import sys
import time

sys.stdin.buffer.read()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        with open(sys.argv[1], "a") as f:
            f.write(f"{os.getpid()}\n")
        time.sleep(60)
    os._exit(0)
print("a")
