#!/usr/bin/env bash
# What a wake-up after a quiet spell costs a .NET thread and a C thread that only wait (BENCHMARKS.md, seventeenth
# figures). Needs gcc.
#
#   bash benchmarks/cold-wake/run.sh [PAUSES...]     default pauses: 1 10 30 100 ms
#
# Each pause times at least 100 wake-ups and about 3 s of them, after as many untimed ones, for every wait of each
# language.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
out="${TMPDIR:-/tmp}/cold-wake-$$"
mkdir -p "$out"
trap 'rm -rf "$out"' EXIT
gcc -O2 -Wall -Wextra -Werror -o "$out/cold_wake" "$here/cold_wake.c"
dotnet build -c Release "$here/ColdWake.cs" -o "$out/managed" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
pauses=("$@")
[ ${#pauses[@]} -gt 0 ] || pauses=(1 10 30 100)
for pause in "${pauses[@]}"; do
  count=$((3000 / (pause + 1)))
  [ "$count" -ge 100 ] || count=100
  for wait in poll sleep; do
    "$out/cold_wake" "$wait" "$count" "$pause"
  done
  for wait in select poll sleep; do
    # As the perf tool runs: tiered compilation off.
    DOTNET_TieredCompilation=0 dotnet "$out/managed/ColdWake.dll" "$wait" "$count" "$pause"
  done
done
