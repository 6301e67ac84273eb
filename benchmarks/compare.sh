#!/usr/bin/env bash
# Side-by-side benchmark: libzmq 4.3 (our C perf tools in benchmarks/native) against
# Managed.Zmq (benchmarks/Managed.Zmq.Perf), same scenarios, runs interleaved A B A B ...
#
#   bash benchmarks/compare.sh
#
# Environment:
#   RUNS=5        runs per side and scenario
#   SIDES=both    both | libzmq   (libzmq: baseline only, Managed.Zmq columns "pending")
#   ONLY=regex    run only the scenarios whose name matches (grep -E)
#   TIMEOUT=120   seconds before one process is killed
#   SCALE=1       multiply every message/roundtrip count (e.g. 0.1 for a smoke run)
#   PERF_BUFFER=message  how our throughput tools move payloads: message (default) is libzmq's
#                 perf tools line for line, one Message rebuilt per send and one received into,
#                 as they do with one zmq_msg_t, so neither side copies a payload; span sends and
#                 receives through spans, one copy at each end (the plain-array path).
#
# Needs (installs nothing): gcc and libzmq headers (apt-get install -y libzmq3-dev gcc),
# the .NET SDK from global.json, and ss (iproute2) to find free ports.
# Prints a Markdown table on stdout; progress and per-run figures go to stderr.
set -euo pipefail

RUNS=${RUNS:-5}
export PERF_BUFFER=${PERF_BUFFER:-message}
SIDES=${SIDES:-both}
ONLY=${ONLY:-}
TIMEOUT=${TIMEOUT:-120}
SCALE=${SCALE:-1}

# --------------------------------------------------------------------------------------
# Scenarios: one line each. Side A is always libzmq -> libzmq; side B uses the local and
# remote implementations named here (ours | libzmq). Throughput is what the local side
# (PULL, or the bound ROUTER for router_thr) prints, latency what the remote side (REQ)
# prints. Kinds: thr (local_thr/remote_thr), lat (local_lat/remote_lat), router_thr
# (local_router_thr/remote_router_thr). Transport inproc runs one process, inproc_thr or
# inproc_lat, so only B-local matters there (B-remote is "-").
# Transport tcp+curve is tcp with PERF_CURVE=1 for both processes: the local (bind) side is
# the CURVE server, the remote side the client, with fixed test keys (every other transport
# runs with PERF_CURVE=0). Kind hs is the one-process `handshake` tool (tcp loopback):
# median ms from connect to the first message received over a fresh connection, count =
# connections; like inproc, only B-local matters.
#
#   name                      kind       transport size  count    B-local B-remote
SCENARIOS=(
  "tcp-thr-64B                thr        tcp       64    4000000  ours    ours"
  "tcp-thr-1KiB               thr        tcp       1024  1000000  ours    ours"
  "tcp-thr-64KiB              thr        tcp       65536 40000    ours    ours"
  "tcp-lat-64B                lat        tcp       64    20000    ours    ours"
  "tcp-thr-64B-libzmq>ours    thr        tcp       64    4000000  ours    libzmq"
  "tcp-thr-64B-ours>libzmq    thr        tcp       64    4000000  libzmq  ours"
  "tcp-thr-64KiB-libzmq>ours  thr        tcp       65536 40000    ours    libzmq"
  "tcp-thr-64KiB-ours>libzmq  thr        tcp       65536 40000    libzmq  ours"
  "tcp-lat-64B-libzmq>ours    lat        tcp       64    20000    ours    libzmq"
  "tcp-lat-64B-ours>libzmq    lat        tcp       64    20000    libzmq  ours"
  "tcp-router-thr-64B         router_thr tcp       64    4000000  ours    ours"
  "ipc-thr-64B                thr        ipc       64    4000000  ours    ours"
  "ipc-thr-1KiB               thr        ipc       1024  1000000  ours    ours"
  "ipc-thr-1KiB-libzmq>ours   thr        ipc       1024  1000000  ours    libzmq"
  "ipc-thr-1KiB-ours>libzmq   thr        ipc       1024  1000000  libzmq  ours"
  "ipc-thr-64KiB              thr        ipc       65536 40000    ours    ours"
  "ipc-lat-64B                lat        ipc       64    20000    ours    ours"
  "inproc-thr-64B             thr        inproc    64    10000000 ours    -"
  "inproc-thr-1KiB            thr        inproc    1024  4000000  ours    -"
  "inproc-lat-64B             lat        inproc    64    100000   ours    -"
  "tcp-curve-thr-64B          thr        tcp+curve 64    2000000  ours    ours"
  "tcp-curve-thr-1KiB         thr        tcp+curve 1024  400000   ours    ours"
  "tcp-curve-thr-64KiB        thr        tcp+curve 65536 16000    ours    ours"
  "tcp-curve-thr-1KiB-libzmq>ours thr    tcp+curve 1024  400000   ours    libzmq"
  "tcp-curve-thr-1KiB-ours>libzmq thr    tcp+curve 1024  400000   libzmq  ours"
  "tcp-curve-lat-64B          lat        tcp+curve 64    20000    ours    ours"
  "tcp-handshake              hs         tcp       64    50       ours    -"
  "tcp-curve-handshake        hs         tcp+curve 64    50       ours    -"
)
# In cross names "x>y" reads "x's remote side talks to y's local side" (remote_thr sends).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NATIVE_SRC=$ROOT/benchmarks/native
NATIVE_BIN=$NATIVE_SRC/build
PERF_PROJ=$ROOT/benchmarks/Managed.Zmq.Perf/Managed.Zmq.Perf.csproj
PERF_DLL=$ROOT/benchmarks/Managed.Zmq.Perf/bin/Release/net10.0/Managed.Zmq.Perf.dll
LOG_DIR=$(mktemp -d "${TMPDIR:-/tmp}/managed-zmq-compare.XXXXXX")

say() { printf '%s\n' "$*" >&2; }
die() { say "compare.sh: $*"; exit 2; }

# --------------------------------------------------------------------------------------
# Prerequisites and builds

check_tools() {
  local missing=()
  command -v gcc >/dev/null || missing+=("gcc")
  if command -v gcc >/dev/null && ! printf '#include <zmq.h>\nint main(void){return 0;}\n' \
      | gcc -x c -o /dev/null - -lzmq 2>/dev/null; then
    missing+=("libzmq3-dev")
  fi
  command -v ss >/dev/null || missing+=("iproute2")
  command -v timeout >/dev/null || missing+=("coreutils")
  if ((${#missing[@]})); then
    die "missing ${missing[*]}; install with: sudo apt-get install -y ${missing[*]}"
  fi
  if [[ $SIDES != libzmq ]] && ! command -v dotnet >/dev/null; then
    die "dotnet not found; install the .NET SDK named in global.json (or run with SIDES=libzmq)"
  fi
  [[ $SIDES == both || $SIDES == libzmq ]] || die "SIDES must be 'both' or 'libzmq'"
}

build_native() {
  mkdir -p "$NATIVE_BIN"
  local tool
  for tool in local_thr remote_thr local_lat remote_lat local_router_thr remote_router_thr \
      inproc_thr inproc_lat handshake; do
    gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/$tool" "$NATIVE_SRC/$tool.c" -lzmq \
      || die "gcc failed for $tool.c"
  done
}

build_ours() {
  say "building Managed.Zmq.Perf (Release) ..."
  dotnet build "$PERF_PROJ" -c Release -nologo -v quiet >"$LOG_DIR/dotnet-build.log" 2>&1 \
    || { cat "$LOG_DIR/dotnet-build.log" >&2; die "dotnet build failed"; }
  [[ -f $PERF_DLL ]] || die "expected $PERF_DLL after the build"
}

# --------------------------------------------------------------------------------------
# Transports: how to address a fresh endpoint and how to tell that the bind is up.
# A new transport means a branch in each of these three functions. inproc has no address:
# both ends live in one process (run_once runs inproc_thr / inproc_lat).

fresh_address() { # transport -> address (a free tcp port, ...)
  case $1 in
    tcp)
      local port tries=0
      while :; do
        # Below the Linux ephemeral range (32768+) so outgoing connects cannot take it.
        port=$(shuf -i 20000-32000 -n 1)
        [[ -z $(ss -Htan "( sport = :$port or dport = :$port )") ]] && break
        ((++tries < 100)) || die "no free tcp port found"
      done
      echo "$port" ;;
    ipc)
      # A fresh Unix-domain socket path inside the log directory (well under 108 bytes).
      mktemp -u "$LOG_DIR/ipc.XXXXXXXX" ;;
    inproc) echo "-" ;;
    *) die "unknown transport $1" ;;
  esac
}

endpoint() { # transport address -> endpoint string
  case $1 in
    tcp) echo "tcp://127.0.0.1:$2" ;;
    ipc) echo "ipc://$2" ;;
    *) die "unknown transport $1" ;;
  esac
}

is_ready() { # transport address -> success when the local side is listening
  case $1 in
    tcp) [[ -n $(ss -Hltn "sport = :$2") ]] ;;
    ipc) [[ -S $2 ]] ;;
    *) die "unknown transport $1" ;;
  esac
}

# --------------------------------------------------------------------------------------
# One run

command_for() { # impl mode -> command words
  case $1 in
    libzmq) echo "$NATIVE_BIN/$2" ;;
    ours) echo "dotnet $PERF_DLL $2" ;;
    *) die "unknown implementation $1" ;;
  esac
}

# run_once kind transport size count local-impl remote-impl tag -> prints the figure
# (msg/s for thr and router_thr, one-way us for lat) or returns non-zero.
run_once() {
  local kind=$1 transport=$2 size=$3 count=$4 local_impl=$5 remote_impl=$6 tag=$7
  if [[ $transport == inproc || $kind == hs ]]; then
    run_inproc "$@"
    return
  fi
  local curve
  curve=$(curve_env "$transport")
  transport=${transport%+curve}
  local address ep local_cmd remote_cmd local_pid
  address=$(fresh_address "$transport")
  ep=$(endpoint "$transport" "$address")
  local_cmd=$(command_for "$local_impl" "local_$kind")
  remote_cmd=$(command_for "$remote_impl" "remote_$kind")
  local local_out=$LOG_DIR/$tag.local remote_out=$LOG_DIR/$tag.remote

  # shellcheck disable=SC2086 # command words are split on purpose
  timeout -k 5 "$TIMEOUT" env "$curve" $local_cmd "$ep" "$size" "$count" >"$local_out" 2>&1 &
  local_pid=$!

  local waited=0
  until is_ready "$transport" "$address"; do
    if ! kill -0 "$local_pid" 2>/dev/null; then
      wait "$local_pid" || true
      say "  local side exited before binding; see $local_out"
      return 1
    fi
    ((++waited <= 500)) || { kill "$local_pid" 2>/dev/null || true; wait "$local_pid" || true; say "  local side never bound"; return 1; }
    sleep 0.02
  done

  local remote_rc=0 local_rc=0
  # shellcheck disable=SC2086
  timeout -k 5 "$TIMEOUT" env "$curve" $remote_cmd "$ep" "$size" "$count" >"$remote_out" 2>&1 || remote_rc=$?
  if ((remote_rc != 0)); then
    kill "$local_pid" 2>/dev/null || true
  fi
  wait "$local_pid" || local_rc=$?
  [[ $transport == ipc ]] && rm -f "$address"
  if ((remote_rc != 0 || local_rc != 0)); then
    say "  failed (local rc=$local_rc, remote rc=$remote_rc; 124 = timeout); see $LOG_DIR/$tag.*"
    return 1
  fi

  local figure
  case $kind in
    *thr) figure=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$local_out") ;;
    lat) figure=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$remote_out") ;;
  esac
  [[ -n $figure ]] || { say "  no result line; see $LOG_DIR/$tag.*"; return 1; }
  echo "$figure"
}

curve_env() { # transport -> the PERF_CURVE=... assignment both processes get
  [[ $1 == *+curve ]] && echo "PERF_CURVE=1" || echo "PERF_CURVE=0"
}

# run_inproc: same contract as run_once, one process (inproc_thr or inproc_lat of local-impl,
# or handshake for kind hs).
run_inproc() {
  local kind=$1 transport=$2 size=$3 count=$4 impl=$5 tag=$7
  local cmd out=$LOG_DIR/$tag.inproc rc=0 mode=inproc_$kind curve
  [[ $kind == hs ]] && mode=handshake
  curve=$(curve_env "$transport")
  cmd=$(command_for "$impl" "$mode")
  # shellcheck disable=SC2086
  timeout -k 5 "$TIMEOUT" env "$curve" $cmd "$size" "$count" >"$out" 2>&1 || rc=$?
  if ((rc != 0)); then
    say "  failed (rc=$rc; 124 = timeout); see $out"
    return 1
  fi
  local figure
  case $kind in
    thr) figure=$(sed -n 's/^mean throughput: \([0-9]*\) \[msg\/s\]$/\1/p' "$out") ;;
    lat) figure=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$out") ;;
    hs) figure=$(sed -n 's/^median handshake: \([0-9.]*\) \[ms\]$/\1/p' "$out") ;;
  esac
  [[ -n $figure ]] || { say "  no result line; see $out"; return 1; }
  echo "$figure"
}

# --------------------------------------------------------------------------------------
# Statistics

stats() { # values... -> "min median max" (or "- - -" when there are none)
  if (($# == 0)); then echo "- - -"; return; fi
  printf '%s\n' "$@" | sort -g | awk '
    { v[NR] = $1 }
    END {
      med = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
      printf "%.3f %.3f %.3f\n", v[1], med, v[NR]
    }'
}

fmt() { # kind value -> thousands-grouped msg/s or 3-decimal us
  [[ $2 =~ ^[0-9.]+$ ]] || { echo "$2"; return; }
  case $1 in
    *thr) awk -v x="$2" 'BEGIN {
           s = sprintf("%.0f", x); out = ""
           while (length(s) > 3) { out = "," substr(s, length(s) - 2) out; s = substr(s, 1, length(s) - 3) }
           print s out }' ;;
    lat|hs) printf '%.3f' "$2" ;;
  esac
}

# --------------------------------------------------------------------------------------

main() {
  check_tools
  build_native
  [[ $SIDES == both ]] && build_ours

  say "logs: $LOG_DIR"
  say "runs per side: $RUNS; machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1)"

  local rows=() failed=0 line
  for line in "${SCENARIOS[@]}"; do
    local name kind transport size count b_local b_remote
    read -r name kind transport size count b_local b_remote <<<"$line"
    [[ -z $ONLY || $name =~ $ONLY ]] || continue
    count=$(awk -v c="$count" -v s="$SCALE" 'BEGIN { n = int(c * s); print (n < 1 ? 1 : n) }')

    say "$name ($kind, $size B x $count)"
    local a_vals=() b_vals=() a_fail=0 b_fail=0 i v
    for ((i = 1; i <= RUNS; i++)); do
      if v=$(run_once "$kind" "$transport" "$size" "$count" libzmq libzmq "$name.$i.A"); then
        a_vals+=("$v"); say "  run $i A libzmq: $v"
      else
        ((++a_fail))
      fi
      [[ $SIDES == both ]] || continue
      if v=$(run_once "$kind" "$transport" "$size" "$count" "$b_local" "$b_remote" "$name.$i.B"); then
        b_vals+=("$v"); say "  run $i B ${b_remote/#-/(one process) }>$b_local: $v"
      else
        ((++b_fail))
      fi
    done
    failed=$((failed + a_fail + b_fail))

    local a_min a_med a_max b_min b_med b_max ratio unit
    read -r a_min a_med a_max <<<"$(stats "${a_vals[@]}")"
    if [[ $SIDES == both ]]; then
      read -r b_min b_med b_max <<<"$(stats "${b_vals[@]}")"
    else
      b_min=pending b_med=pending b_max=pending
    fi
    if [[ $a_med != - && $b_med != - && $b_med != pending ]]; then
      ratio=$(awk -v b="$b_med" -v a="$a_med" 'BEGIN { printf "%.2f", b / a }')
    else
      ratio=-
    fi
    case $kind in
      *thr) unit="msg/s" ;;
      lat) unit="us (1-way)" ;;
      hs) unit="ms (median connect→msg)" ;;
    esac
    local note=""
    ((a_fail + b_fail)) && note=" (failed runs: A $a_fail, B $b_fail)"
    rows+=("| $name$note | $size | $count | $unit | $(fmt "$kind" "$a_min") | $(fmt "$kind" "$a_med") | $(fmt "$kind" "$a_max") | $(fmt "$kind" "$b_min") | $(fmt "$kind" "$b_med") | $(fmt "$kind" "$b_max") | $ratio |")
  done

  echo
  echo "RUNS=$RUNS per side; A = libzmq 4.3 both ends; B = the ends named in the scenario (ours = Managed.Zmq); PERF_BUFFER=$PERF_BUFFER."
  echo "Ratio = median B / median A (throughput: higher is better; latency and handshake: lower is better)."
  echo
  echo "| scenario | size [B] | count | unit | A min | A median | A max | B min | B median | B max | ratio B/A |"
  echo "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"

  if ((failed)); then
    say "$failed run(s) failed; logs kept in $LOG_DIR"
    exit 1
  fi
  rm -rf "$LOG_DIR"
}

main "$@"
