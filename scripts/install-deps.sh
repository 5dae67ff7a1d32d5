#!/bin/sh
# Installs the Debian packages socmon builds and tests with. Idempotent: packages
# already present are skipped, so a second run costs one dpkg query.
set -eu

PKGS="build-essential cmake pkg-config libcmocka-dev libjansson-dev zlib1g-dev libzstd-dev clang libclang-rt-14-dev python3"
# Ibex model (issue 10): libelf for ELF loading; the RISC-V cross compiler builds
# the RV32 test programs of tests/ibex/programs.
PKGS="$PKGS libelf-dev gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
    exit 0
fi

SUDO=""
if [ "$(id -u)" != 0 ]; then
    SUDO="sudo"
fi
echo "install-deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# shellcheck disable=SC2086
$SUDO apt-get install -y -qq --no-install-recommends $missing
