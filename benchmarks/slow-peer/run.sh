#!/usr/bin/env bash
# What a slow request-reply server costs each process, ours against libzmq in the same run (BENCHMARKS.md, fourteenth
# and fifteenth figures). Needs gcc and libzmq's headers (apt-get install -y gcc libzmq3-dev).
#
#   bash benchmarks/slow-peer/run.sh [PAUSES...]     default pauses: 0 1 10 30 100 ms
#
# Each pause runs, for about 3 s of measured round trips after as many warm-up ones:
# - both sockets in one process: libzmq, then ours (one I/O thread serves both sides);
# - each side in a process of its own, as deployed: every pairing of libzmq and ours as server and client, each
#   process reporting its own CPU and context switches per round trip.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${TMPDIR:-/tmp}/slow-peer-$$"
mkdir -p "$out"
server_pid=
# A client that failed or timed out leaves its server waiting for requests.
trap '[ -z "$server_pid" ] || kill "$server_pid" 2> /dev/null || true; rm -rf "$out"' EXIT
gcc -O2 -Wall -Wextra -Werror -o "$out/slow_peer" "$here/slow_peer.c" -lzmq -lpthread
dotnet build -c Release "$here/SlowPeer.cs" -o "$out/managed" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }

# As the perf tool runs: tiered compilation off (the warm-up phase reaches steady state either way). A side whose
# peer died would wait for ever: each run has ten minutes.
peer() { # IMPLEMENTATION ARGS...
  local implementation=$1
  shift
  if [ "$implementation" = libzmq ]; then
    timeout 600 "$out/slow_peer" "$@"
  else
    DOTNET_TieredCompilation=0 timeout 600 dotnet "$out/managed/SlowPeer.dll" "$@"
  fi
}

pauses=("$@")
[ ${#pauses[@]} -gt 0 ] || pauses=(0 1 10 30 100)
for pause in "${pauses[@]}"; do
  if [ "$pause" -eq 0 ]; then rounds=20000; else rounds=$((3000 / (pause + 1))); fi
  [ "$rounds" -ge 1 ] || rounds=1
  peer libzmq "$rounds" "$pause"
  peer managed "$rounds" "$pause"
  for server in libzmq managed; do
    for client in libzmq managed; do
      echo "  server $server, client $client:"
      # The server prints the endpoint it bound (an ephemeral port) first, then its figures when it is done.
      exec {from_server}< <(peer "$server" "$rounds" "$pause" server 'tcp://127.0.0.1:*')
      server_pid=$!
      read -r -t 60 endpoint <&"$from_server"
      peer "$client" "$rounds" "$pause" client "$endpoint" | sed 's/^/    /'
      sed 's/^/    /' <&"$from_server"
      exec {from_server}<&-
      wait "$server_pid"
      server_pid=
    done
  done
done
