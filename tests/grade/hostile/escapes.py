# A hostile submission (docs/SECURITY.md): every way out of a grader that
# looks for a program's processes by their parent, group, session or
# environment, at once. The program double-forks; the daemon goes into a
# session of its own and re-executes itself as a shell with an empty
# environment (no mark a grader could have put there), which hops from pid
# to pid (a new session and a new pid each time, the old one exits) as fast
# as it can. The program prints its answer only once the daemon runs, so
# the daemon is alive when the program ends. argv[1]: a folder for its
# state: "first" (the daemon's first pid) and "current" (its pid now,
# rewritten at every hop), each as the grader sees it (/proc/self/stat read
# by the shell itself: /proc is the machine's, whatever PID namespace the
# process is in); the test checks that none of them is alive once the
# grader ends. The daemon stops by itself after 20,000 hops, or once
# argv[1]/stop exists.
import os
import sys
import time

HOPPER = r"""
read -r pid _ </proc/self/stat
[ "$2" = 0 ] && echo "$pid" >"$1/first"
echo "$pid" >"$1/current"
[ -e "$1/stop" ] || [ "$2" -ge 20000 ] || exec setsid -f /bin/sh -c "$0" "$0" "$1" $(($2 + 1)) </dev/null >/dev/null 2>&1
"""

state = sys.argv[1]
sys.stdin.buffer.read()
for name in ("first", "current"):
    try:
        os.unlink(os.path.join(state, name))
    except FileNotFoundError:
        pass
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        os.execve("/bin/sh", ["/bin/sh", "-c", HOPPER, HOPPER, state, "0"], {})
    os._exit(0)
for _ in range(2000):
    if os.path.exists(os.path.join(state, "current")):
        break
    time.sleep(0.005)
print("a")
