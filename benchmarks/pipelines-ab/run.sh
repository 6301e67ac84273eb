#!/usr/bin/env bash
# A/B of the engine's read and write loops: A = ours as committed (the reactor transport, frames
# received into and sent from the frame queues), B = the same commit with pipelines.patch applied
# (the loops over System.IO.Pipelines: a Pipe each way between the OS socket and the engine,
# Kestrel-shaped; see the patch's PipelinesTransport.cs). The experiment stays out of src/: both
# sides are built from temporary git worktrees at HEAD, the patch applied to B's only.
#
#   bash benchmarks/pipelines-ab/run.sh
#
# Every run is a pair, COUNT and COUNT x SHORT_FRACTION messages, each process under
# benchmarks/native/rusage_run: the long run gives the figure (compare.sh's), the pair the CPU time
# per message or round trip in steady state (cpu.sh's method: start-up, JIT and teardown cancel).
# A and B alternate, A first on odd runs and B first on even ones.
#
# Environment:
#   RUNS=5            pairs per side and scenario; medians with min and max
#   ONLY=regex        run only the scenarios whose name matches (grep -E)
#   SCALE=1           multiply every count (0.05 for a smoke run)
#   SHORT_FRACTION=0.1, TIMEOUT=120, PERF_BUFFER=message   as in cpu.sh and compare.sh
#
# Needs what compare.sh needs. Prints a Markdown table on stdout; per-run figures on stderr.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
RUNS=${RUNS:-5}
SHORT_FRACTION=${SHORT_FRACTION:-0.1}

#   name          kind transport size  count
AB_SCENARIOS=(
  "tcp-thr-64B    thr  tcp       64    4000000"
  "tcp-thr-1KiB   thr  tcp       1024  1000000"
  "tcp-thr-64KiB  thr  tcp       65536 40000"
  "tcp-lat-64B    lat  tcp       64    20000"
  "ipc-thr-64B    thr  ipc       64    4000000"
  "ipc-thr-1KiB   thr  ipc       1024  1000000"
  "ipc-thr-64KiB  thr  ipc       65536 40000"
  "ipc-lat-64B    lat  ipc       64    20000"
)

# compare.sh's transports, native builds, run_once and statistics (sourcing it runs nothing).
# shellcheck source=../compare.sh
source "$REPO/benchmarks/compare.sh"
export MEASURE_RUSAGE=1

WORK=$(mktemp -d "${TMPDIR:-/tmp}/pipelines-ab.XXXXXX")
cleanup() {
  git -C "$REPO" worktree remove --force "$WORK/a" 2>/dev/null || true
  git -C "$REPO" worktree remove --force "$WORK/b" 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

DLL=bin/Release/net10.0/Managed.Zmq.Perf.dll
prepare() { # side -> a worktree at HEAD (B: with the patch) and its perf CLI built
  local dir=$WORK/$1
  git -C "$REPO" worktree add --detach --quiet "$dir" HEAD
  if [[ $1 == b ]]; then
    git -C "$dir" apply "$HERE/pipelines.patch" || die "pipelines.patch does not apply at HEAD"
  fi
  say "building side $1 ($dir) ..."
  dotnet build "$dir/benchmarks/Managed.Zmq.Perf/Managed.Zmq.Perf.csproj" -c Release -nologo -v quiet \
    >"$LOG_DIR/build-$1.log" 2>&1 || { cat "$LOG_DIR/build-$1.log" >&2; die "build of side $1 failed"; }
}

# compare.sh's command_for with the two sides of this A/B as implementations.
command_for() { # impl mode -> command words
  case $1 in
    ours) echo "dotnet $WORK/a/benchmarks/Managed.Zmq.Perf/$DLL $2" ;;
    pipelines) echo "dotnet $WORK/b/benchmarks/Managed.Zmq.Perf/$DLL $2" ;;
    *) die "unknown implementation $1" ;;
  esac
}

cpu_ns() { # long-rusage short-rusage messages -> user + system CPU ns per message
  awk -v n="$3" 'NR == FNR { l = $1 + $2; next } { s = $1 + $2 } END { printf "%.1f\n", (l - s) * 1000 / n }' "$1" "$2"
}

whole() { [[ $1 =~ ^[0-9.]+$ ]] && printf '%.0f' "$1" || echo -; }
median_of() { read -r _ m _ <<<"$(stats "$@")"; echo "$m"; }
spread_of() { # values... -> "min-max" formatted by fmt's kind in $KIND
  local lo hi; read -r lo _ hi <<<"$(stats "$@")"; echo "$(fmt "$KIND" "$lo")–$(fmt "$KIND" "$hi")"
}

ab_main() {
  check_tools
  build_native
  prepare a
  prepare b
  say "logs: $LOG_DIR; runs: $RUNS; machine: $(nproc) CPUs; load: $(cut -d' ' -f1-3 /proc/loadavg)"

  local rows=() failed=0 line
  for line in "${AB_SCENARIOS[@]}"; do
    local name kind transport size count short
    read -r name kind transport size count <<<"$line"
    [[ -z $ONLY || $name =~ $ONLY ]] || continue
    count=$(awk -v c="$count" -v s="$SCALE" 'BEGIN { n = int(c * s); print (n < 2 ? 2 : n) }')
    short=$(awk -v c="$count" -v f="$SHORT_FRACTION" 'BEGIN { n = int(c * f); print (n < 1 ? 1 : n) }')
    local diff=$((count - short))
    say "$name ($kind, $size B x $count; short $short)"
    declare -A fig=()
    local i impl order
    for ((i = 1; i <= RUNS; i++)); do
      order="ours pipelines"
      ((i % 2 == 0)) && order="pipelines ours"
      for impl in $order; do
        local tag=$name.$i.$impl v
        if ! v=$(run_once "$kind" "$transport" "$size" "$count" "$impl" "$impl" "$tag.long") \
          || ! run_once "$kind" "$transport" "$size" "$short" "$impl" "$impl" "$tag.short" >/dev/null; then
          ((++failed)); continue
        fi
        local r l
        r=$(cpu_ns "$LOG_DIR/$tag.long.remote.rusage" "$LOG_DIR/$tag.short.remote.rusage" "$diff")
        l=$(cpu_ns "$LOG_DIR/$tag.long.local.rusage" "$LOG_DIR/$tag.short.local.rusage" "$diff")
        say "  run $i $impl: $v; cpu ns remote $r local $l"
        fig[$impl.v]+=" $v"; fig[$impl.r]+=" $r"; fig[$impl.l]+=" $l"
      done
    done

    local unit
    if [[ $kind == thr ]]; then unit="msg/s"; else unit="us (1-way)"; fi
    KIND=$kind
    # shellcheck disable=SC2086 # the figures are space-separated on purpose
    local av bv ar br al bl
    av=$(median_of ${fig[ours.v]:-}); bv=$(median_of ${fig[pipelines.v]:-})
    ar=$(median_of ${fig[ours.r]:-}); br=$(median_of ${fig[pipelines.r]:-})
    al=$(median_of ${fig[ours.l]:-}); bl=$(median_of ${fig[pipelines.l]:-})
    # shellcheck disable=SC2086
    rows+=("| $name | $unit | $(fmt "$kind" "$av") ($(spread_of ${fig[ours.v]:-})) | $(fmt "$kind" "$bv") ($(spread_of ${fig[pipelines.v]:-})) | $(ratio "$bv" "$av") | $(whole "$ar") / $(whole "$al") | $(whole "$br") / $(whole "$bl") | $(ratio "$br" "$ar") / $(ratio "$bl" "$al") |")
    unset fig
  done

  echo
  echo "RUNS=$RUNS pairs per side (medians, min–max in brackets), interleaved; SCALE=$SCALE; PERF_BUFFER=$PERF_BUFFER; commit $(git -C "$REPO" rev-parse --short HEAD)."
  echo "A = ours (frame queues, reactor transport); B = pipelines.patch (System.IO.Pipelines loops). B/A: throughput higher is better, latency and CPU lower is better."
  echo "CPU = user + system of the whole process per message (thr) or round trip (lat), steady state (long run - short run), sender/REQ first, receiver/REP second."
  echo
  echo "| scenario | unit | A median | B median | B/A | A CPU ns snd / rcv | B CPU ns snd / rcv | B/A CPU snd / rcv |"
  echo "|---|---|---:|---:|---:|---:|---:|---:|"
  printf '%s\n' "${rows[@]}"
  if ((failed)); then
    say "$failed run(s) failed; logs kept in $LOG_DIR"
    exit 1
  fi
  rm -rf "$LOG_DIR"
}

ab_main "$@"
