#!/usr/bin/env bash
# Builds Debian's libzmq (source package zeromq3) with the draft API (ENABLE_DRAFTS: ws:// and the
# draft socket types) and GnuTLS (wss://) into a cache folder outside the repository, for the
# interop tests that need a draft-enabled reference peer. Debian's binary libzmq5 is built without
# drafts. A no-op when the cached build for the current source version exists.
#
# Prints the install prefix on its last line. The tests find the library through
# MANAGED_ZMQ_DRAFT_LIBZMQ (the .so path) or, when unset, the newest build under the cache root.
#
# Usage: build-draft-libzmq.sh [cache-root]   (default /var/cache/managed-zmq/libzmq-draft,
#        or $MANAGED_ZMQ_DRAFT_CACHE)
set -euo pipefail

cache_root=${1:-${MANAGED_ZMQ_DRAFT_CACHE:-/var/cache/managed-zmq/libzmq-draft}}

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

# The version Debian would build: the candidate of the binary package, known without deb-src.
version=$(apt-cache policy libzmq5 2>/dev/null | sed -n 's/^ *Candidate: *//p')
if [ -z "$version" ] || [ "$version" = "(none)" ]; then
  echo "build-draft-libzmq: no libzmq5 candidate in apt's lists (run apt-get update)" >&2
  exit 1
fi
prefix="$cache_root/$version"
stamp="$prefix/.built"
if [ -f "$stamp" ] && [ -f "$prefix/lib/libzmq.so.5" ]; then
  echo "build-draft-libzmq: cached build for $version" >&2
  echo "$prefix"
  exit 0
fi

# A deb-src entry mirroring each deb source, unless one exists.
if ! grep -rqsE '^(Types:.*deb-src|deb-src )' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    grep -qE '^Types:.*\bdeb\b' "$f" || continue
    sed -E 's/^Types:.*$/Types: deb-src/' "$f" |
      as_root tee "/etc/apt/sources.list.d/managed-zmq-src-$(basename "$f")" >/dev/null
  done
  if [ -f /etc/apt/sources.list ] && grep -qE '^deb ' /etc/apt/sources.list; then
    sed -nE 's/^deb /deb-src /p' /etc/apt/sources.list |
      as_root tee /etc/apt/sources.list.d/managed-zmq-src.list >/dev/null
  fi
fi

as_root apt-get update
# dpkg-dev unpacks the source; cmake and g++ build it; libgnutls28-dev gives wss:// (and its
# SHA-1 for the ws handshake); libsodium-dev gives CURVE as Debian's libzmq5 has it.
as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
  dpkg-dev cmake g++ make pkg-config libgnutls28-dev libsodium-dev

work="$cache_root/src-$version"
rm -rf "$work"
mkdir -p "$work"
# apt-get source unpacks with dpkg-source, which applies Debian's patches.
(cd "$work" && apt-get source zeromq3 >/dev/null)
src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'zeromq3-*' | head -n 1)
[ -n "$src" ] || { echo "build-draft-libzmq: apt-get source zeromq3 gave no source tree" >&2; exit 1; }

build="$work/build"
cmake -S "$src" -B "$build" \
  -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DCMAKE_INSTALL_LIBDIR=lib \
  -DENABLE_DRAFTS=ON \
  -DENABLE_WS=ON \
  -DWITH_TLS=ON \
  -DWITH_LIBSODIUM=ON \
  -DENABLE_CURVE=ON \
  -DWITH_DOCS=OFF \
  -DBUILD_TESTS=OFF \
  -DBUILD_STATIC=OFF \
  -DWITH_PERF_TOOL=OFF >/dev/null
cmake --build "$build" -j "$(nproc)" >/dev/null
cmake --install "$build" >/dev/null
rm -rf "$work"
touch "$stamp"
echo "build-draft-libzmq: built $version with drafts into $prefix" >&2
echo "$prefix"
