#!/usr/bin/env bash
# Where the publisher's I/O threads spend a second of PUB to 50 SUBs (64 B, tcp): how often they sleep and who wakes
# them, how soon a woken thread runs, how long it runs and how many sends it makes, and how many messages each
# data send carries. Records one second of the scheduler's and sendto's tracepoints, system-wide, in the middle of
# a pub_fanout / sub_fanout pair of ours (both processes with IO_THREADS I/O threads), then analyse.py reads them.
#
#   bash benchmarks/fanout-sched/run.sh [IO_THREADS] [COUNT]     # defaults 4 and 600000
#
# Needs perf (Debian's linux-perf) with tracepoints, root, and the perf CLI built in Release (compare.sh builds it).
# Run on a quiet machine: the trace is of the scheduler, so anything else running changes what it shows.
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
sleep 1
PERF_IO_THREADS=$IO dotnet "$DLL" sub_fanout "$ENDPOINT" 64 "$COUNT" 50 | grep mean &
# Two seconds in: past the start and the JIT, well before the end at this machine's rates.
sleep 2
ls "/proc/$PUBLISHER/task" > "$OUT/tids"
perf record -q -e sched:sched_switch,sched:sched_wakeup,syscalls:sys_enter_sendto -a -o "$OUT/perf.data" -- sleep 1 > /dev/null 2>&1
wait
perf script -i "$OUT/perf.data" -F comm,tid,time,event,trace > "$OUT/trace.txt" 2> /dev/null
python3 "$(dirname "$0")/analyse.py" "$OUT/tids" "$OUT/trace.txt"
echo "trace kept in $OUT"
