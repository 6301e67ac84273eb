#!/usr/bin/env bash
# Fan-out and fan-in throughput, libzmq against Managed.Zmq, at several I/O thread counts:
#   fanout: one XPUB (verbose, no-drop) publishes to N SUB sockets (all in one process);
#           figure = published msg/s, every message reaching every subscriber
#   fanin:  N DEALER sockets (one process, one sending thread, in turn) to one ROUTER;
#           figure = msg/s received by the ROUTER
# Each side is its own process (benchmarks/native/{pub_fanout,sub_fanout,router_fanin,
# dealer_fanin}.c for libzmq, the modes of the same names in benchmarks/Managed.Zmq.Perf for
# ours); both processes get PERF_IO_THREADS=n, i.e. n I/O threads per context. Runs are
# interleaved libzmq, ours, libzmq, ...
#
#   bash benchmarks/fanout.sh
#
# Environment:
#   RUNS=3          runs per implementation, scenario and thread count (medians reported)
#   ONLY=regex      run only the scenarios whose name matches (grep -E)
#   SCALE=1         multiply every message count (e.g. 0.05 for a smoke run)
#   IO_THREADS="1 2 4"  I/O thread counts per context to run
#   TIMEOUT=120     seconds before one process is killed
#
# Needs what compare.sh needs. Prints a Markdown table on stdout; progress on stderr.
set -euo pipefail

RUNS=${RUNS:-3}
IO_THREADS=${IO_THREADS:-1 2 4}

#   name                    kind    transport size count    peers
FAN_SCENARIOS=(
  "tcp-pub-50-sub-64B       fanout  tcp       64   200000   50"
  "tcp-100-dealer-router-64B fanin  tcp       64   2000000  100"
)

# compare.sh's transports, builds and helpers (sourcing it runs nothing).
# shellcheck source=compare.sh
source "$(dirname "${BASH_SOURCE[0]}")/compare.sh"
SIDES=both

# run_fan kind transport size count peers impl io-threads tag -> prints msg/s
run_fan() {
  local kind=$1 transport=$2 size=$3 count=$4 peers=$5 impl=$6 io=$7 tag=$8
  local bind_tool connect_tool measured
  case $kind in
    fanout) bind_tool=pub_fanout connect_tool=sub_fanout measured=connect ;;
    fanin) bind_tool=router_fanin connect_tool=dealer_fanin measured=bind ;;
    *) die "unknown fan kind $kind" ;;
  esac
  local address ep bind_cmd connect_cmd bind_pid
  address=$(fresh_address "$transport")
  ep=$(endpoint "$transport" "$address")
  bind_cmd=$(command_for "$impl" "$bind_tool")
  connect_cmd=$(command_for "$impl" "$connect_tool")
  local bind_out=$LOG_DIR/$tag.bind connect_out=$LOG_DIR/$tag.connect

  # shellcheck disable=SC2086 # command words are split on purpose
  timeout -k 5 "$TIMEOUT" env PERF_IO_THREADS="$io" $bind_cmd "$ep" "$size" "$count" "$peers" >"$bind_out" 2>&1 &
  bind_pid=$!
  local waited=0
  until is_ready "$transport" "$address"; do
    if ! kill -0 "$bind_pid" 2>/dev/null || ((++waited > 500)); then
      kill "$bind_pid" 2>/dev/null || true; wait "$bind_pid" || true
      say "  bind side never bound; see $bind_out"; return 1
    fi
    sleep 0.02
  done
  local connect_rc=0 bind_rc=0
  # shellcheck disable=SC2086
  timeout -k 5 "$TIMEOUT" env PERF_IO_THREADS="$io" $connect_cmd "$ep" "$size" "$count" "$peers" >"$connect_out" 2>&1 || connect_rc=$?
  ((connect_rc == 0)) || kill "$bind_pid" 2>/dev/null || true
  wait "$bind_pid" || bind_rc=$?
  [[ $transport == ipc ]] && rm -f "$address"
  if ((connect_rc != 0 || bind_rc != 0)); then
    say "  failed (bind rc=$bind_rc, connect rc=$connect_rc; 124 = timeout); see $LOG_DIR/$tag.*"
    return 1
  fi
  local figure out=$bind_out
  [[ $measured == connect ]] && out=$connect_out
  figure=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$out")
  [[ -n $figure ]] || { say "  no result line; see $out"; return 1; }
  echo "$figure"
}

fan_main() {
  check_tools
  build_native
  build_ours
  say "logs: $LOG_DIR"
  say "runs: $RUNS; machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1); load: $(cut -d' ' -f1-3 /proc/loadavg)"

  local rows=() failed=0 line
  for line in "${FAN_SCENARIOS[@]}"; do
    local name kind transport size count peers
    read -r name kind transport size count peers <<<"$line"
    [[ -z $ONLY || $name =~ $ONLY ]] || continue
    count=$(awk -v c="$count" -v s="$SCALE" 'BEGIN { n = int(c * s); print (n < 1 ? 1 : n) }')
    local io
    for io in $IO_THREADS; do
      say "$name ($kind, $peers peers, $size B x $count, $io I/O threads)"
      local a_vals=() b_vals=() i v
      for ((i = 1; i <= RUNS; i++)); do
        if v=$(run_fan "$kind" "$transport" "$size" "$count" "$peers" libzmq "$io" "$name.$io.$i.A"); then
          a_vals+=("$v"); say "  run $i libzmq: $v"
        else
          ((++failed))
        fi
        if v=$(run_fan "$kind" "$transport" "$size" "$count" "$peers" ours "$io" "$name.$io.$i.B"); then
          b_vals+=("$v"); say "  run $i ours: $v"
        else
          ((++failed))
        fi
      done
      local a_min a_med a_max b_min b_med b_max
      read -r a_min a_med a_max <<<"$(stats "${a_vals[@]}")"
      read -r b_min b_med b_max <<<"$(stats "${b_vals[@]}")"
      rows+=("| $name | $peers | $io | $count | $(fmt thr "$a_min") | $(fmt thr "$a_med") | $(fmt thr "$a_max") | $(fmt thr "$b_min") | $(fmt thr "$b_med") | $(fmt thr "$b_max") | $(ratio "$b_med" "$a_med") |")
    done
  done

  echo
  echo "RUNS=$RUNS; A = libzmq 4.3 both processes, B = Managed.Zmq both processes; msg/s (fanout: published, each delivered to every subscriber; fanin: received by the ROUTER); ratio = median B / median A."
  echo
  echo "| scenario | peers | I/O threads | count | A min | A median | A max | B min | B median | B max | ratio B/A |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  if ((failed)); then
    say "$failed run(s) failed; logs kept in $LOG_DIR"
    exit 1
  fi
  rm -rf "$LOG_DIR"
}

fan_main "$@"
