#!/usr/bin/env bash
# Records the core's current public API in src/Managed.Zmq/PublicAPI.*.txt, the baseline that
# Microsoft.CodeAnalysis.PublicApiAnalyzers checks on every build (RS0016: a public symbol missing
# from the baseline; RS0017: a baseline entry with no symbol). Run it after an INTENDED public API
# change, review the diff, and commit it with the change.
#
#   scripts/update-public-api.sh          new symbols go to PublicAPI.Unshipped.txt, removed shipped
#                                         ones are marked *REMOVED* there (the next release's changes)
#   scripts/update-public-api.sh --ship   everything current becomes PublicAPI.Shipped.txt and
#                                         Unshipped is emptied (at a release)
set -euo pipefail
cd "$(dirname "$0")/.."

dir=src/Managed.Zmq
shipped=$dir/PublicAPI.Shipped.txt
unshipped=$dir/PublicAPI.Unshipped.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

{ grep -v '^#nullable' "$shipped" || true; } | sed '/^$/d' | LC_ALL=C sort -u > "$work/shipped.old"

# Start from empty files, let the analyzer's own code fix (through dotnet format) write every
# public symbol, in its own notation, into Unshipped: that is the current API.
printf '#nullable enable\n' > "$shipped"
printf '#nullable enable\n' > "$unshipped"
dotnet format analyzers "$dir/Managed.Zmq.csproj" --diagnostics RS0016 RS0037 --severity warn >/dev/null
{ grep -v '^#nullable' "$unshipped" || true; } | sed '/^$/d' | LC_ALL=C sort -u > "$work/current"

if [ "${1:-}" = "--ship" ]; then
  { printf '#nullable enable\n'; cat "$work/current"; } > "$shipped"
  printf '#nullable enable\n' > "$unshipped"
else
  { printf '#nullable enable\n'; cat "$work/shipped.old"; } > "$shipped"
  {
    printf '#nullable enable\n'
    LC_ALL=C comm -13 "$work/shipped.old" "$work/current"
    LC_ALL=C comm -23 "$work/shipped.old" "$work/current" | sed 's/^/*REMOVED*/'
  } > "$unshipped"
fi

echo "Public API baseline updated:"
git --no-pager diff --stat -- "$shipped" "$unshipped" || true
