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
#   LAT_WARMUP=5000  untimed round trips every latency row runs before its clock starts, the
#                 same in all three implementations (PERF_WARMUP for the tools), so that the
#                 figure is the steady state. 0 gives libzmq's perf tools' figure, whose clock
#                 starts right after connect: it then includes connecting and, for ours, the
#                 JIT of every method on the path (a first round trip of ours costs
#                 milliseconds to tenths of a second, libzmq's well under one).
#   FLOOR=1       also run the raw floor (benchmarks/native/raw: plain blocking sockets, an
#                 8-byte length prefix, no messaging library) for every tcp/ipc scenario, in
#                 the same interleaved run, and print it with the ratios A/floor and B/floor.
#                 FLOOR=0 leaves the floor columns out.
#   RAW_BUFS=1    payload buffers the floor's sender takes in turn (raw_remote_thr.c): 1 keeps
#                 its one buffer in the cache; a library with a full send queue sends from as
#                 many buffers as the queue holds, so RAW_BUFS=1000 (the default high-water
#                 mark) is the floor with the same cold buffers, for the large-message rows.
#   OURS_DEFAULTS=0  1: also run every scenario whose B side includes ours with the .NET
#                 runtime's defaults (tiered compilation and dynamic PGO on; the perf CLI is
#                 built with tiering off), with DEFAULTS_SCALE times the count so that the
#                 run is long enough to reach tier 1, and print it as column D with D/A.
#   DEFAULTS_SCALE=10  count multiplier for the runtime-defaults runs (figures are rates, so
#                 they compare with A and B run over the plain count)
#   DRAFT_LIBZMQ=dir  install prefix of the draft-enabled libzmq the draft rows (last field
#                 "draft") link against; default: the prefix of MANAGED_ZMQ_DRAFT_LIBZMQ (the
#                 .so path, as the interop tests take it), else the newest build under
#                 /var/cache/managed-zmq/libzmq-draft (interop-tests/native/build-draft-libzmq.sh).
#                 Without one, the draft rows are reported as skipped.
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
LAT_WARMUP=${LAT_WARMUP:-5000}
FLOOR=${FLOOR:-1}
OURS_DEFAULTS=${OURS_DEFAULTS:-0}
DEFAULTS_SCALE=${DEFAULTS_SCALE:-10}
# The .NET runtime's defaults for a users' application: environment variables win over the
# perf CLI's runtimeconfig (TieredCompilation=false), so this switches tiering back on.
RUNTIME_DEFAULTS_ENV=(DOTNET_TieredCompilation=1 DOTNET_TieredPGO=1)

# --------------------------------------------------------------------------------------
# Scenarios: one line each. Side A is always libzmq -> libzmq; side B uses the local and
# remote implementations named here (ours | libzmq). Throughput is what the local side
# (PULL, or the bound ROUTER for router_thr) prints, latency what the remote side (REQ)
# prints. Kinds: thr (local_thr/remote_thr), lat (local_lat/remote_lat), router_thr
# (local_router_thr/remote_router_thr). Transport inproc runs one process, inproc_thr or
# inproc_lat, so only B-local matters there (B-remote is "-").
# Transport tcp+curve is tcp with PERF_CURVE=1 for both processes: the local (bind) side is
# the CURVE server, the remote side the client, with fixed test keys (every other transport
# runs with PERF_CURVE=0). Transport ws is ws:// (ZWS 2.0) on a tcp port, path "/".
# Kinds dr_thr/dr_lat and cs_thr/cs_lat are thr and lat for the routed pairs
# (benchmarks/native/*_routed_*.c, the perf CLI's *_dr_* and *_cs_* modes): DEALER -> ROUTER
# and CLIENT -> SERVER (throughput), DEALER/CLIENT asking and ROUTER/SERVER answering by
# routing id (latency). An optional last field "draft" runs libzmq's side (A, and B where
# it names libzmq) with the draft-enabled build (DRAFT_LIBZMQ): SERVER/CLIENT, ws and the
# other draft features exist only there, and the classic rows they are read against use the
# same build so that both read one library. Kind hs is the one-process `handshake` tool (tcp loopback):
# median ms from connect to the first message received over a fresh connection, count =
# connections; like inproc, only B-local matters.
# Kinds rd_thr and ps_thr (benchmarks/native/*_radio_thr.c with radio_common.h, the perf CLI's
# *_rd_thr and *_ps_thr modes): RADIO -> DISH (one group, "perf") and XPUB -> SUB, the sender
# connecting with ZMQ_XPUB_NODROP. Transport udp is udp:// unicast on loopback (the DISH binds,
# the RADIO connects). Neither pair has flow control of its own, and udp none at all: with
# NODROP a tcp sender blocks on a full peer, so over tcp every message arrives (a RADIO cannot
# see the DISH's JOIN, so it waits 500 ms after connecting; what it sent before would show as
# loss), but over udp the kernel drops the datagrams the receiver has no room for. So the
# receiver stops at the count or after 1 s without a message, and its figure is the messages
# received over the time from the first to the last: the rate a DISH takes in while the
# sender sends flat out. The row's name then carries the loss, the median % of the count
# per side ("loss A x %, B y %"). There is no floor for udp.
#
#   name                      kind       transport size  count    B-local B-remote [lib]
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
  "tcp-lat-64KiB              lat        tcp       65536 20000    ours    ours"
  "ipc-lat-64KiB              lat        ipc       65536 20000    ours    ours"
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
  # Draft sockets, thread-safe types from one thread: SERVER/CLIENT read against DEALER/ROUTER,
  # both on the draft build (ONLY='dealer-router|server-client').
  "tcp-dealer-router-thr-64B  dr_thr     tcp       64    4000000  ours    ours    draft"
  "tcp-server-client-thr-64B  cs_thr     tcp       64    4000000  ours    ours    draft"
  "tcp-server-client-thr-64B-libzmq>ours cs_thr tcp 64 4000000  ours    libzmq  draft"
  "tcp-server-client-thr-64B-ours>libzmq cs_thr tcp 64 4000000  libzmq  ours    draft"
  "tcp-dealer-router-lat-64B  dr_lat     tcp       64    20000    ours    ours    draft"
  "tcp-server-client-lat-64B  cs_lat     tcp       64    20000    ours    ours    draft"
  # Draft transports, ws:// read against tcp:// (ws-tcp-*: the tcp reference, same draft build on
  # side A) at each size (ONLY='^ws-').
  "ws-tcp-thr-64B             thr        tcp       64    4000000  ours    ours    draft"
  "ws-thr-64B                 thr        ws        64    4000000  ours    ours    draft"
  "ws-tcp-thr-1KiB            thr        tcp       1024  1000000  ours    ours    draft"
  "ws-thr-1KiB                thr        ws        1024  1000000  ours    ours    draft"
  "ws-thr-1KiB-libzmq>ours    thr        ws        1024  1000000  ours    libzmq  draft"
  "ws-thr-1KiB-ours>libzmq    thr        ws        1024  1000000  libzmq  ours    draft"
  "ws-tcp-lat-64B             lat        tcp       64    20000    ours    ours    draft"
  "ws-lat-64B                 lat        ws        64    20000    ours    ours    draft"
  # Draft sockets, RADIO/DISH over tcp and udp, read against PUB/SUB over tcp on the same build
  # (radio-dish-ref-*: XPUB -> SUB) (ONLY='radio-dish').
  "radio-dish-ref-tcp-pub-sub-thr-64B ps_thr tcp 64 4000000  ours    ours    draft"
  "tcp-radio-dish-thr-64B     rd_thr     tcp       64    4000000  ours    ours    draft"
  "tcp-radio-dish-thr-64B-libzmq>ours rd_thr tcp 64 4000000  ours    libzmq  draft"
  "tcp-radio-dish-thr-64B-ours>libzmq rd_thr tcp 64 4000000  libzmq  ours    draft"
  "udp-radio-dish-thr-64B     rd_thr     udp       64    1000000  ours    ours    draft"
)
# In cross names "x>y" reads "x's remote side talks to y's local side" (remote_thr sends).

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NATIVE_SRC=$ROOT/benchmarks/native
NATIVE_BIN=$NATIVE_SRC/build
# The tools linked against the draft-enabled libzmq (rows with lib "draft").
DRAFT_BIN=$NATIVE_BIN/draft
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
      inproc_thr inproc_lat handshake pub_fanout sub_fanout router_fanin dealer_fanin; do
    gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/$tool" "$NATIVE_SRC/$tool.c" -lzmq \
      || die "gcc failed for $tool.c"
  done
  # The raw floor (no libzmq) and the CPU/context-switch meter cpu.sh wraps processes in.
  for tool in raw_local_thr raw_remote_thr raw_local_lat raw_remote_lat; do
    gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/$tool" "$NATIVE_SRC/raw/$tool.c" \
      || die "gcc failed for raw/$tool.c"
  done
  gcc -O2 -Wall -Wextra -Werror -o "$NATIVE_BIN/rusage_run" "$NATIVE_SRC/rusage_run.c" \
    || die "gcc failed for rusage_run.c"
  build_native_draft
}

draft_prefix() { # -> the draft libzmq's install prefix, or nothing
  if [[ -n ${DRAFT_LIBZMQ:-} ]]; then
    echo "$DRAFT_LIBZMQ"
  elif [[ -n ${MANAGED_ZMQ_DRAFT_LIBZMQ:-} ]]; then
    dirname "$(dirname "$MANAGED_ZMQ_DRAFT_LIBZMQ")"
  else
    local newest
    newest=$(find /var/cache/managed-zmq/libzmq-draft -mindepth 1 -maxdepth 1 -type d 2>/dev/null | sort -V | tail -1)
    [[ -n $newest ]] && echo "$newest"
  fi
  return 0
}

# The draft tools: the classic thr/lat ones (for ws and the tcp rows read against it), the
# routed pairs and the group pairs (RADIO/DISH and XPUB/SUB), rebuilt against the draft library with an rpath to it, so they never load
# Debian's libzmq5 of the same SONAME. HAVE_DRAFT=1 when they were built.
HAVE_DRAFT=0
build_native_draft() {
  local prefix tool
  prefix=$(draft_prefix)
  if [[ -z $prefix || ! -f $prefix/lib/libzmq.so.5 || ! -f $prefix/include/zmq.h ]]; then
    say "no draft-enabled libzmq (DRAFT_LIBZMQ=${prefix:-unset}): draft rows will be skipped; build one with interop-tests/native/build-draft-libzmq.sh"
    return 0
  fi
  mkdir -p "$DRAFT_BIN"
  local draft_flags=(-O2 -Wall -Wextra -Werror -DZMQ_BUILD_DRAFT_API -I "$prefix/include")
  local draft_libs=(-L "$prefix/lib" "-Wl,-rpath,$prefix/lib" -lzmq)
  for tool in local_thr remote_thr local_lat remote_lat; do
    gcc "${draft_flags[@]}" -o "$DRAFT_BIN/$tool" "$NATIVE_SRC/$tool.c" "${draft_libs[@]}" \
      || die "gcc failed for $tool.c (draft)"
  done
  for tool in local_routed_thr remote_routed_thr local_routed_lat remote_routed_lat; do
    local side=${tool%%_*} kind=${tool##*_}
    gcc "${draft_flags[@]}" -o "$DRAFT_BIN/${side}_dr_$kind" "$NATIVE_SRC/$tool.c" "${draft_libs[@]}" \
      || die "gcc failed for $tool.c (DEALER/ROUTER)"
    gcc "${draft_flags[@]}" -DROUTED_SERVER_CLIENT=1 -o "$DRAFT_BIN/${side}_cs_$kind" "$NATIVE_SRC/$tool.c" "${draft_libs[@]}" \
      || die "gcc failed for $tool.c (SERVER/CLIENT)"
  done
  for tool in local_radio_thr remote_radio_thr; do
    local side=${tool%%_*}
    gcc "${draft_flags[@]}" -o "$DRAFT_BIN/${side}_rd_thr" "$NATIVE_SRC/$tool.c" "${draft_libs[@]}" \
      || die "gcc failed for $tool.c (RADIO/DISH)"
    gcc "${draft_flags[@]}" -DRADIO_PUB_SUB=1 -o "$DRAFT_BIN/${side}_ps_thr" "$NATIVE_SRC/$tool.c" "${draft_libs[@]}" \
      || die "gcc failed for $tool.c (XPUB/SUB)"
  done
  HAVE_DRAFT=1
  say "draft tools built against $prefix"
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
    tcp|ws)
      local port tries=0
      while :; do
        # Below the Linux ephemeral range (32768+) so outgoing connects cannot take it.
        port=$(shuf -i 20000-32000 -n 1)
        [[ -z $(ss -Htan "( sport = :$port or dport = :$port )") ]] && break
        ((++tries < 100)) || die "no free tcp port found"
      done
      echo "$port" ;;
    udp)
      local port tries=0
      while :; do
        port=$(shuf -i 20000-32000 -n 1)
        [[ -z $(ss -Huan "( sport = :$port or dport = :$port )") ]] && break
        ((++tries < 100)) || die "no free udp port found"
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
    ws) echo "ws://127.0.0.1:$2" ;;
    udp) echo "udp://127.0.0.1:$2" ;;
    ipc) echo "ipc://$2" ;;
    *) die "unknown transport $1" ;;
  esac
}

is_ready() { # transport address -> success when the local side is listening
  case $1 in
    tcp|ws) [[ -n $(ss -Hltn "sport = :$2") ]] ;;
    udp) [[ -n $(ss -Hlun "sport = :$2") ]] ;;
    ipc) [[ -S $2 ]] ;;
    *) die "unknown transport $1" ;;
  esac
}

# --------------------------------------------------------------------------------------
# One run

command_for() { # impl mode -> command words
  case $1 in
    libzmq) echo "$NATIVE_BIN/$2" ;;
    libzmq-draft) echo "$DRAFT_BIN/$2" ;;
    raw) echo "$NATIVE_BIN/raw_$2" ;;
    ours) echo "dotnet $PERF_DLL $2" ;;
    ours-defaults) echo "env ${RUNTIME_DEFAULTS_ENV[*]} dotnet $PERF_DLL $2" ;;
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
  local curve warmup
  curve=$(curve_env "$transport")
  warmup=$(warmup_env "$kind")
  transport=${transport%+curve}
  local address ep local_cmd remote_cmd local_pid
  address=$(fresh_address "$transport")
  ep=$(endpoint "$transport" "$address")
  local_cmd=$(command_for "$local_impl" "local_$kind")
  remote_cmd=$(command_for "$remote_impl" "remote_$kind")
  local local_out=$LOG_DIR/$tag.local remote_out=$LOG_DIR/$tag.remote
  # MEASURE_RUSAGE=1 (set by cpu.sh): each process runs under rusage_run, which leaves
  # "user_us sys_us voluntary involuntary" of the whole process in $tag.{local,remote}.rusage.
  local meter_local=() meter_remote=()
  if [[ ${MEASURE_RUSAGE:-0} == 1 ]]; then
    meter_local=("$NATIVE_BIN/rusage_run" "$local_out.rusage")
    meter_remote=("$NATIVE_BIN/rusage_run" "$remote_out.rusage")
  fi

  # shellcheck disable=SC2086 # command words are split on purpose
  "${meter_local[@]}" timeout -k 5 "$TIMEOUT" env "$curve" "$warmup" $local_cmd "$ep" "$size" "$count" >"$local_out" 2>&1 &
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
  "${meter_remote[@]}" timeout -k 5 "$TIMEOUT" env "$curve" "$warmup" $remote_cmd "$ep" "$size" "$count" >"$remote_out" 2>&1 || remote_rc=$?
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
    *lat) figure=$(sed -n 's/^average latency: \([0-9.]*\) \[us\]$/\1/p' "$remote_out") ;;
  esac
  [[ -n $figure ]] || { say "  no result line; see $LOG_DIR/$tag.*"; return 1; }
  echo "$figure"
}

curve_env() { # transport -> the PERF_CURVE=... assignment both processes get
  [[ $1 == *+curve ]] && echo "PERF_CURVE=1" || echo "PERF_CURVE=0"
}

warmup_env() { # kind -> the PERF_WARMUP=... assignment both processes get
  [[ $1 == *lat ]] && echo "PERF_WARMUP=$LAT_WARMUP" || echo "PERF_WARMUP=0"
}

# run_inproc: same contract as run_once, one process (inproc_thr or inproc_lat of local-impl,
# or handshake for kind hs).
run_inproc() {
  local kind=$1 transport=$2 size=$3 count=$4 impl=$5 tag=$7
  local cmd out=$LOG_DIR/$tag.inproc rc=0 mode=inproc_$kind curve warmup
  [[ $kind == hs ]] && mode=handshake
  curve=$(curve_env "$transport")
  warmup=$(warmup_env "$kind")
  cmd=$(command_for "$impl" "$mode")
  # shellcheck disable=SC2086
  timeout -k 5 "$TIMEOUT" env "$curve" "$warmup" $cmd "$size" "$count" >"$out" 2>&1 || rc=$?
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
    *lat|hs) printf '%.3f' "$2" ;;
  esac
}

# --------------------------------------------------------------------------------------

# floor_of kind transport -> "kind transport" of the raw floor run, or nothing when the
# scenario has none (inproc and handshakes). A ROUTER stream's floor is the plain stream;
# CURVE's floor is the unencrypted socket (the floor has no security mechanism); ws's is
# the plain tcp stream under it; the routed and group pairs' floors are the plain thr and lat
# ones. udp has none (the floor is a stream).
floor_of() {
  local transport=${2%+curve}
  [[ $transport == ws ]] && transport=tcp
  case $1:$2 in
    *:inproc|*:udp|hs:*) ;;
    *lat:*) echo "lat $transport" ;;
    *thr:*) echo "thr $transport" ;;
  esac
}

# loss_of name side -> the median loss in % of the count over the runs of that side (A or B)
# of a group-pair row (the receivers' "message loss" lines), or "-".
loss_of() {
  local file value values=()
  for file in "$LOG_DIR/$1".*."$2".local; do
    [[ -f $file ]] || continue
    value=$(sed -n 's/^message loss: [0-9]* of [0-9]* (\([0-9.]*\) %)$/\1/p' "$file")
    [[ -n $value ]] && values+=("$value")
  done
  local med
  read -r _ med _ <<<"$(stats "${values[@]}")"
  [[ $med =~ ^[0-9.]+$ ]] && printf '%.3f' "$med" || echo -
}

ratio() { # numerator denominator -> "x.xx" or "-"
  if [[ $1 =~ ^[0-9.]+$ && $2 =~ ^[0-9.]+$ ]] && awk -v d="$2" 'BEGIN { exit !(d > 0) }'; then
    awk -v n="$1" -v d="$2" 'BEGIN { printf "%.2f", n / d }'
  else
    echo -
  fi
}

main() {
  check_tools
  build_native
  [[ $SIDES == both ]] && build_ours

  say "logs: $LOG_DIR"
  say "runs per side: $RUNS; machine: $(nproc) CPUs, $(lscpu | sed -n 's/^Model name: *//p' | head -1)"

  local defaults=0
  [[ $OURS_DEFAULTS == 1 && $SIDES == both ]] && defaults=1

  local rows=() failed=0 line
  for line in "${SCENARIOS[@]}"; do
    local name kind transport size count b_local b_remote lib a_impl=libzmq
    read -r name kind transport size count b_local b_remote lib <<<"$line"
    [[ -z $ONLY || $name =~ $ONLY ]] || continue
    if [[ $lib == draft ]]; then
      if ((!HAVE_DRAFT)); then
        say "$name: skipped, no draft-enabled libzmq"
        rows+=("| $name (skipped: no draft-enabled libzmq) | $size | $count | | | | | | | | |")
        continue
      fi
      a_impl=libzmq-draft
      b_local=${b_local/#libzmq/libzmq-draft} b_remote=${b_remote/#libzmq/libzmq-draft}
    fi
    count=$(awk -v c="$count" -v s="$SCALE" 'BEGIN { n = int(c * s); print (n < 1 ? 1 : n) }')
    local floor_kind="" floor_transport=""
    [[ $FLOOR == 1 ]] && read -r floor_kind floor_transport <<<"$(floor_of "$kind" "$transport")"
    # Column D: the B ends, with ours run under the runtime's defaults (only where ours takes part).
    local d_local=${b_local/#ours/ours-defaults} d_remote=${b_remote/#ours/ours-defaults}
    local d_count=""
    if ((defaults)) && [[ $b_local == ours || $b_remote == ours ]]; then
      d_count=$(awk -v c="$count" -v s="$DEFAULTS_SCALE" 'BEGIN { n = int(c * s); print (n < 1 ? 1 : n) }')
    fi

    say "$name ($kind, $size B x $count)"
    local a_vals=() b_vals=() f_vals=() d_vals=() a_fail=0 b_fail=0 f_fail=0 d_fail=0 i v
    for ((i = 1; i <= RUNS; i++)); do
      if v=$(run_once "$kind" "$transport" "$size" "$count" "$a_impl" "$a_impl" "$name.$i.A"); then
        a_vals+=("$v"); say "  run $i A $a_impl: $v"
      else
        ((++a_fail))
      fi
      if [[ $SIDES == both ]]; then
        if v=$(run_once "$kind" "$transport" "$size" "$count" "$b_local" "$b_remote" "$name.$i.B"); then
          b_vals+=("$v"); say "  run $i B ${b_remote/#-/(one process) }>$b_local: $v"
        else
          ((++b_fail))
        fi
      fi
      if [[ -n $floor_kind ]]; then
        if v=$(run_once "$floor_kind" "$floor_transport" "$size" "$count" raw raw "$name.$i.F"); then
          f_vals+=("$v"); say "  run $i F raw $floor_transport floor: $v"
        else
          ((++f_fail))
        fi
      fi
      if [[ -n $d_count ]]; then
        if v=$(run_once "$kind" "$transport" "$size" "$d_count" "$d_local" "$d_remote" "$name.$i.D"); then
          d_vals+=("$v"); say "  run $i D ${d_remote/#-/(one process) }>$d_local x $d_count: $v"
        else
          ((++d_fail))
        fi
      fi
    done
    failed=$((failed + a_fail + b_fail + f_fail + d_fail))

    local a_min a_med a_max b_min b_med b_max f_min f_med f_max d_min d_med d_max unit
    read -r a_min a_med a_max <<<"$(stats "${a_vals[@]}")"
    if [[ $SIDES == both ]]; then
      read -r b_min b_med b_max <<<"$(stats "${b_vals[@]}")"
    else
      b_min=pending b_med=pending b_max=pending
    fi
    read -r f_min f_med f_max <<<"$(stats "${f_vals[@]}")"
    read -r d_min d_med d_max <<<"$(stats "${d_vals[@]}")"
    case $kind in
      *thr) unit="msg/s" ;;
      *lat) unit="us (1-way)" ;;
      hs) unit="ms (median connect→msg)" ;;
    esac
    local note=""
    ((a_fail + b_fail + f_fail + d_fail)) && note=" (failed runs: A $a_fail, B $b_fail, floor $f_fail, D $d_fail)"
    if [[ $kind == rd_thr || $kind == ps_thr ]]; then
      note+=" (loss A $(loss_of "$name" A) %, B $(loss_of "$name" B) %)"
    fi
    local row="| $name$note | $size | $count | $unit | $(fmt "$kind" "$a_min") | $(fmt "$kind" "$a_med") | $(fmt "$kind" "$a_max") | $(fmt "$kind" "$b_min") | $(fmt "$kind" "$b_med") | $(fmt "$kind" "$b_max") | $(ratio "$b_med" "$a_med") |"
    if [[ $FLOOR == 1 ]]; then
      row+=" $(fmt "$kind" "$f_med") | $(ratio "$a_med" "$f_med") | $(ratio "$b_med" "$f_med") |"
    fi
    if ((defaults)); then
      row+=" $(fmt "$kind" "$d_med") | $(ratio "$d_med" "$a_med") |"
    fi
    rows+=("$row")
  done

  local header="| scenario | size [B] | count | unit | A min | A median | A max | B min | B median | B max | ratio B/A |"
  local rule="|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|"
  if [[ $FLOOR == 1 ]]; then
    header+=" floor median | A/floor | B/floor |"
    rule+="---:|---:|---:|"
  fi
  if ((defaults)); then
    header+=" D median | ratio D/A |"
    rule+="---:|---:|"
  fi

  echo
  echo "RUNS=$RUNS per side; A = libzmq 4.3 both ends (rows of lib draft: the draft-enabled build, $(draft_prefix)); B = the ends named in the scenario (ours = Managed.Zmq); PERF_BUFFER=$PERF_BUFFER."
  echo "Ratio = median B / median A (throughput: higher is better; latency and handshake: lower is better)."
  echo "Latency rows time count round trips after LAT_WARMUP=$LAT_WARMUP untimed ones, in every implementation (0: libzmq's perf tools' figure, from right after connect)."
  if [[ $FLOOR == 1 ]]; then
    echo "Floor = raw blocking sockets (benchmarks/native/raw), same transport without CURVE, 8-byte length prefix; A/floor and B/floor = median / floor median (throughput: the share of the floor reached; latency: times the floor)."
  fi
  if ((defaults)); then
    echo "D = the B ends with ours under the .NET runtime's defaults (${RUNTIME_DEFAULTS_ENV[*]}), count x $DEFAULTS_SCALE; ratio D/A = median D / median A."
  fi
  echo
  echo "$header"
  echo "$rule"
  printf '%s\n' "${rows[@]}"

  if ((failed)); then
    say "$failed run(s) failed; logs kept in $LOG_DIR"
    exit 1
  fi
  rm -rf "$LOG_DIR"
}

# Sourced (by cpu.sh): define the functions and settings only.
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
  main "$@"
fi
