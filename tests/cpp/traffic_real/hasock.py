"""HAProxy's stats socket, for stat.py and cli.py: one command, its reply."""
import socket


def ask(path, command):
    """Sends COMMAND to the socket at PATH and returns the whole reply (bytes).
    Raises OSError when the socket is not there (yet, or any more)."""
    s = socket.socket(socket.AF_UNIX)
    try:
        s.connect(path)
        s.sendall(command.encode() + b"\n")
        reply = b""
        while chunk := s.recv(65536):
            reply += chunk
        return reply
    finally:
        s.close()
