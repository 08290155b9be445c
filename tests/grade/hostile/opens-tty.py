# A hostile submission (docs/SECURITY.md): it opens the grader's terminal
# (/dev/tty) to type a command into the shell the grader runs in (TIOCSTI)
# and to write over the report on the screen. A program in a session of its
# own has no controlling terminal: /dev/tty is "No such device or address".
# It says on stderr what it could do, and prints the right answer (a) so
# that only the terminal tells the attack apart.
import fcntl
import os
import sys
import termios

sys.stdin.buffer.read()
try:
    fd = os.open("/dev/tty", os.O_RDWR)
    os.write(fd, b"\r\nHIJACKED-THE-TERMINAL\r\n")
    try:
        for c in b"echo TYPED-INTO-THE-SHELL\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))
        sys.stderr.write("tty: opened and typed into\n")
    except OSError as e:
        sys.stderr.write(f"tty: opened, TIOCSTI refused: {e.strerror}\n")
except OSError as e:
    sys.stderr.write(f"tty: {e.strerror}\n")
print("a")
