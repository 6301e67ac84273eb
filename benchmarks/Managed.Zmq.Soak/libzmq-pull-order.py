#!/usr/bin/python3
"""What order libzmq's PULL gives across connections (see BENCHMARKS.md, Network soak).

A libzmq PULL binds with RCVHWM 10. A first ZMTP 3.0 connection (raw TCP, NULL, Socket-Type PUSH)
sends m-0..m-199 and closes: the PULL's pipe holds 10 of them, the kernel the rest. A second
connection sends m-200..m-399. Then the PULL is read: libzmq fair-queues the old connection's
leftovers with the new connection's messages, so numbers arrive below the highest seen while each
connection's own messages stay in order. Usage: /usr/bin/python3 libzmq-pull-order.py
"""
import socket
import struct
import time

import zmq

SETTLE_S = 0.5  # an experiment, not a test: time for each connection's bytes to reach the PULL


def main():
    ctx = zmq.Context()
    pull = ctx.socket(zmq.PULL)
    pull.rcvhwm = 10
    pull.bind("tcp://127.0.0.1:*")
    port = int(pull.getsockopt(zmq.LAST_ENDPOINT).decode().rsplit(":", 1)[1])

    def push_connection(first, count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"\xff" + b"\0" * 8 + b"\x7f" + b"\x03\x00" + b"NULL" + b"\0" * 16 + b"\0" + b"\0" * 31)
        body = b"\x05READY" + b"\x0bSocket-Type" + struct.pack(">I", 4) + b"PUSH"
        s.sendall(b"\x04" + bytes([len(body)]) + body)
        reply = b""
        while b"PULL" not in reply:  # the peer's greeting and READY: the handshake is done
            reply += s.recv(200)
        for n in range(first, first + count):
            m = ("m-%d" % n).encode()
            s.sendall(b"\x00" + bytes([len(m)]) + m)
        return s

    old = push_connection(0, 200)
    time.sleep(SETTLE_S)
    old.close()
    new = push_connection(200, 200)
    time.sleep(SETTLE_S)

    got = []
    pull.rcvtimeo = 300
    try:
        while True:
            got.append(int(pull.recv().decode().split("-")[1]))
    except zmq.Again:
        pass
    below = sum(1 for i in range(1, len(got)) if got[i] < max(got[:i]))
    old_in_order = [n for n in got if n < 200] == sorted(n for n in got if n < 200)
    new_in_order = [n for n in got if n >= 200] == sorted(n for n in got if n >= 200)
    print("libzmq %s: received %d, %d below the highest seen; each connection in order: %s"
          % (zmq.zmq_version(), len(got), below, old_in_order and new_in_order))
    print("first 30:", got[:30])
    new.close()
    pull.close()
    ctx.term()


if __name__ == "__main__":
    main()
