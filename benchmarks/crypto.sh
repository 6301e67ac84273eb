#!/usr/bin/env bash
# CURVE's per-message crypto, Managed.Zmq against libsodium (what libzmq's CURVE calls), side by
# side: `Managed.Zmq.Perf crypto` and benchmarks/native/crypto_thr.c, run in turn RUNS times
# (A B A B ...), one thread, no sockets. Prints a Markdown table of median ns per call and the
# ratio ours/libsodium (lower is better).
#
#   bash benchmarks/crypto.sh
#
# Environment:
#   RUNS=5      runs per side
#   MS=1000     milliseconds per case in each run
#
# Cases: seal/open = what a connection does per MESSAGE (ours: the per-direction message cipher,
# nonce + 1 per call; libsodium: crypto_box_afternm / crypto_box_open_afternm) at 64 B, 1 KiB,
# 64 KiB; poly1305 and xsalsa20 over 64 KiB; one x25519 scalar multiplication (x25519), and one
# public key from a secret (x25519-base, what each side does once per handshake for its ephemeral key).
# Needs: gcc and libsodium-dev (libzmq3-dev pulls it in), the .NET SDK.
set -euo pipefail

RUNS=${RUNS:-5}
MS=${MS:-1000}
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NATIVE_BIN=$ROOT/benchmarks/native/build
PERF_DLL=$ROOT/benchmarks/Managed.Zmq.Perf/bin/Release/net10.0/Managed.Zmq.Perf.dll
WORK=$(mktemp -d "${TMPDIR:-/tmp}/managed-zmq-crypto.XXXXXX")
trap 'rm -rf "$WORK"' EXIT

mkdir -p "$NATIVE_BIN"
gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/crypto_thr" "$ROOT/benchmarks/native/crypto_thr.c" -lsodium \
  || { echo "crypto.sh: gcc failed (libsodium-dev installed?)" >&2; exit 2; }
dotnet build -c Release "$ROOT/benchmarks/Managed.Zmq.Perf/Managed.Zmq.Perf.csproj" -v quiet -nologo >/dev/null

for ((run = 1; run <= RUNS; run++)); do
  echo "run $run/$RUNS" >&2
  "$NATIVE_BIN/crypto_thr" "$MS" >"$WORK/libsodium.$run"
  dotnet "$PERF_DLL" crypto "$MS" >"$WORK/ours.$run"
done

# Each output line: case size ns "ns" MB/s "MB/s".
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR % 2) print a[(NR + 1) / 2]; else print (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
echo "RUNS=$RUNS per side, MS=$MS; median ns per call; ratio = ours / libsodium (lower is better)."
echo
echo "| case | size [B] | libsodium [ns] | Managed.Zmq [ns] | ratio |"
echo "|---|---:|---:|---:|---:|"
while read -r name size _; do
  theirs=$(cat "$WORK"/libsodium.* | awk -v n="$name" -v s="$size" '$1 == n && $2 == s { print $3 }' | median)
  ours=$(cat "$WORK"/ours.* | awk -v n="$name" -v s="$size" '$1 == n && $2 == s { print $3 }' | median)
  awk -v n="$name" -v s="$size" -v a="$theirs" -v b="$ours" 'BEGIN { printf "| %s | %d | %.1f | %.1f | %.2f |\n", n, s, a, b, b / a }'
done <"$WORK/libsodium.1"
