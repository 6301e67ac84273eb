#!/usr/bin/env bash
# What the publisher's I/O threads do in a second of PUB to 50 SUBs (64 B, tcp): how often they sleep and who wakes
# them, how soon a woken thread runs, how long it runs and how many sends it makes, and how many messages each data
# send carries. Records one second of the scheduler's and sendto's tracepoints, system-wide, in the middle of a
# pub_fanout / sub_fanout pair of Managed.Zmq.Perf (both processes with IO_THREADS I/O threads), then analyse.py
# reads them. Figures and what they show: BENCHMARKS.md, "Twenty-eighth figures".
#
#   bash benchmarks/fanout-sched/run.sh [IO_THREADS] [COUNT]     # defaults 4 and 600000
#
# Needs root, perf (Debian's linux-perf) with the sched and syscalls tracepoints, dotnet and python3 on the PATH, and
# Managed.Zmq.Perf built in Release (compare.sh builds it). COUNT must keep the pair running past the traced second
# (three seconds in); the script says when it did not. Run on a quiet machine: the trace is of the scheduler, so
# anything else running changes what it shows.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DLL=$ROOT/benchmarks/Managed.Zmq.Perf/bin/Release/net10.0/Managed.Zmq.Perf.dll
IO=${1:-4}
COUNT=${2:-600000}
OUT=$(mktemp -d /tmp/fanout-sched.XXXXXX)
PORT=$(shuf -i 20000-40000 -n1)
ENDPOINT=tcp://127.0.0.1:$PORT

PERF_IO_THREADS=$IO dotnet "$DLL" pub_fanout "$ENDPOINT" 64 "$COUNT" 50 > /dev/null 2>&1 &
PUBLISHER=$!
SUBSCRIBER=
trap 'kill $PUBLISHER $SUBSCRIBER 2> /dev/null || true' EXIT
sleep 1
PERF_IO_THREADS=$IO dotnet "$DLL" sub_fanout "$ENDPOINT" 64 "$COUNT" 50 > "$OUT/subscriber.txt" &
SUBSCRIBER=$!
# Two seconds in: past the start and the JIT.
sleep 2
ls "/proc/$PUBLISHER/task" > "$OUT/tids"
perf record -q -e sched:sched_switch,sched:sched_waking,syscalls:sys_enter_sendto -a -o "$OUT/perf.data" -- sleep 1 > /dev/null
if ! kill -0 "$PUBLISHER" 2> /dev/null; then
    echo "the pair ended before the traced second did: raise COUNT" >&2
    exit 1
fi

wait "$SUBSCRIBER"
wait "$PUBLISHER"
grep mean "$OUT/subscriber.txt"
perf script -i "$OUT/perf.data" -F comm,tid,time,event,trace > "$OUT/trace.txt" 2> /dev/null
python3 "$(dirname "$0")/analyse.py" "$OUT/tids" "$OUT/trace.txt"
echo "trace kept in $OUT"
