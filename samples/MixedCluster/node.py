"""The libzmq node of the mixed-cluster sample (docs/mixed-clusters.md), in pyzmq.

Run by samples/MixedCluster (the C# node) with: node.py <C# REP endpoint> <C# server public key>.
Talks to the C# node on stdout/stdin so that neither side needs a fixed port:
  1. prints "PUBLIC <its public key>", waits for a line (the C# node has admitted the key);
  2. as CURVE client: REQ to the C# REP, prints "REPLY <reply>";
  3. as CURVE server: binds an XPUB, prints "PUB <endpoint>", waits for the C# SUB's subscription,
     publishes one update, then waits for a line before closing.
"""
import sys

import zmq

endpoint, server_public = sys.argv[1], sys.argv[2].encode()
context = zmq.Context()
public, secret = zmq.curve_keypair()
print("PUBLIC", public.decode(), flush=True)
sys.stdin.readline()

req = context.socket(zmq.REQ)
req.linger = 0
req.rcvtimeo = 5000
req.curve_serverkey = server_public
req.curve_publickey = public
req.curve_secretkey = secret
req.connect(endpoint)
req.send_string(f"hello from libzmq {zmq.zmq_version()}")
print("REPLY", req.recv_string(), flush=True)

pub = context.socket(zmq.XPUB)
pub.linger = 1000
pub.rcvtimeo = 5000
pub.curve_server = True
pub.curve_secretkey = secret
port = pub.bind_to_random_port("tcp://127.0.0.1")
print("PUB", f"tcp://127.0.0.1:{port}", flush=True)
pub.recv()  # the C# subscriber's subscription
pub.send_multipart([b"status", b"libzmq node up"])
sys.stdin.readline()

req.close()
pub.close()
context.term()
