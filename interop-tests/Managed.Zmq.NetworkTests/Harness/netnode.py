#!/usr/bin/python3
"""A libzmq (pyzmq) node of the network-namespace tests.

Speaks the line protocol of Managed.Zmq.NetNode's NodeHost (see NodeHost.cs): one command per
stdin line, exactly one "ok ..." or "err ERRNO message" line back.
"""
import binascii
import bisect
import os
import sys
import threading
import time

import zmq

EVENT_NAMES = {
    1: "connected", 2: "connect_delayed", 4: "connect_retried", 8: "listening",
    16: "bind_failed", 32: "accepted", 64: "accept_failed", 128: "closed",
    256: "close_failed", 512: "disconnected", 1024: "monitor_stopped",
    2048: "handshake_failed_no_detail", 4096: "handshake_succeeded",
    8192: "handshake_failed_protocol", 16384: "handshake_failed_auth",
}
TYPES = {
    "pair": zmq.PAIR, "pub": zmq.PUB, "sub": zmq.SUB, "req": zmq.REQ, "rep": zmq.REP,
    "dealer": zmq.DEALER, "router": zmq.ROUTER, "pull": zmq.PULL, "push": zmq.PUSH,
    "xpub": zmq.XPUB, "xsub": zmq.XSUB,
}


def encode(frame):
    if not frame:
        return "~"
    plain = all(0x20 < b < 0x7F for b in frame) and not frame.startswith(b"0x") and frame[0:1] != b"~"
    return frame.decode("ascii") if plain else "0x" + binascii.hexlify(frame).decode("ascii").upper()


def decode(token):
    if token == "~":
        return b""
    if token.startswith("0x"):
        return binascii.unhexlify(token[2:])
    return token.encode("ascii")


class Monitor:
    """Reads one socket's monitor stream on its own thread, stamping events with Unix ms."""

    def __init__(self, ctx, sock, name):
        endpoint = "inproc://netnode-monitor-" + name
        sock.monitor(endpoint, zmq.EVENT_ALL)
        self.pair = ctx.socket(zmq.PAIR)
        self.pair.linger = 0
        self.pair.rcvtimeo = 100
        self.pair.connect(endpoint)
        self.events = []
        self.lock = threading.Condition()
        self.stopping = False
        self.thread = threading.Thread(target=self.read, daemon=True)
        self.thread.start()

    def read(self):
        while not self.stopping:
            try:
                frames = self.pair.recv_multipart()
            except zmq.Again:
                continue
            except zmq.ZMQError:
                return
            value = int.from_bytes(frames[0][0:2], "little")
            with self.lock:
                self.events.append("%s@%d@%s" % (EVENT_NAMES.get(value, "event%d" % value), int(time.time() * 1000),
                                                 frames[1].decode("ascii", "replace")))
                self.lock.notify_all()

    def drain(self):
        with self.lock:
            taken, self.events = self.events, []
        return " ".join(taken)

    def wait_for(self, name, timeout_ms, endpoint=None):
        """Takes events until one named name arrives or the timeout runs out."""
        taken = []
        deadline = time.monotonic() + timeout_ms / 1000.0
        with self.lock:
            while True:
                while self.events:
                    e = self.events.pop(0)
                    taken.append(e)
                    if e.startswith(name + "@") and (endpoint is None or e.endswith("@" + endpoint)):
                        return True, " ".join(taken)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False, " ".join(taken)
                self.lock.wait(remaining)

    def close(self):
        self.stopping = True
        self.thread.join()
        self.pair.close()


class Check:
    """The counts of NetNode's SequenceCheck, runs included (the fewest increasing runs of the arrival order)."""

    def __init__(self):
        self.seen = set()
        self.count = self.dups = self.reordered = 0
        self.highest = -1
        self.tails = []  # each run's last number, ascending

    def add(self, token):
        self.count += 1
        head, _, tail = token.rpartition("-")
        if not head or not tail.isdigit():
            return
        n = int(tail)
        if n in self.seen:
            self.dups += 1
        else:
            if n < self.highest:
                self.reordered += 1
            i = bisect.bisect_left(self.tails, n)
            if i > 0:
                self.tails[i - 1] = n
            else:
                self.tails.insert(0, n)
        self.seen.add(n)
        self.highest = max(self.highest, n)

    def summary(self):
        return "count=%d unique=%d dups=%d reordered=%d max=%d runs=%d" % (
            self.count, len(self.seen), self.dups, self.reordered, self.highest, len(self.tails))


def send(sock, dontwait, frames):
    flags = zmq.DONTWAIT if dontwait else 0
    try:
        sock.send_multipart([decode(f) for f in frames], flags)
        return True
    except zmq.Again:
        return False


CHECKS = {}  # socket name -> Check: drain counts accumulate over a socket's life


def execute(ctx, sockets, monitors, w):
    cmd = w[0]
    if cmd == "socket":
        sockets[w[1]] = ctx.socket(TYPES[w[2]])
    elif cmd == "opt":
        value = int(w[4]) if w[3] == "int" else (decode(w[4]) if len(w) > 4 else b"")
        sockets[w[1]].setsockopt(int(w[2]), value)
    elif cmd == "bind":
        sockets[w[1]].bind(w[2])
    elif cmd == "connect":
        sockets[w[1]].connect(w[2])
    elif cmd == "disconnect":
        sockets[w[1]].disconnect(w[2])
    elif cmd == "lastep":
        return "ok " + sockets[w[1]].getsockopt(zmq.LAST_ENDPOINT).decode().rstrip("\0")
    elif cmd == "monitor":
        monitors[w[1]] = Monitor(ctx, sockets[w[1]], w[1])
    elif cmd == "events":
        return ("ok " + monitors[w[1]].drain()).rstrip()
    elif cmd == "wait":
        found, taken = monitors[w[1]].wait_for(w[2], int(w[3]), w[4] if len(w) > 4 else None)
        return (("ok " if found else "err EAGAIN ") + taken).rstrip()
    elif cmd == "send":
        return "ok" if send(sockets[w[1]], w[2] == "dontwait", w[3:]) else "err EAGAIN"
    elif cmd == "recv":
        sock = sockets[w[1]]
        sock.rcvtimeo = int(w[2])
        try:
            return "ok " + " ".join(encode(f) for f in sock.recv_multipart())
        except zmq.Again:
            return "err EAGAIN"
    elif cmd == "pump":
        sock, prefix, first, count, dontwait = sockets[w[1]], w[2], int(w[3]), int(w[4]), w[5] == "dontwait"
        sent = 0
        for n in range(first, first + count):
            if not send(sock, dontwait, w[6:] + ["%s-%d" % (prefix, n)]):
                break
            sent += 1
        return "ok %d" % sent
    elif cmd == "drain":
        sock = sockets[w[1]]
        sock.rcvtimeo = int(w[2])
        check = CHECKS.setdefault(w[1], Check())
        while True:
            try:
                frames = sock.recv_multipart()
            except zmq.Again:
                return "ok " + check.summary()
            check.add(encode(frames[-1]))
    elif cmd == "close":
        if w[1] in monitors:
            monitors.pop(w[1]).close()
        sock = sockets.pop(w[1])
        sock.linger = 0
        sock.close()
    elif cmd == "stat":
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
        return "ok rss=%d threads=%d handles=%d" % (rss, threading.active_count(), len(os.listdir("/proc/self/fd")))
    else:
        return "err EINVAL unknown command " + cmd
    return "ok"


def main():
    ctx = zmq.Context()
    sockets, monitors = {}, {}
    for line in sys.stdin:
        w = line.split()
        if not w:
            continue
        if w[0] == "quit":
            print("ok", flush=True)
            break
        try:
            reply = execute(ctx, sockets, monitors, w)
        except zmq.ZMQError as e:
            reply = "err E%d %s" % (e.errno, e.strerror)
            if e.errno == zmq.EAGAIN:
                reply = "err EAGAIN " + e.strerror
            elif e.errno == zmq.EFSM:
                reply = "err EFSM " + e.strerror
        except Exception as e:  # the test reads the reply; never die on a bad command
            reply = "err EXCEPTION %s: %s" % (type(e).__name__, e)
        print(reply.replace("\n", " "), flush=True)
    for m in monitors.values():
        m.close()
    for s in sockets.values():
        s.linger = 0
        s.close()
    ctx.term()


if __name__ == "__main__":
    main()
