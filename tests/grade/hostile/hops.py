# A hostile submission (docs/SECURITY.md): the first time it runs it leaves
# a process that hops from pid to pid (fork, setsid, the parent exits: a
# new pid and a new session every millisecond), too fast for a grader that
# looks for strays in /proc; it beats a heartbeat file at every hop. Every
# later run checks the heartbeat: a hopper still alive prints "alive" (a
# wrong answer), else the right one (a). argv[1]: a folder for its state;
# the hopper stops by itself after argv[2] seconds, or once argv[1]/stop exists.
import os
import sys
import time

sys.stdin.buffer.read()
state = sys.argv[1]
seconds = float(sys.argv[2])
heartbeat = os.path.join(state, "heartbeat")
try:
    os.mkdir(os.path.join(state, "started"))
    first = True
except FileExistsError:
    first = False
if first:
    if os.fork() == 0:
        start = time.time()
        while time.time() - start < seconds and not os.path.exists(os.path.join(state, "stop")):
            os.setsid()
            with open(heartbeat, "w") as f:
                f.write(f"{os.getpid()} {time.time()}\n")
            time.sleep(0.001)
            if os.fork() != 0:
                os._exit(0)
        os._exit(0)
    # Answer only once the hopper has beaten once: on a loaded machine the
    # child may not be scheduled before the parent's answer ends the test
    # and the grader's kill, which would leave nothing to prove gone.
    deadline = time.time() + 20
    while not os.path.exists(heartbeat) and time.time() < deadline:
        time.sleep(0.001)
    print("a")
else:
    def beat():
        try:
            with open(heartbeat) as f:
                return f.read()
        except OSError:
            return ""
    before = beat()
    time.sleep(0.3)
    print("alive" if beat() != before else "a")
