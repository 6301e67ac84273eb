#!/usr/bin/env bash
# Builds and runs the scale tool (benchmarks/Managed.Zmq.Scale) from the repository root, with
# the shell's soft fd limit raised to its hard limit first (the driver also raises its own; the
# servers it starts inherit it). Arguments go to the tool: run.sh --quick, run.sh --only churn ...
set -euo pipefail
cd "$(dirname "$0")/../.."
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
dotnet build benchmarks/Managed.Zmq.Scale -c Release -nologo -v q >&2
exec benchmarks/Managed.Zmq.Scale/bin/Release/net10.0/Managed.Zmq.Scale "$@"
