# A hostile submission (docs/SECURITY.md): 200 children that outlive it,
# half of them in sessions of their own. argv[1]: a file where each child
# writes its pid (the test checks that none is alive).
# (Each pid as the grader sees it, /proc/self, whatever PID namespace the process is in.)
import os
import sys
import time

sys.stdin.buffer.read()
ready, told = os.pipe()
for i in range(200):
    if os.fork() == 0:
        if i % 2:
            os.setsid()
        try:
            with open(sys.argv[1], "a") as f:
                f.write(f"{int(os.readlink('/proc/self'))}\n")
        except OSError:
            pass
        os.write(told, b"x")  # the pid is written
        time.sleep(60)
        os._exit(0)
os.close(told)
left = 200
while left:
    got = os.read(ready, left)
    if not got:
        break
    left -= len(got)
