#!/usr/bin/env bash
# What a slow request-reply server costs the client's process, ours against libzmq in the same run
# (BENCHMARKS.md, fourteenth figures). Needs gcc and libzmq's headers (apt-get install -y gcc libzmq3-dev).
#
#   bash benchmarks/slow-peer/run.sh [PAUSES...]     default pauses: 0 1 10 30 100 ms
#
# Each pause runs libzmq, then ours, each for about 3 s of measured round trips after as many warm-up ones.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${TMPDIR:-/tmp}/slow-peer-$$"
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
gcc -O2 -Wall -Wextra -Werror -o "$out/slow_peer" "$here/slow_peer.c" -lzmq -lpthread
dotnet build -c Release "$here/SlowPeer.cs" -o "$out/managed" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
pauses=("$@")
[ ${#pauses[@]} -gt 0 ] || pauses=(0 1 10 30 100)
for pause in "${pauses[@]}"; do
  if [ "$pause" -eq 0 ]; then rounds=20000; else rounds=$((3000 / (pause + 1))); fi
  "$out/slow_peer" "$rounds" "$pause"
  # As the perf tool runs: tiered compilation off (the warm-up phase reaches steady state either way).
  DOTNET_TieredCompilation=0 dotnet "$out/managed/SlowPeer.dll" "$rounds" "$pause"
done
