#!/usr/bin/python3
"""The libzmq side of the scale tool: the server under test, against libzmq 4.3 through pyzmq.

Mirrors `Managed.Zmq.Scale server` (benchmarks/Managed.Zmq.Scale/ScaleServer.cs) mode for mode
and speaks the same control protocol, so the driver treats both alike:

    scale_server.py --mode MODE [--curve-secret Z85] [--plain USER:PASS]

It binds tcp://127.0.0.1 on an ephemeral port and prints `ready PORT`. Then, one line each on
stdin: `gc` (collect, answer `ok gc`), `trim` (glibc's malloc_trim(0), answer `ok trim`), `stats` (answer `stats key=value ...`), `quit` (exit).
The control thread is separate from the socket work, so a stalled socket loop still answers;
EOF on stdin ends the process, so it never outlives its driver.

Modes: echo (ROUTER echoing every message: zmq.proxy with the socket as both ends, so the loop
runs in libzmq, not Python), pub / xpub (a 1 ms tick to every subscriber; xpub also drains at
most 1,000 subscription messages per tick), pull (a PULL that never reads), count3 (a ROUTER
counting three-frame messages f0-N, f1-N, f2-N, intact or not).

Run it with /usr/bin/python3, Debian's python3-zmq (libzmq 4.3.4).
"""
import argparse
import gc
import os
import struct
import sys
import threading
import time

import zmq

TICK_SECONDS = 0.001
XPUB_DRAIN_PER_TICK = 1000

stats = {}
stats_lock = threading.Lock()
out_lock = threading.Lock()


def say(line):
    with out_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def bump(key, by=1):
    with stats_lock:
        stats[key] = stats.get(key, 0) + by


def control():
    for line in sys.stdin:
        cmd = line.strip()
        if cmd == "gc":
            gc.collect()
            say("ok gc")
        elif cmd == "trim":
            # glibc's malloc_trim(0), as the Managed.Zmq server does on "trim" (a diagnostic).
            # Imported here, not at startup, so that ctypes is not in the figures before it.
            import ctypes
            ctypes.CDLL("libc.so.6").malloc_trim(0)
            say("ok trim")
        elif cmd == "stats":
            with stats_lock:
                items = " ".join("%s=%d" % kv for kv in sorted(stats.items()))
            say("stats " + items)
        elif cmd == "quit":
            break
    os._exit(0)


def bind(sock):
    port = sock.bind_to_random_port("tcp://127.0.0.1")
    return port


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", required=True, choices=["echo", "pub", "xpub", "pull", "count3"])
    parser.add_argument("--curve-secret")
    parser.add_argument("--plain")
    args = parser.parse_args()

    ctx = zmq.Context.instance()
    auth = None
    kind = {"echo": zmq.ROUTER, "pub": zmq.PUB, "xpub": zmq.XPUB, "pull": zmq.PULL, "count3": zmq.ROUTER}[args.mode]
    sock = ctx.socket(kind)
    sock.linger = 0
    if args.curve_secret:
        sock.curve_server = True
        sock.curve_secretkey = args.curve_secret.encode()
    if args.plain:
        from zmq.auth.thread import ThreadAuthenticator
        user, password = args.plain.split(":", 1)
        auth = ThreadAuthenticator(ctx)
        auth.start()
        auth.configure_plain(domain="*", passwords={user: password})
        sock.plain_server = True
    port = bind(sock)

    threading.Thread(target=control, daemon=True).start()
    say("ready %d" % port)

    if args.mode == "echo":
        # A socket proxied to itself echoes every message (routing id first) inside libzmq.
        zmq.proxy(sock, sock)
    elif args.mode in ("pub", "xpub"):
        seq = 0
        while True:
            sock.send(b"tick" + struct.pack("<q", seq))
            seq += 1
            bump("ticks")
            if args.mode == "xpub":
                drained = 0
                while drained < XPUB_DRAIN_PER_TICK:
                    try:
                        sock.recv(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    drained += 1
                if drained:
                    bump("subscriptions", drained)
            time.sleep(TICK_SECONDS)
    elif args.mode == "pull":
        threading.Event().wait()
    elif args.mode == "count3":
        while True:
            frames = sock.recv_multipart()
            body = frames[1:]
            ok = False
            if len(body) == 3 and body[0].startswith(b"f0-"):
                n = body[0][3:]
                ok = body[1] == b"f1-" + n and body[2] == b"f2-" + n
            with stats_lock:
                key = "intact" if ok else "broken"
                stats[key] = stats.get(key, 0) + 1
                stats["received"] = stats.get("received", 0) + 1


if __name__ == "__main__":
    main()
