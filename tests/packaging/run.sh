#!/usr/bin/env bash
# Packaging test: packs both packages into a temp folder feed, checks what the core
# package contains, then consumes it the way a user does (PackageReference from the feed, not a
# project reference) in a fresh console app: run, publish trimmed, publish NativeAOT, run each.
# Prints "PASS: <check>" / "FAIL: <check>" per check (.ci/run counts them) and exits non-zero if
# any check failed. Needs the .NET SDK, and clang + zlib1g-dev for NativeAOT (.ci/run installs them).
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
version=$(sed -nE 's:.*<Version>([^<]+)</Version>.*:\1:p' "$root/Directory.Build.props" | head -1)
work=$(mktemp -d "${TMPDIR:-/tmp}/managed-zmq-packaging.XXXXXX")
feed=$work/feed
app=$work/app
trap 'rm -rf "$work"' EXIT
case "$(uname -m)" in
  x86_64) rid=linux-x64 ;;
  aarch64 | arm64) rid=linux-arm64 ;;
  *) rid=linux-$(uname -m) ;;
esac

passed=0
failed=0
pass() { echo "PASS: $1"; passed=$((passed + 1)); }
fail() { echo "FAIL: $1" >&2; echo "FAIL: $1"; failed=$((failed + 1)); }
check() { # check NAME COMMAND...: PASS when the command succeeds
  local name=$1
  shift
  if "$@"; then pass "$name"; else fail "$name"; fi
}
finish() {
  echo "packaging: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit $?
}

echo "== packaging test: Managed.Zmq $version, $rid, in $work"

# ---- pack -------------------------------------------------------------------------------
for project in src/Managed.Zmq/Managed.Zmq.csproj src/Managed.Zmq.Sodium/Managed.Zmq.Sodium.csproj; do
  name=$(basename "$project" .csproj)
  if dotnet pack "$root/$project" -c Release -o "$feed" --nologo -v:q >"$work/pack-$name.log" 2>&1; then
    pass "pack $name"
  else
    cat "$work/pack-$name.log"
    fail "pack $name"
    finish
  fi
done
core=$feed/Managed.Zmq.$version.nupkg
sodium=$feed/Managed.Zmq.Sodium.$version.nupkg
check "symbols packages (.snupkg) for both" test -f "$feed/Managed.Zmq.$version.snupkg" -a -f "$feed/Managed.Zmq.Sodium.$version.snupkg"

# ---- what the core package contains ------------------------------------------------------
unzip -Z1 "$core" | sort > "$work/core.files"
echo "-- $(basename "$core") files:"
sed 's/^/   /' "$work/core.files"
# Only the assembly and its docs under lib/, plus the package's own metadata files.
unexpected=$(grep -vE '^(lib/net[0-9.]+/Managed\.Zmq\.(dll|xml)|Managed\.Zmq\.nuspec|README\.md|_rels/\.rels|\[Content_Types\]\.xml|package/services/metadata/core-properties/[^/]+\.psmdcp)$' "$work/core.files")
check "core has no file outside lib/ but its metadata${unexpected:+ (found: $unexpected)}" test -z "$unexpected"
check "core has no runtimes/ folder" bash -c "! grep -q '^runtimes/' '$work/core.files'"
check "core has no native file (.so/.dylib/.a/.exe)" bash -c "! grep -qE '\.(so|dylib|a|exe|lib)$' '$work/core.files'"
unzip -p "$core" Managed.Zmq.nuspec > "$work/core.nuspec"
echo "-- Managed.Zmq.nuspec:"
sed 's/^/   /' "$work/core.nuspec"
echo
check "core has no dependency" bash -c "! grep -q '<dependency ' '$work/core.nuspec'"
check "core licence is the MIT expression" grep -q '<license type="expression">MIT</license>' "$work/core.nuspec"
check "core packs its readme" grep -q '<readme>README.md</readme>' "$work/core.nuspec"
check "core version is $version" grep -q "<version>$version</version>" "$work/core.nuspec"
unzip -p "$sodium" Managed.Zmq.Sodium.nuspec > "$work/sodium.nuspec"
check "Sodium pins the core to exactly [$version]" grep -q "<dependency id=\"Managed.Zmq\" version=\"\[$version\]\"" "$work/sodium.nuspec"

# ---- a fresh consumer, by PackageReference from the folder feed --------------------------
mkdir -p "$app"
cp "$root/tests/packaging/consumer/Program.cs" "$root/tests/packaging/consumer/Consumer.csproj" "$app/"
# Stop MSBuild from importing anything above the temp folder.
echo '<Project />' > "$app/Directory.Build.props"
echo '<Project />' > "$app/Directory.Build.targets"
cp "$root/global.json" "$app/"
cat > "$app/NuGet.config" <<NUGET
<?xml version="1.0" encoding="utf-8"?>
<configuration>
  <packageSources>
    <clear />
    <add key="local" value="$feed" />
    <add key="nuget.org" value="https://api.nuget.org/v3/index.json" protocolVersion="3" />
  </packageSources>
  <packageSourceMapping>
    <packageSource key="local"><package pattern="Managed.Zmq" /><package pattern="Managed.Zmq.*" /></packageSource>
    <packageSource key="nuget.org"><package pattern="*" /></packageSource>
  </packageSourceMapping>
</configuration>
NUGET
# The global packages folder keeps the first Managed.Zmq $version it saw; drop it so this run
# restores the package just packed.
packages=$(dotnet nuget locals global-packages --list | sed -E 's/^global-packages: *//')
rm -rf "${packages%/}/managed.zmq/$version"

props=(-p:ManagedZmqVersion="$version" --nologo)
timeout_run() { timeout 60 "$@"; }

# Count the IL2xxx/IL3xxx (trim/AOT) warnings in a log; fail on any that names Managed.Zmq.
il_warnings() { grep -E 'warning IL[23][0-9]{3}' "$1" | sort -u; }

if dotnet build "$app/Consumer.csproj" -c Release "${props[@]}" >"$work/build.log" 2>&1; then
  pass "consumer restores Managed.Zmq $version from the feed and builds"
  check "consumer REQ/REP round trip (JIT)" timeout_run dotnet "$app/bin/Release/net10.0/Consumer.dll"
else
  cat "$work/build.log"
  fail "consumer restores Managed.Zmq $version from the feed and builds"
fi

for mode in trimmed aot; do
  case $mode in
    trimmed) extra=(-p:PublishTrimmed=true --self-contained) ;;
    aot) extra=(-p:PublishAot=true) ;;
  esac
  out=$work/publish-$mode
  log=$work/publish-$mode.log
  if dotnet publish "$app/Consumer.csproj" -c Release -r "$rid" -o "$out" "${props[@]}" "${extra[@]}" >"$log" 2>&1; then
    pass "consumer publishes $mode"
  else
    cat "$log"
    fail "consumer publishes $mode"
    continue
  fi
  warnings=$(il_warnings "$log")
  ours=$(printf '%s\n' "$warnings" | grep -c 'Managed\.Zmq' || true)
  total=$(printf '%s' "$warnings" | grep -c . || true)
  echo "-- $mode publish: $total IL2xxx/IL3xxx warnings, $ours from Managed.Zmq"
  [ -n "$warnings" ] && printf '%s\n' "$warnings" | sed 's/^/   /'
  check "no trim/AOT warning from Managed.Zmq ($mode)" test "$ours" -eq 0
  check "consumer REQ/REP round trip ($mode binary)" timeout_run "$out/Consumer"
  if [ "$mode" = aot ]; then
    size=$(stat -c %s "$out/Consumer")
    echo "-- NativeAOT binary: $size bytes ($((size / 1024)) KiB), $total IL warnings"
  fi
done

finish
