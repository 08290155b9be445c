#!/usr/bin/env python3
"""A learner's slow-start balancer in Python, as a course would receive one.

    python3 learner.py [FILE] [--mistake ID] [--misbehave KIND]

Reads a script (stdin, or FILE) and prints what the SPEC says: WEIGHTS and
PICK lines on stdout, "line N: ..." on stderr for each rejected line, exit 1
when a line was rejected. It is written from the SPEC alone (no engine code).

--mistake ID makes one classic mistake of the engine's catalogue, as a
learner would make it (each is a small change at the place it happens), so
that the tests of `slowstart grade` can check the mistake gets named.
--batch (after --mistake) runs a JSON list of scripts from stdin in one
process, for the tests (see batch()).
--misbehave KIND misbehaves the way a submission can: crash, throw, hang,
hang-child, flood, stderr, exit-3, exit-0, float-weights (a real division for
the ramp, never rounded down: "b=2.5", "b=5.0").
"""
import os
import re
import signal
import sys
import time

MAX_WEIGHT = 1_000_000
MAX_TIME = 10**12
KEYWORDS = {b"POOL": (0, None), b"NOW": (1, 1), b"ADD": (2, 2), b"DOWN": (1, 1), b"UP": (2, 2),
            b"WEIGHTS": (0, 0), b"PICK": (0, 0)}
BIDI = set(range(0x202A, 0x202F)) | set(range(0x2066, 0x206A)) | {0x200E, 0x200F, 0x061C}


class Rejected(Exception):
    pass


class Backend:
    def __init__(self, name, target, ramp, joined):
        self.name, self.target, self.ramp, self.joined = name, target, ramp, joined
        self.up = True
        self.score = 0


def quantity(token, limit, what):
    if not re.fullmatch(rb"[0-9]+", token):
        raise Rejected(f"{what} must be a non-negative integer")
    value = int(token)
    if value > limit:
        raise Rejected(f"{what} is too large")
    return value


def check_name(name):
    try:
        text = name.decode("utf-8")
    except UnicodeDecodeError:
        raise Rejected("name is not valid UTF-8")
    if not text or "=" in text or any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 or ord(c) in BIDI for c in text):
        raise Rejected("bad backend name")
    return name


def entry(token):
    if token.count(b"=") != 1:
        raise Rejected("expected <name>=<weight>")
    name, weight = token.split(b"=")
    return check_name(name), quantity(weight, MAX_WEIGHT, "weight")


class Balancer:
    def __init__(self, mistake, float_weights=False):
        self.m = mistake
        self.float_weights = float_weights
        self.pool = []
        self.now = 0

    def find(self, name):
        for b in self.pool:
            if b.name == name:
                return b
        return None

    def ramp_weight(self, b):
        t, r, m = b.target, b.ramp, self.m
        elapsed = max(0, self.now - b.joined)
        if m == "no-clamp":
            elapsed = self.now - b.joined
        if m == "from-clock-zero":
            elapsed = self.now
        if r == 0:
            # pool-ramped: ramp 0 "avoided" as a divisor, t * min(elapsed, 0) // max(0, 1) = 0.
            return 0 if m == "pool-ramped" else t
        e = min(elapsed, r)
        if m == "no-cap":
            e = elapsed
        if m == "round-up":
            return -(-t * e // r)
        if m == "round-nearest":
            return (2 * t * e + r) // (2 * r)
        if m == "divide-first":
            return t * (e // r)
        if m == "floating-point":
            return int(t * e / r)
        if m == "overflow-32-bit":
            import ctypes
            product = ctypes.c_int32(t * e).value  # what an int would hold
            return int(product / r)
        if self.float_weights:
            return t * e / r
        w = t * e // r
        if m == "at-least-one" and w == 0 and t > 0:
            return 1
        return w

    def weight(self, b, showing=False):
        if not b.up and self.m not in ("down-shows-weight", "down-takes-part"):
            return 0
        return self.ramp_weight(b)

    def takes_part(self, b):
        if self.m == "weight-zero-takes-part":
            return b.up
        if self.m == "down-takes-part":
            return self.weight(b) > 0
        if self.m == "pick-ignores-ramp":
            return b.up and b.target > 0
        return b.up and self.weight(b) > 0

    def pick(self):
        m = self.m
        parts = [b for b in self.pool if self.takes_part(b)]
        fed = {id(b): (b.target if m == "pick-ignores-ramp" else self.weight(b)) for b in parts}
        if m == "highest-weight-wins":
            best = None
            for b in parts:
                if best is None or fed[id(b)] > fed[id(best)]:
                    best = b
            return best
        for b in self.pool:
            if b not in parts:
                if m == "others-reset":
                    b.score = 0
                elif m == "others-decay":
                    b.score = int(b.score / 2)
        best = self.pool[0] if m == "first-backend-default" and self.pool else None
        total = 0
        for b in parts:
            b.score += fed[id(b)]
            total += fed[id(b)]
            if best is None or b.score > best.score or (m == "ties-to-last" and b.score == best.score):
                best = b
        if best is not None:
            if m == "winner-pays-own-weight":
                best.score -= fed[id(best)]
            elif m != "no-subtract":
                best.score -= total
        return best

    def run(self, words):
        m, op, args = self.m, words[0], words[1:]
        low, high = KEYWORDS[op]
        if len(args) < low or (high is not None and len(args) > high and m != "extra-words-ignored"):
            raise Rejected("wrong number of arguments")
        if op == b"POOL":
            if not args and m == "bare-pool-rejected":
                raise Rejected("POOL needs backends")
            old = {b.name: b.score for b in self.pool}
            if m == "bad-pool-applied":
                self.pool = []
            fresh, seen = [], set()
            for token in args:
                name, weight = entry(token)
                if name in seen:
                    raise Rejected("duplicate name")
                seen.add(name)
                b = Backend(name, weight, 0, self.now)
                if m == "pool-keeps-scores":
                    b.score = old.get(name, 0)
                fresh.append(b)
                if m == "bad-pool-applied":
                    self.pool.append(b)
            self.pool = fresh
        elif op == b"NOW":
            value = quantity(args[0], MAX_TIME, "time")
            self.now = min(self.now + value, MAX_TIME) if m == "now-adds" else value
        elif op == b"ADD":
            name, weight = entry(args[0])
            ramp = quantity(args[1], MAX_TIME, "ramp")
            old = self.find(name)
            b = Backend(name, weight, ramp, self.now)
            if old is not None and m != "add-appends-duplicate":
                if m == "no-reset-on-join":
                    b.score = old.score
                self.pool[self.pool.index(old)] = b
            else:
                self.pool.append(b)
        elif op == b"DOWN":
            b = self.find(args[0])
            if b is None:
                raise Rejected("no backend named that")
            b.up = False
        elif op == b"UP":
            b = self.find(args[0])
            ramp = quantity(args[1], MAX_TIME, "ramp")
            if b is None:
                raise Rejected("no backend named that")
            if b.up and m == "up-no-restart":
                return None
            b.up, b.ramp, b.joined = True, ramp, self.now
            if m not in ("no-reset-on-join", "up-keeps-score"):
                b.score = 0
        elif op == b"WEIGHTS":
            if not self.pool and m == "empty-weights-silent":
                return None
            order = list(self.pool)
            if m == "weights-ignore-case":
                order.sort(key=lambda b: b.name.lower())
            elif m != "weights-pool-order":
                order.sort(key=lambda b: b.name)
            return b" ".join(b.name + b"=" + str(self.weight(b, True)).encode() for b in order)
        elif op == b"PICK":
            winner = self.pick()
            return b"NONE" if winner is None else winner.name
        return None


def words_of(line, m):
    if m == "tabs-in-words":
        return [w for w in line.split(b" ") if w]
    if m == "split-each-space":
        return line.split(b" ")
    if m == "any-blank-separates":
        # str.split(): any Unicode blank separates words.
        text = line.decode("utf-8", "surrogateescape")
        return [w.encode("utf-8", "surrogateescape") for w in text.split()]
    return [w for w in re.split(rb"[ \t]+", line) if w]


def run_script(data, mistake, misbehave, out, err):
    """Runs one script; its stdout to `out` (bytes), its diagnostics to `err`
    (text). Returns the exit status (misbehaving happens here too)."""
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    balancer = Balancer(mistake, misbehave == "float-weights")
    rejected = 0
    for number, line in enumerate(lines, 1):
        if line.endswith(b"\r") and mistake != "keep-cr":
            line = line[:-1]
        if not line.strip(b" \t"):
            continue
        words = words_of(line, mistake)
        if not words or words[0].startswith(b"#"):
            continue
        if mistake == "trailing-comments" and b"#" in line:
            words = words_of(line.split(b"#")[0], mistake)
            if not words:
                continue
        if mistake == "any-case-keywords":
            words[0] = words[0].upper()
        try:
            if words[0] not in KEYWORDS or any(w == b"" for w in words):
                raise Rejected("unknown command")
            printed_line = balancer.run(words)
        except Rejected as e:
            rejected += 1
            print(f"line {number}: {e}", file=err)
            continue
        if printed_line is not None:
            out.write(printed_line + b"\n")
            if misbehave == "crash":
                out.flush()
                os.kill(os.getpid(), signal.SIGSEGV)
            if misbehave == "throw":
                raise RuntimeError("something went wrong in my balancer")
            if misbehave == "hang":
                out.flush()
                time.sleep(60)
            if misbehave == "flood":
                while True:
                    out.write(b"x" * 65536 + b"\n")
    if misbehave == "stderr":
        err.write("debug: " + "y" * 200 + "\n" * 1 + ("noise\n" * 20000))
    out.flush()
    if misbehave == "exit-3":
        return 3
    if misbehave == "exit-0":
        return 0
    return 1 if rejected else 0


def batch(mistake):
    """--batch: stdin is a JSON list of scripts (base64); stdout a JSON list
    of {out (base64), err, status}, one per script, as separate runs would
    give them (the tests run a whole suite in one process: fast)."""
    import base64
    import io
    import json
    results = []
    for script in json.load(sys.stdin):
        out, err = io.BytesIO(), io.StringIO()
        status = run_script(base64.b64decode(script), mistake, None, out, err)
        results.append({"out": base64.b64encode(out.getvalue()).decode(), "err": err.getvalue(), "status": status})
    json.dump(results, sys.stdout)


def main():
    args = sys.argv[1:]
    mistake = misbehave = path = None
    while args:
        a = args.pop(0)
        if a == "--mistake":
            mistake = args.pop(0)
        elif a == "--misbehave":
            misbehave = args.pop(0)
        elif a == "--batch":
            return batch(mistake)
        else:
            path = a
    if misbehave == "hang-child":
        # A child that outlives us, holding our stdout open.
        import subprocess
        subprocess.Popen(["sleep", "3600"])
    if path:
        with open(path, "rb") as f:
            data = f.read()
    else:
        data = sys.stdin.buffer.read()
    sys.exit(run_script(data, mistake, misbehave, sys.stdout.buffer, sys.stderr))


main()
