#!/bin/sh
# Fetches the 32-bit Arm (armhf) libraries socmon links against into a private sysroot,
# for the cross build (cmake/toolchain-arm-linux-gnueabihf.cmake, `make test-arm`).
#
# Why not Debian multiarch (dpkg --add-architecture armhf + libjansson-dev:armhf ...): the
# armhf -dev packages pull libc6-dev:armhf, and every Multi-Arch: same package must then have
# exactly the version of its installed amd64 twin (linux-libc-dev, libssl3, libgnutls30 ...).
# Whenever the amd64 side carries a security update the armhf index lacks (or a mirror is
# mid-sync) the install fails or upgrades the host's own libraries, and a foreign architecture
# whose index cannot be fetched makes every later `apt-get update` on the machine fail. Here apt
# runs with its own state under DIR (the machine's sources, armhf only), `apt-get download`
# fetches the packages listed below and `dpkg -x` unpacks them: nothing is installed, the host's
# packages are never touched. libc and libgcc come from gcc-arm-linux-gnueabihf's own
# /usr/arm-linux-gnueabihf. Idempotent: a second run with the same list costs nothing.
#
# usage: sh scripts/armhf-sysroot.sh [DIR]   (default: .deps/armhf-sysroot in the source tree)
set -eu

root="$(cd "$(dirname "$0")/.." && pwd)"
dir="${1:-$root/.deps/armhf-sysroot}"
state="$dir.apt"

# The -dev packages (headers, .so links, .pc files) and the shared libraries the tests load
# under qemu-arm (libmicrohttpd's TLS stack included: the agent links it). The gnutls, nettle,
# tasn1, idn2 and p11-kit -dev packages are there for their .pc files only: pkg-config checks
# libmicrohttpd.pc's Requires.private even for a shared link.
PKGS="libjansson4 libjansson-dev libzstd1 libzstd-dev zlib1g zlib1g-dev libelf1 libelf-dev
libdw1 libdw-dev libbz2-1.0 liblzma5 liblzma-dev
libcmocka0 libcmocka-dev libmicrohttpd12 libmicrohttpd-dev
libgnutls30 libgmp10 libhogweed6 libnettle8 libidn2-0 libunistring2 libp11-kit0 libtasn1-6 libffi8
libgnutls28-dev nettle-dev libtasn1-6-dev libidn2-dev libp11-kit-dev"
want="$(echo $PKGS)"

if [ -f "$dir/.socmon-packages" ] && [ "$(cat "$dir/.socmon-packages")" = "$want" ]; then
    echo "armhf-sysroot: $dir up to date"
    exit 0
fi

echo "armhf-sysroot: fetching armhf packages into $dir"
rm -rf "$dir" "$state"
mkdir -p "$state/lists/partial" "$state/cache/archives/partial" "$state/debs" "$dir"
: > "$state/status"
# an empty dpkg status (nothing is installed for armhf), lists and cache of our own, no lock on
# the machine's apt; APT::Sandbox::User=root since the state belongs to whoever runs this
set -- -o "Dir::State::Lists=$state/lists" -o "Dir::Cache=$state/cache" \
       -o "Dir::State::status=$state/status" -o APT::Architecture=armhf \
       -o APT::Architectures::=armhf -o Debug::NoLocking=1
if [ "$(id -u)" = 0 ]; then
    set -- "$@" -o APT::Sandbox::User=root
fi
# An index that fails to download (a mirror mid-sync) is not fatal as long as the packages
# below can still be found: apt-get download says which one cannot.
if ! apt-get "$@" -qq update; then
    echo "armhf-sysroot: some armhf package indexes failed to download (see above); continuing" >&2
fi
# shellcheck disable=SC2086
(cd "$state/debs" && apt-get "$@" -qq download $PKGS)
for deb in "$state/debs"/*.deb; do
    dpkg -x "$deb" "$dir"
done

# Merged /usr, as Debian 12 systems are: zlib1g unpacks into /lib, its -dev link points there.
if [ -d "$dir/lib" ] && [ ! -L "$dir/lib" ]; then
    mkdir -p "$dir/usr/lib"
    cp -a "$dir/lib/." "$dir/usr/lib/"
    rm -rf "$dir/lib"
    ln -s usr/lib "$dir/lib"
fi
# Absolute symlinks (libz.so -> /lib/...) would point into the host: make them relative.
find "$dir" -type l | while read -r link; do
    target="$(readlink "$link")"
    case "$target" in
        /*) ln -sfn "$(realpath -m --relative-to="$(dirname "$link")" "$dir$target")" "$link" ;;
    esac
done

rm -rf "$state"
echo "$want" > "$dir/.socmon-packages"
echo "armhf-sysroot: done ($(du -sh "$dir" | cut -f1))"
