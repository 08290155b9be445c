#!/usr/bin/env python3
"""A minimal DNS server on 127.0.0.1 (UDP) for HAProxy's resolvers: a name
appears at a given instant, as when a new instance registers in a service's
DNS.

    dns.py PORT NAME IP FROM_S START_EPOCH

Answers A queries for NAME with IP from FROM_S seconds after START_EPOCH
(TTL 1 s); before that, and for other names, NXDOMAIN; other query types for
NAME get an empty answer. Logs each query: time (s since START_EPOCH), name,
type, rcode, answers. Only what HAProxy's resolver sends is understood: one
question, name in plain labels (no compression in queries)."""
import socket
import struct
import sys
import time

port, name, ip = int(sys.argv[1]), sys.argv[2].lower().rstrip("."), sys.argv[3]
from_s, start = float(sys.argv[4]), float(sys.argv[5])
TYPE_A = 1
NXDOMAIN = 3


def question(packet):
    """Returns (qname, qtype, end offset of the question)."""
    at, labels = 12, []
    while packet[at]:
        size = packet[at]
        labels.append(packet[at + 1:at + 1 + size].decode("ascii", "replace"))
        at += 1 + size
    qtype, _qclass = struct.unpack("!HH", packet[at + 1:at + 5])
    return ".".join(labels).lower(), qtype, at + 5


def answer(packet, now):
    qid, flags = struct.unpack("!HH", packet[:4])
    qname, qtype, end = question(packet)
    known = qname == name and now >= from_s
    rcode = 0 if known else NXDOMAIN
    records = b""
    if known and qtype == TYPE_A:
        # Name as a pointer to the question (offset 12), type A, class IN, TTL 1.
        records = struct.pack("!HHHIH", 0xC00C, TYPE_A, 1, 1, 4) + socket.inet_aton(ip)
    # Response, recursion desired copied, recursion available.
    reply_flags = 0x8000 | (flags & 0x0100) | 0x0080 | rcode
    head = struct.pack("!HHHHHH", qid, reply_flags, 1, 1 if records else 0, 0, 0)
    return head + packet[12:end] + records, qname, qtype, rcode, bool(records)


sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
sock.bind(("127.0.0.1", port))
while True:
    packet, peer = sock.recvfrom(4096)
    now = time.time() - start
    try:
        reply, qname, qtype, rcode, answered = answer(packet, now)
    except (IndexError, struct.error):
        continue  # not a query this server understands: no answer
    sock.sendto(reply, peer)
    print(f"{now:.3f} {qname} type={qtype} rcode={rcode} answers={int(answered)}", flush=True)
