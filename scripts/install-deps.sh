#!/bin/sh
# Installs the Debian packages socmon builds and tests with. Idempotent: packages
# already present are skipped, so a second run costs one dpkg query.
set -eu

PKGS="build-essential cmake pkg-config libcmocka-dev libjansson-dev zlib1g-dev libzstd-dev clang libclang-rt-14-dev python3"
# Ibex model (issue 10): libelf for ELF loading; the RISC-V cross compiler builds
# the RV32 test programs of tests/ibex/programs.
PKGS="$PKGS libelf-dev libdw-dev gcc-riscv64-unknown-elf binutils-riscv64-unknown-elf"
# Agent and live charts (issue 12): libmicrohttpd serves /metrics and the live page; the tests
# scrape the agent with Debian's prometheus (promtool checks /metrics) and load the pages in
# Debian's chromium. npm (below) brings uPlot, embedded at build time, and playwright-core.
PKGS="$PKGS libmicrohttpd-dev prometheus chromium"
# Tensix Python (issue 13): tt-llk's read_counters returns pandas DataFrames; socmon_tensix does
# too when pandas imports (Debian's python3-pandas, for /usr/bin/python3), plain lists otherwise.
PKGS="$PKGS python3-pandas"
# Sweeps and the socmon Python package (issue 26): GNU parallel runs shards in a test; python3-venv
# lets Debian's python3 make the venv that `pip install ./python` is tested in.
PKGS="$PKGS parallel python3-venv"
# The man page is linted (tests/abi/manpage.test.sh): mandoc -Tlint, and groff -ww (groff-base).
PKGS="$PKGS mandoc groff-base"
# Cross build for the Zynq's 32-bit Arm cores (issue 13, `make test-arm`): the cross compilers
# (g++ for the C++ compat tests) and qemu-arm to run the unit tests. The armhf libraries are not
# installed through multiarch but unpacked into a private sysroot (scripts/armhf-sysroot.sh says why).
PKGS="$PKGS gcc-arm-linux-gnueabihf g++-arm-linux-gnueabihf qemu-user"
# The host CPU through perf_event (issue 14): libpfm4 names every event the CPU's tables know;
# PAPI and perf are the peers bench/ measures socmon against (never linked into the library).
PKGS="$PKGS libpfm4-dev libpapi-dev linux-perf"
# Prometheus Remote-Write (issue 41): libprotobuf-c encodes the WriteRequest (protoc-c compiles
# src/serve/remote_write.proto at build time), libsnappy compresses it, libcurl posts it over HTTP
# and TLS; the tests push into Debian's prometheus (above) started as a remote-write receiver.
PKGS="$PKGS libprotobuf-c-dev protobuf-c-compiler libsnappy-dev libcurl4-openssl-dev"

missing=""
for p in $PKGS; do
    if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
        missing="$missing $p"
    fi
done

if [ -z "$missing" ]; then
    echo "install-deps: all packages present"
else
    SUDO=""
    if [ "$(id -u)" != 0 ]; then
        SUDO="sudo"
    fi
    echo "install-deps: installing$missing"
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -qq
    # shellcheck disable=SC2086
    $SUDO apt-get install -y -qq --no-install-recommends $missing
fi

# Browser-side packages from the npm registry, pinned by web/package-lock.json: uPlot (the
# build embeds it into the library; it is never committed), playwright-core (the page tests
# drive Debian's chromium with it), and the two Parquet readers the Parquet tests check socmon's
# files with: DuckDB (@duckdb/node-api, its engine a binary inside the registry's package) and
# hyparquet (pure JavaScript; hyparquet-compressors brings its zstd). The machine's own node/npm is used: Debian's nodejs package
# is older and would replace it. Reinstalled only when the lock file changed.
web="$(dirname "$0")/../web"
if ! command -v npm >/dev/null 2>&1; then
    echo "install-deps: npm not found: install Node.js (with npm) to fetch uPlot for the charts" >&2
    exit 1
fi
if [ ! -f "$web/node_modules/.package-lock.json" ] || [ "$web/package-lock.json" -nt "$web/node_modules/.package-lock.json" ]; then
    echo "install-deps: npm ci in web/ (uplot, playwright-core, @duckdb/node-api, hyparquet)"
    (cd "$web" && npm ci --no-audit --no-fund --loglevel=error)
else
    echo "install-deps: web/node_modules up to date"
fi
