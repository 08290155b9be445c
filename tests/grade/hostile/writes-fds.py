# A hostile submission (docs/SECURITY.md): it writes through descriptors
# the grader's caller left open (`exec 3>>log`, a harness's
# close_fds=False), into a file its user could never open. argv[1:]: the
# descriptors to try. It says on stderr what happened, and prints the right
# answer (a).
import os
import sys

sys.stdin.buffer.read()
for fd in map(int, sys.argv[1:]):
    try:
        os.write(fd, b"HIJACKED through an inherited descriptor\n")
        sys.stderr.write(f"fd {fd}: written\n")
    except OSError as e:
        sys.stderr.write(f"fd {fd}: {e.strerror}\n")
print("a")
