#!/usr/bin/env bash
# System calls per message: runs local_thr / remote_thr at 64 B over tcp loopback under
# `strace -f -c` for libzmq (benchmarks/native) and for Managed.Zmq (benchmarks/Managed.Zmq.Perf)
# and prints send / receive / wait system calls per 1,000 messages, per side.
#
#   bash benchmarks/syscalls.sh
#
# Environment:
#   COUNT=200000   messages per traced run
#   RUNS=3         traced runs per implementation (interleaved); the table gives medians
#   SIZE=64        message size in bytes
#   SIDES=both     both | libzmq | ours
#   TIMEOUT=300    seconds before one traced process is killed
#   PERF_BUFFER=message  our tools' payload mode, as in compare.sh (span: through spans)
#
# Each implementation is traced twice, with COUNT messages and with 1 message, and the
# figure is (calls(COUNT) - calls(1)) / (COUNT - 1) * 1000, so process start-up (the .NET
# runtime reads hundreds of files) and connection setup drop out. The COUNT runs are
# repeated RUNS times, libzmq and ours interleaved; the main table gives the median of
# each figure over the runs, and a second table the send/recv/wait sums of every run. Tracing slows every
# traced call down a lot, which can change how much each call batches: read the figures
# as "how the implementation talks to the kernel", not as what an untraced run does exactly.
#
# Needs: strace (apt-get install -y strace), gcc + libzmq3-dev, the .NET SDK, ss (iproute2).
set -euo pipefail

COUNT=${COUNT:-200000}
RUNS=${RUNS:-3}
SIZE=${SIZE:-64}
SIDES=${SIDES:-both}
TIMEOUT=${TIMEOUT:-300}
export PERF_BUFFER=${PERF_BUFFER:-message}

# The system calls asked for, plus the epoll waits both implementations really block in.
SEND_CALLS=(sendto sendmsg write)
RECV_CALLS=(recvfrom recvmsg read)
WAIT_CALLS=(poll select pselect6 epoll_wait epoll_pwait)
# Shown for information, in no sum: thread wake-ups (both sides wake threads through futex).
INFO_CALLS=(futex)
ALL_CALLS=("${SEND_CALLS[@]}" "${RECV_CALLS[@]}" "${WAIT_CALLS[@]}" "${INFO_CALLS[@]}")
TRACE=$(IFS=,; echo "${ALL_CALLS[*]}")

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NATIVE_SRC=$ROOT/benchmarks/native
NATIVE_BIN=$NATIVE_SRC/build
PERF_PROJ=$ROOT/benchmarks/Managed.Zmq.Perf/Managed.Zmq.Perf.csproj
PERF_DLL=$ROOT/benchmarks/Managed.Zmq.Perf/bin/Release/net10.0/Managed.Zmq.Perf.dll
WORK=$(mktemp -d "${TMPDIR:-/tmp}/managed-zmq-syscalls.XXXXXX")

say() { printf '%s\n' "$*" >&2; }
die() { say "syscalls.sh: $*"; exit 2; }

command -v strace >/dev/null || die "strace not found; install with: sudo apt-get install -y strace"
command -v ss >/dev/null || die "ss not found; install iproute2"

build() {
  if [[ $SIDES != ours ]]; then
    mkdir -p "$NATIVE_BIN"
    local tool
    for tool in local_thr remote_thr; do
      gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/$tool" "$NATIVE_SRC/$tool.c" -lzmq || die "gcc failed for $tool.c (libzmq3-dev installed?)"
    done
  fi
  if [[ $SIDES != libzmq ]]; then
    say "building Managed.Zmq.Perf (Release) ..."
    dotnet build "$PERF_PROJ" -c Release -nologo -v quiet >"$WORK/dotnet-build.log" 2>&1 \
      || { cat "$WORK/dotnet-build.log" >&2; die "dotnet build failed"; }
  fi
}

free_port() {
  local port
  while :; do
    port=$(shuf -i 20000-32000 -n 1)
    [[ -z $(ss -Htan "( sport = :$port or dport = :$port )") ]] && { echo "$port"; return; }
  done
}

command_for() { # impl mode
  case $1 in
    libzmq) echo "$NATIVE_BIN/$2" ;;
    ours) echo "dotnet $PERF_DLL $2" ;;
  esac
}

# trace impl count tag -> writes $WORK/<impl>.<tag>.{local,remote}.strace
trace() {
  local impl=$1 count=$2 tag=$3 port ep pid waited=0
  port=$(free_port)
  ep="tcp://127.0.0.1:$port"
  local base=$WORK/$impl.$tag
  # shellcheck disable=SC2046
  timeout -k 5 "$TIMEOUT" strace -f -c -e trace="$TRACE" -o "$base.local.strace" \
    $(command_for "$impl" local_thr) "$ep" "$SIZE" "$count" >"$base.local.out" 2>&1 &
  pid=$!
  until [[ -n $(ss -Hltn "sport = :$port") ]]; do
    kill -0 "$pid" 2>/dev/null || die "$impl local_thr exited early; see $base.local.out"
    ((++waited <= 1500)) || die "$impl local_thr never bound"
    sleep 0.02
  done
  # shellcheck disable=SC2046
  timeout -k 5 "$TIMEOUT" strace -f -c -e trace="$TRACE" -o "$base.remote.strace" \
    $(command_for "$impl" remote_thr) "$ep" "$SIZE" "$count" >"$base.remote.out" 2>&1 \
    || die "$impl remote_thr failed; see $base.remote.out"
  wait "$pid" || die "$impl local_thr failed; see $base.local.out"
}

calls() { # strace-summary-file syscall -> number of calls (0 if absent)
  awk -v name="$2" '$NF == name && $4 ~ /^[0-9]+$/ { n = $4 } END { print n + 0 }' "$1"
}

per_thousand_run() { # impl side syscall run -> calls per 1,000 messages in that run (baseline subtracted)
  local big small
  big=$(calls "$WORK/$1.run$4.$2.strace" "$3")
  small=$(calls "$WORK/$1.base.$2.strace" "$3")
  awk -v b="$big" -v s="$small" -v n="$COUNT" 'BEGIN { v = (b - s) * 1000 / (n - 1); if (v < 0) v = 0; printf "%.1f", v }'
}

median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { printf "%.1f", (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

per_thousand() { # impl side syscall -> median over the runs
  local i vals=()
  for ((i = 1; i <= RUNS; i++)); do vals+=("$(per_thousand_run "$1" "$2" "$3" "$i")"); done
  median "${vals[@]}"
}

sum() { awk 'BEGIN { t = 0; for (i = 1; i < ARGC; i++) t += ARGV[i]; printf "%.1f", t }' "$@"; }

group_sum_run() { # impl side run calls... -> sum over those calls in one run
  local impl=$1 side=$2 run=$3 c vals=()
  shift 3
  for c in "$@"; do vals+=("$(per_thousand_run "$impl" "$side" "$c" "$run")"); done
  sum "${vals[@]}"
}

main() {
  ((COUNT > 1)) || die "COUNT must be above 1"
  build
  local impls=()
  [[ $SIDES != ours ]] && impls+=(libzmq)
  [[ $SIDES != libzmq ]] && impls+=(ours)

  local impl i
  for impl in "${impls[@]}"; do
    say "tracing $impl: 1 message, the baseline ..."
    trace "$impl" 1 base
  done
  for ((i = 1; i <= RUNS; i++)); do
    for impl in "${impls[@]}"; do
      say "tracing $impl: run $i of $RUNS, $COUNT x $SIZE B ..."
      trace "$impl" "$COUNT" "run$i"
    done
  done

  echo
  echo "System calls per 1,000 messages: PUSH/PULL tcp loopback, $SIZE B, $COUNT messages under strace -f -c,"
  echo "median of $RUNS runs (a 1-message run subtracted). send = ${SEND_CALLS[*]}; recv = ${RECV_CALLS[*]}; wait = ${WAIT_CALLS[*]}; ${INFO_CALLS[*]} in no sum."
  echo
  local header="| implementation | side | send | recv | wait |" rule="|---|---|---:|---:|---:|" c
  for c in "${ALL_CALLS[@]}"; do header+=" $c |"; rule+="---:|"; done
  echo "$header"
  echo "$rule"
  local side
  for impl in "${impls[@]}"; do
    for side in remote local; do
      local vals=() s=() r=() w=()
      for c in "${SEND_CALLS[@]}"; do s+=("$(per_thousand "$impl" "$side" "$c")"); done
      for c in "${RECV_CALLS[@]}"; do r+=("$(per_thousand "$impl" "$side" "$c")"); done
      for c in "${WAIT_CALLS[@]}"; do w+=("$(per_thousand "$impl" "$side" "$c")"); done
      vals=("${s[@]}" "${r[@]}" "${w[@]}")
      for c in "${INFO_CALLS[@]}"; do vals+=("$(per_thousand "$impl" "$side" "$c")"); done
      local label name
      [[ $side == remote ]] && label="remote_thr (PUSH, sends)" || label="local_thr (PULL, receives)"
      [[ $impl == ours ]] && name="Managed.Zmq" || name="libzmq 4.3"
      local row="| $name | $label | $(sum "${s[@]}") | $(sum "${r[@]}") | $(sum "${w[@]}") |"
      for c in "${vals[@]}"; do row+=" $c |"; done
      echo "$row"
    done
  done

  echo
  echo "Every run, send / recv / wait per 1,000 messages:"
  echo
  local h2="| implementation | side |" r2="|---|---|"
  for ((i = 1; i <= RUNS; i++)); do h2+=" run $i |"; r2+="---|"; done
  echo "$h2"
  echo "$r2"
  for impl in "${impls[@]}"; do
    for side in remote local; do
      local name label row
      [[ $side == remote ]] && label="remote_thr (PUSH)" || label="local_thr (PULL)"
      [[ $impl == ours ]] && name="Managed.Zmq" || name="libzmq 4.3"
      row="| $name | $label |"
      for ((i = 1; i <= RUNS; i++)); do
        row+=" $(group_sum_run "$impl" "$side" "$i" "${SEND_CALLS[@]}") / $(group_sum_run "$impl" "$side" "$i" "${RECV_CALLS[@]}") / $(group_sum_run "$impl" "$side" "$i" "${WAIT_CALLS[@]}") |"
      done
      echo "$row"
    done
  done
  rm -rf "$WORK"
}

main "$@"
