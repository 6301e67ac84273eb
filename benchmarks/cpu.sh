#!/usr/bin/env bash
# CPU per message and context switches (thread wake-ups) per message or round trip, per
# process: sender and receiver (throughput) or REQ and REP (latency) run as separate
# processes, as in compare.sh, each under benchmarks/native/rusage_run, which reports the
# user + system CPU time and the voluntary and involuntary context switches of the whole
# process (every thread) when it exits.
#
#   bash benchmarks/cpu.sh
#
# Steady state: every measurement is a pair of runs, COUNT and COUNT x SHORT_FRACTION
# messages, and the figure is (long - short) / (messages(long) - messages(short)), so process
# start-up, JIT, connection setup and teardown cancel. This is what carries over to a server
# with a core per thread: CPU per message bounds throughput; switches per round trip count
# the thread hand-offs of a request/reply (a voluntary switch is a thread that blocked and had
# to be woken; involuntary ones are preemptions and grow with the load on the machine).
#
# Environment:
#   RUNS=3            long/short pairs per implementation and scenario (interleaved); medians
#   ONLY=regex        run only the scenarios whose name matches (grep -E)
#   SCALE=1           multiply every count (e.g. 0.05 for a smoke run)
#   SHORT_FRACTION=0.1  the short run's share of the long run's count
#   IMPLS="libzmq ours raw"  implementations to measure (both ends the same); raw is the
#                     floor (benchmarks/native/raw, no CURVE: skipped for CURVE scenarios;
#                     RAW_BUFS as in compare.sh);
#                     ours-defaults is ours under the .NET runtime's defaults (tiered
#                     compilation and PGO on; make SHORT_FRACTION x COUNT long enough for tier 1).
#                     A cross, SENDER>RECEIVER (e.g. ours>libzmq, libzmq>ours), runs the remote
#                     side (sender or REQ) as SENDER and the local side as RECEIVER: one side's
#                     CPU against the same peer as libzmq's own, so that a faster or slower
#                     peer does not move it (a faster receiver that waits costs its sender
#                     wake-ups). Crosses with libzmq run the scenario's libzmq build.
#   TIMEOUT=120, PERF_BUFFER=message   as in compare.sh
#
# Needs what compare.sh needs. Prints Markdown tables on stdout; progress on stderr.
set -euo pipefail

RUNS=${RUNS:-3}
SHORT_FRACTION=${SHORT_FRACTION:-0.1}
IMPLS=${IMPLS:-libzmq ours raw}

# --------------------------------------------------------------------------------------
# Scenarios: kind thr = PUSH (remote, sender) -> PULL (local, receiver); kind lat = REQ
# (remote) <-> REP (local), figures per round trip. Transport tcp+curve: CURVE on both ends.
# Kinds dr_*/cs_* and transport ws, and the optional last field "draft" (libzmq = the
# draft-enabled build), as in compare.sh; raw runs each scenario's floor (compare.sh's floor_of).
# Kinds rd_thr/ps_thr (RADIO -> DISH, XPUB -> SUB) and transport udp as in compare.sh: udp has
# no floor, and its receiver may get fewer messages than were sent (udp loses datagrams), while
# the figures here divide by the messages sent; its receiver also waits 1 s without a message
# before it stops, which costs no CPU but ends the run.
#
#   name                 kind transport size  count [lib]
CPU_SCENARIOS=(
  "tcp-thr-64B           thr  tcp       64    4000000"
  "tcp-thr-1KiB          thr  tcp       1024  1000000"
  "tcp-thr-64KiB         thr  tcp       65536 40000"
  "ipc-thr-64B           thr  ipc       64    4000000"
  "ipc-thr-1KiB          thr  ipc       1024  1000000"
  "ipc-thr-64KiB         thr  ipc       65536 40000"
  "tcp-curve-thr-64B     thr  tcp+curve 64    2000000"
  "tcp-curve-thr-1KiB    thr  tcp+curve 1024  400000"
  "tcp-curve-thr-64KiB   thr  tcp+curve 65536 16000"
  "tcp-lat-64B           lat  tcp       64    20000"
  "ipc-lat-64B           lat  ipc       64    20000"
  "tcp-lat-64KiB         lat  tcp       65536 20000"
  "ipc-lat-64KiB         lat  ipc       65536 20000"
  "tcp-curve-lat-64B     lat  tcp+curve 64    20000"
  "tcp-dealer-router-thr-64B dr_thr tcp 64  4000000 draft"
  "tcp-server-client-thr-64B cs_thr tcp 64  4000000 draft"
  "tcp-dealer-router-lat-64B dr_lat tcp 64  20000   draft"
  "tcp-server-client-lat-64B cs_lat tcp 64  20000   draft"
  "ws-tcp-thr-1KiB       thr  tcp       1024  1000000 draft"
  "ws-thr-1KiB           thr  ws        1024  1000000 draft"
  "ws-tcp-thr-64B        thr  tcp       64    4000000 draft"
  "ws-thr-64B            thr  ws        64    4000000 draft"
  "radio-dish-ref-tcp-pub-sub-thr-64B ps_thr tcp 64 4000000 draft"
  "tcp-radio-dish-thr-64B rd_thr tcp      64    4000000 draft"
  "udp-radio-dish-thr-64B rd_thr udp      64    1000000 draft"
)

# compare.sh's transports, builds and run_once (sourcing it runs nothing).
# shellcheck source=compare.sh
source "$(dirname "${BASH_SOURCE[0]}")/compare.sh"
export MEASURE_RUSAGE=1
SIDES=both

# rusage_of file -> "cpu_us voluntary involuntary"
rusage_of() {
  awk '{ print $1 + $2, $3, $4 }' "$1"
}

# per_message long-file short-file messages-difference -> "cpu_ns vol invol" per message
per_message() {
  local long short
  long=$(rusage_of "$1"); short=$(rusage_of "$2")
  awk -v l="$long" -v s="$short" -v n="$3" 'BEGIN {
    split(l, a, " "); split(s, b, " ")
    printf "%.1f %.3f %.3f\n", (a[1] - b[1]) * 1000 / n, (a[2] - b[2]) / n, (a[3] - b[3]) / n }'
}

sum() { # numbers... -> their sum, 3 decimals
  awk 'BEGIN { s = 0; for (i = 1; i < ARGC; i++) s += ARGV[i]; printf "%.3f\n", s }' "$@"
}

median() { # values... -> median or "-"
  (($#)) || { echo -; return; }
  printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2; print m }'
}

cpu_main() {
  check_tools
  build_native
  [[ " $IMPLS " == *ours* ]] && build_ours
  say "logs: $LOG_DIR"
  say "runs: $RUNS; machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"

  local rows=() summary=() cross=() failed=0 line
  for line in "${CPU_SCENARIOS[@]}"; do
    local name kind transport size count short lib
    read -r name kind transport size count lib <<<"$line"
    [[ -z $ONLY || $name =~ $ONLY ]] || continue
    if [[ $lib == draft ]] && ((!HAVE_DRAFT)); then
      say "$name: skipped, no draft-enabled libzmq"; continue
    fi
    count=$(awk -v c="$count" -v s="$SCALE" 'BEGIN { n = int(c * s); print (n < 2 ? 2 : n) }')
    short=$(awk -v c="$count" -v f="$SHORT_FRACTION" 'BEGIN { n = int(c * f); print (n < 1 ? 1 : n) }')
    local diff=$((count - short))
    say "$name ($kind, $size B; $count - $short)"

    # Per implementation: arrays of per-run figures, keyed impl.field
    declare -A fig=()
    local i impl
    for ((i = 1; i <= RUNS; i++)); do
      for impl in $IMPLS; do
        [[ $impl == raw && $transport == *+curve ]] && continue
        [[ $impl == raw && -z $(floor_of "$kind" "$transport") ]] && continue
        [[ $impl == *">"* && $impl == *raw* ]] && continue
        local tag=$name.$i.${impl/>/-to-} v_long v_short run_kind=$kind run_transport=$transport
        local run_remote=${impl%%>*} run_local=${impl##*>}
        [[ $run_remote == libzmq && $lib == draft ]] && run_remote=libzmq-draft
        [[ $run_local == libzmq && $lib == draft ]] && run_local=libzmq-draft
        [[ $impl == raw ]] && read -r run_kind run_transport <<<"$(floor_of "$kind" "$transport")"
        if ! v_long=$(run_once "$run_kind" "$run_transport" "$size" "$count" "$run_local" "$run_remote" "$tag.long") \
          || ! v_short=$(run_once "$run_kind" "$run_transport" "$size" "$short" "$run_local" "$run_remote" "$tag.short"); then
          ((++failed)); continue
        fi
        local remote local_
        remote=$(per_message "$LOG_DIR/$tag.long.remote.rusage" "$LOG_DIR/$tag.short.remote.rusage" "$diff")
        local_=$(per_message "$LOG_DIR/$tag.long.local.rusage" "$LOG_DIR/$tag.short.local.rusage" "$diff")
        say "  run $i $impl: figure $v_long; remote (cpu ns, vol, invol) $remote; local $local_"
        local r_cpu r_vol r_inv l_cpu l_vol l_inv
        read -r r_cpu r_vol r_inv <<<"$remote"
        read -r l_cpu l_vol l_inv <<<"$local_"
        fig[$impl.fig]+=" $v_long"; fig[$impl.r_cpu]+=" $r_cpu"; fig[$impl.l_cpu]+=" $l_cpu"
        fig[$impl.r_vol]+=" $r_vol"; fig[$impl.l_vol]+=" $l_vol"
        fig[$impl.r_inv]+=" $r_inv"; fig[$impl.l_inv]+=" $l_inv"
      done
    done

    local unit per
    if [[ $kind == *thr ]]; then unit="msg/s"; per="msg"; else unit="us (1-way)"; per="round trip"; fi
    declare -A med=()
    for impl in $IMPLS; do
      local key
      for key in fig r_cpu l_cpu r_vol l_vol r_inv l_inv; do
        # shellcheck disable=SC2086 # the figures are space-separated on purpose
        med[$impl.$key]=$(median ${fig[$impl.$key]:-})
      done
      [[ ${med[$impl.fig]} == - ]] && continue
      rows+=("| $name | $impl | ${med[$impl.r_cpu]} | ${med[$impl.l_cpu]} | ${med[$impl.r_vol]} / ${med[$impl.r_inv]} | ${med[$impl.l_vol]} / ${med[$impl.l_inv]} | $(fmt "$kind" "${med[$impl.fig]}") $unit |")
    done
    if [[ -n ${med[ours.fig]:-} && ${med[ours.fig]} != - && -n ${med[libzmq.fig]:-} && ${med[libzmq.fig]} != - ]]; then
      local vol_ours vol_libzmq all_ours all_libzmq
      vol_ours=$(sum "${med[ours.r_vol]}" "${med[ours.l_vol]}")
      vol_libzmq=$(sum "${med[libzmq.r_vol]}" "${med[libzmq.l_vol]}")
      all_ours=$(sum "${med[ours.r_vol]}" "${med[ours.l_vol]}" "${med[ours.r_inv]}" "${med[ours.l_inv]}")
      all_libzmq=$(sum "${med[libzmq.r_vol]}" "${med[libzmq.l_vol]}" "${med[libzmq.r_inv]}" "${med[libzmq.l_inv]}")
      summary+=("| $name | per $per | $(ratio "${med[ours.r_cpu]}" "${med[libzmq.r_cpu]}") | $(ratio "${med[ours.l_cpu]}" "${med[libzmq.l_cpu]}") | $vol_ours / $vol_libzmq | $all_ours / $all_libzmq |")
    fi
    # The crosses against libzmq's own pair: our sender (or REQ) beside libzmq's, each
    # against libzmq's receiver; our receiver (or REP) beside libzmq's, each fed by libzmq.
    if [[ -n ${med[libzmq.fig]:-} && ${med[libzmq.fig]} != - ]]; then
      [[ -n ${med[ours>libzmq.fig]:-} && ${med[ours>libzmq.fig]} != - ]] &&
        cross+=("| $name | per $per | ours sends, libzmq receives | $(ratio "${med[ours>libzmq.r_cpu]}" "${med[libzmq.r_cpu]}") (${med[ours>libzmq.r_cpu]} / ${med[libzmq.r_cpu]}) |")
      [[ -n ${med[libzmq>ours.fig]:-} && ${med[libzmq>ours.fig]} != - ]] &&
        cross+=("| $name | per $per | libzmq sends, ours receives | $(ratio "${med[libzmq>ours.l_cpu]}" "${med[libzmq.l_cpu]}") (${med[libzmq>ours.l_cpu]} / ${med[libzmq.l_cpu]}) |")
    fi
    unset fig med
  done

  echo
  echo "RUNS=$RUNS (medians); steady state = run of COUNT minus run of COUNT x $SHORT_FRACTION, per message (thr) or per round trip (lat); SCALE=$SCALE; PERF_BUFFER=$PERF_BUFFER."
  echo "remote = sender (thr) or REQ (lat); local = receiver (thr) or REP (lat). CPU = user + system of the whole process, ns. Switches = voluntary / involuntary context switches of all its threads."
  echo
  echo "| scenario | impl | remote CPU [ns] | local CPU [ns] | remote switches vol / invol | local switches vol / invol | figure (long run) |"
  echo "|---|---|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  if ((${#summary[@]})); then
    echo
    echo "Ours against libzmq: CPU as ratios ours / libzmq (lower is better); switches of both processes together, ours / libzmq."
    echo "Linux counts a sched_yield that hands the CPU to another runnable thread as an involuntary switch, so spinning"
    echo "waits show up there as well as preemptions."
    echo
    echo "| scenario | unit | remote CPU | local CPU | voluntary switches | all switches |"
    echo "|---|---|---:|---:|---:|---:|"
    printf '%s\n' "${summary[@]}"
  fi
  if ((${#cross[@]})); then
    echo
    echo "Crosses: the CPU of our side against libzmq's same side, each with libzmq at the other end (ratio ours / libzmq; ns)."
    echo
    echo "| scenario | unit | cross | CPU of our side / libzmq's |"
    echo "|---|---|---|---:|"
    printf '%s\n' "${cross[@]}"
  fi

  if ((failed)); then
    say "$failed pair(s) failed; logs kept in $LOG_DIR"
    exit 1
  fi
  rm -rf "$LOG_DIR"
}

cpu_main "$@"
