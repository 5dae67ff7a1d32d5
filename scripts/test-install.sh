#!/bin/sh
# The install test (issue 9's acceptance): socmon installed into a temporary
# prefix works with its source tree gone.
#
#   1. copy the source tree (the files git knows, committed or not) to a
#      temporary directory; configure, build and install from the copy into a
#      temporary prefix;
#   2. rename the copy away, so no path into it works any more;
#   3. copy examples/ elsewhere and build every example twice: with a plain cc
#      line from pkg-config (and once statically; firmware examples, those with
#      a link.ld, skip this), and with CMake's find_package(socmon) (ctest runs
#      them with their checks);
#   4. run the installed socmon from a directory outside any source tree:
#      --help, --version, list, stat on every target, stat -t esp:soc=esp_4x4;
#   5. the same with a copy installed with --prefix A and moved to B, while
#      the configured prefix is out of the way: its data is found in B;
#   6. the board/air-gapped build: the copy without web/node_modules, configured
#      with -DSOCMON_WEB=OFF, builds the CLI, which runs and refuses --html clearly.
# The install in 1 follows a build of just what `make run` builds (the CLI and
# the shared library): cmake --install must work after `make run`.
# Any failure stops it with a message. Usage: scripts/test-install.sh [SRC]
# (default: the tree this script is in). KEEP=1 keeps the temporary directory.
set -eu

SRC=$(cd "${1:-$(dirname "$0")/..}" && pwd)
JOBS=${JOBS:-$(nproc 2>/dev/null || echo 2)}
CC=${CC:-cc}
WORK=$(mktemp -d "${TMPDIR:-/tmp}/socmon-install.XXXXXX")
if [ "${KEEP:-0}" = 1 ]; then
    echo "test-install: keeping $WORK"
else
    trap 'rm -rf "$WORK"' EXIT
fi
P=$WORK/prefix
# A multiarch libdir, as GNUInstallDirs picks for PREFIX=/usr on Debian: the
# .pc file must find the prefix three levels up, not two.
MA=$("$CC" -print-multiarch 2>/dev/null || true)
LIB=lib/${MA:-x86_64-linux-gnu}
step() { echo "test-install: $*"; }
die() { echo "test-install: FAILED: $*" >&2; exit 1; }
run() {
    rc=0
    "$@" >"$WORK/last.log" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$WORK/last.log" >&2; die "$* (exit $rc)"; }
}

# ---- 1. copy, build and install ----
step "copying $SRC"
mkdir "$WORK/src"
if git -C "$SRC" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    (cd "$SRC" && git ls-files -z --cached --others --exclude-standard |
        xargs -0 sh -c 'for f; do [ -e "$f" ] && printf "%s\n" "$f"; done' sh) >"$WORK/files"
    (cd "$SRC" && tar -cf - -T "$WORK/files") | (cd "$WORK/src" && tar -xf -)
else
    (cd "$SRC" && tar -cf - --exclude='./build*' .) | (cd "$WORK/src" && tar -xf -)
fi
# uPlot is not in git (npm brings it: scripts/install-deps.sh); a clone that ran that step has it
if [ -d "$SRC/web/node_modules/uplot" ]; then
    mkdir -p "$WORK/src/web/node_modules" && cp -R "$SRC/web/node_modules/uplot" "$WORK/src/web/node_modules/"
fi
step "configuring and building (prefix $P)"
run cmake -S "$WORK/src" -B "$WORK/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSOCMON_TESTS=OFF \
    -DCMAKE_INSTALL_PREFIX="$P" -DCMAKE_INSTALL_LIBDIR="$LIB"
# Just what `make run` builds (Makefile, target cli): the CLI brings the static library and the
# SoC header generator (bin/socmon-esp-socdefs) with it, so the install finds all it installs.
run cmake --build "$WORK/build" -j "$JOBS" --target socmon_cli socmon_shared
run cmake --install "$WORK/build"
grep -q "warning" "$WORK/last.log" && { cat "$WORK/last.log"; die "cmake --install warned"; }
# A second copy installed elsewhere and then moved (step 5): it must find its
# data next to itself, not under the configured prefix.
run cmake --install "$WORK/build" --prefix "$WORK/relocA"
grep -q "warning" "$WORK/last.log" && { cat "$WORK/last.log"; die "cmake --install --prefix warned"; }
mv "$WORK/relocA" "$WORK/relocB"

# ---- 2. the source tree goes away ----
mv "$WORK/src" "$WORK/src.gone"
mv "$WORK/build" "$WORK/build.gone"
cp -R "$WORK/src.gone/examples" "$WORK/examples"

step "checking the installed files"
for f in bin/socmon bin/socmon-esp-socdefs $LIB/libsocmon.a $LIB/libsocmon.so $LIB/libsocmon.so.0 \
         include/socmon/socmon.h include/socmon/version.h include/socmon/compat/esp_monitors.h \
         share/socmon/socs/esp_4x4.soc share/socmon/metrics/esp.json share/man/man1/socmon.1 \
         $LIB/pkgconfig/socmon.pc $LIB/cmake/socmon/socmonConfig.cmake \
         $LIB/cmake/socmon/socmonConfigVersion.cmake; do
    [ -e "$P/$f" ] || die "$P/$f was not installed"
done
soname=$(objdump -p "$P/$LIB/libsocmon.so" | awk '$1 == "SONAME" { print $2 }')
[ "$soname" = libsocmon.so.0 ] || die "SONAME is '$soname', expected libsocmon.so.0"
# Every public header compiles on its own from the installed include path.
for h in "$P"/include/socmon/*.h; do
    printf '#include <socmon/%s>\nint main(void) { return 0; }\n' "$(basename "$h")" >"$WORK/h.c"
    run "$CC" -std=c11 -Wall -Werror -I"$P/include" -I"$P/include/socmon/compat" -c "$WORK/h.c" \
        -o "$WORK/h.o"
done
# tt-llk's C++ counters.h compiles from the installed compat directory, as a kernel includes it
# (docs/tensix.md, "C++ (counters.h)").
printf '#include "counters.h"\nint main() { llk_perf::ScopedPerfCounters s; (void)s; return 0; }\n' >"$WORK/k.cpp"
run "${CXX:-g++}" -std=c++17 -Wall -Wextra -Werror -DLLK_TRISC_PACK -I"$P/include" -I"$P/include/socmon/compat" \
    -c "$WORK/k.cpp" -o "$WORK/k.o"

# ---- 3. the examples, with pkg-config and with find_package ----
export PKG_CONFIG_PATH="$P/$LIB/pkgconfig"
pcdir() { # VARIABLE: the directory pkg-config gives for it, resolved
    d=$(pkg-config --variable="$1" socmon) || die "pkg-config --variable=$1 socmon"
    (cd "$d" 2>/dev/null && pwd -P) || die "pkg-config $1 '$d' does not exist"
}
for v in includedir:include libdir:$LIB datadir:share/socmon; do
    got=$(pcdir "${v%%:*}")
    [ "$got" = "$(cd "$P/${v#*:}" && pwd -P)" ] || die "pkg-config ${v%%:*} is $got, expected $P/${v#*:}"
done
CFLAGS_PC=$(pkg-config --cflags socmon) || die "pkg-config --cflags socmon"
LIBS_PC=$(pkg-config --libs socmon) || die "pkg-config --libs socmon"
LIBDIR=$(pkg-config --variable=libdir socmon)
LIBS_STATIC=$(pkg-config --static --libs socmon | sed 's/-lsocmon\b/-l:libsocmon.a/')
cd "$WORK"
mkdir pc && cd pc
run_example() { # NAME BINARY [ARGS...]: runs BINARY in pc/, output in pc/BINARY.out
    bin=$2
    shift 2
    rc=0
    (cd "$WORK/pc" && "./$bin" "$@") >"$WORK/pc/$bin.out" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$WORK/pc/$bin.out"; die "example $bin (pkg-config build) exited $rc"; }
}
for dir in "$WORK"/examples/*/; do
    name=$(basename "$dir")
    # Firmware examples (with a link script of their own, e.g. riscv_hpm) are no host
    # programs: only their CMakeLists (below) builds them, with the cross compiler.
    if [ -e "$dir/link.ld" ]; then
        step "example $name: firmware, no host build"
        continue
    fi
    step "example $name: pkg-config"
    # shellcheck disable=SC2086
    run "$CC" -std=c11 -Wall -Werror $CFLAGS_PC "$dir"/*.c -o "ex_$name" $LIBS_PC -Wl,-rpath,"$LIBDIR"
    args=""
    [ "$name" = tensix_perf ] && args=sfpu
    # shellcheck disable=SC2086
    run_example "$name" "ex_$name" $args
done
grep -q "tile[0-9]*\.ddr_accesses *[1-9]" ex_quickstart.out || die "quickstart printed no DDR accesses"
grep -q "math-bound" ex_tensix_perf.out || die "tensix_perf did not classify the sfpu kernel"
# The static library: Requires.private and Libs.private must be enough.
# shellcheck disable=SC2086
run "$CC" -std=c11 $CFLAGS_PC "$WORK"/examples/quickstart/*.c -o ex_quickstart_static $LIBS_STATIC
readelf -d ex_quickstart_static | grep -q "libsocmon" && die "static build still needs libsocmon.so"
run_example quickstart ex_quickstart_static
# Every object of libsocmon.a (--whole-archive) links with those flags alone:
# zlib, libzstd, libelf and libdw come from Requires.private (docs/install.md).
for l in -ljansson -lz -lzstd -lelf -ldw -lpthread -lm; do
    printf ' %s ' "$LIBS_STATIC" | grep -q -- " $l " || die "pkg-config --static --libs socmon lacks $l"
done
# shellcheck disable=SC2086
run "$CC" -std=c11 $CFLAGS_PC "$WORK"/examples/quickstart/*.c -o ex_quickstart_whole \
    $(printf '%s' "$LIBS_STATIC" | sed 's/-l:libsocmon\.a/-Wl,--whole-archive -l:libsocmon.a -Wl,--no-whole-archive/')
# ESP's example built for another SoC: soc_defs.h from the installed description.
mkdir gen4x4
run "$P/bin/socmon-esp-socdefs" "$P/share/socmon/socs/esp_4x4.soc" gen4x4
# shellcheck disable=SC2086
run "$CC" -std=c11 -Igen4x4 $CFLAGS_PC "$WORK"/examples/esp_all/main.c -o ex_esp_all_4x4 $LIBS_PC \
    -Wl,-rpath,"$LIBDIR"
SOCMON_ESP_SOC=esp_4x4 run_example esp_all ex_esp_all_4x4

for dir in "$WORK"/examples/*/; do
    name=$(basename "$dir")
    step "example $name: find_package(socmon)"
    run cmake -S "$dir" -B "$WORK/cm/$name" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=RelWithDebInfo
    run cmake --build "$WORK/cm/$name" -j "$JOBS"
    (cd "$WORK/cm/$name" && ctest --output-on-failure) >"$WORK/last.log" 2>&1 ||
        { cat "$WORK/last.log"; die "ctest of example $name (find_package build)"; }
    grep -q "tests passed, 0 tests failed" "$WORK/last.log" || die "example $name registered no test"
done
step "socmon::socmon_static through find_package"
mkdir "$WORK/static_pkg"
cat >"$WORK/static_pkg/CMakeLists.txt" <<EOT
cmake_minimum_required(VERSION 3.21)
project(socmon_static_check LANGUAGES C)
find_package(socmon 0.1 REQUIRED)
add_executable(qs "$WORK/examples/quickstart/quickstart.c")
target_link_libraries(qs PRIVATE socmon::socmon_static)
EOT
run cmake -S "$WORK/static_pkg" -B "$WORK/static_pkg/b" -DCMAKE_PREFIX_PATH="$P"
run cmake --build "$WORK/static_pkg/b"
run "$WORK/static_pkg/b/qs"
# The static target carries zlib, libzstd, libelf and libdw to its users.
for l in PkgConfig::ZLIB PkgConfig::ZSTD PkgConfig::LIBELF PkgConfig::LIBDW PkgConfig::JANSSON; do
    grep -q "INTERFACE_LINK_LIBRARIES.*$l" "$P/$LIB/cmake/socmon/socmonTargets.cmake" ||
        die "socmon::socmon_static does not carry $l"
done

# ---- 4. the installed socmon, from outside any source tree ----
mkdir "$WORK/elsewhere" && cd "$WORK/elsewhere"
S="$P/bin/socmon"
check() { # PATTERN COMMAND...
    pat=$1
    shift
    rc=0
    "$@" >"$WORK/out.txt" 2>&1 || rc=$?
    [ "$rc" = 0 ] || { cat "$WORK/out.txt"; die "$* exited $rc"; }
    grep -q -- "$pat" "$WORK/out.txt" || { head -30 "$WORK/out.txt"; die "$*: no '$pat' in its output"; }
    step "ok: $*"
}
check "usage: socmon" "$S" --help
check "socmon $(sed -n 's/^#define SOCMON_VERSION_\(MAJOR\|MINOR\|PATCH\) \([0-9]*\)$/\2/p' \
    "$P/include/socmon/version.h" | paste -sd.)" "$S" --version
check "^tensix" "$S" list
check "tile1.ddr_accesses" "$S" stat -t esp
check "slot0.wr_bytes" "$S" stat -t zynq
check "Performance counter stats for target 'tensix'" "$S" stat -t tensix
check "tile15\." "$S" stat -t esp:soc=esp_4x4
check "wrote .* samples" "$S" record -t esp -I 200us -o "$WORK/elsewhere/r.rec"
check "Recording summary" "$S" report -i "$WORK/elsewhere/r.rec" --summary
# An unknown SoC name says where it looked: the install prefix, not a source tree.
"$S" stat -t esp:soc=no_such_soc >"$WORK/out.txt" 2>&1 && die "soc=no_such_soc succeeded"
grep -q "$P/share/socmon/socs" "$WORK/out.txt" || { cat "$WORK/out.txt"; die "soc lookup outside the prefix"; }

# The Python package under the prefix (issue 26): it finds the prefix's own libsocmon.so with no
# SOCMON_LIBDIR, and its tests (tests/python/test_socmon.py) pass against the installed socmon,
# without pandas (this python3) and with Debian's pandas (/usr/bin/python3).
PYD=$P/lib/python3/dist-packages
for f in socmon/__init__.py socmon/_install.py socmon/tensix.py socmon_tensix/__init__.py; do
    [ -f "$PYD/$f" ] || die "$PYD/$f was not installed"
done
cp "$WORK/src.gone/tests/python/test_socmon.py" "$WORK/elsewhere/"
PROG=$WORK/src.gone/tests/cli/baseline/elf/cprog.elf   # a committed Ibex program
pytest_install() { # PYTHON PREFIX
    (cd "$WORK/elsewhere" && env -u SOCMON_LIBDIR -u SOCMON_DATADIR SOCMON_BIN="$2/bin/socmon" SOCMON_PROGRAM="$PROG" \
        SOCMON_GAPS_REC="$WORK/src.gone/fuzz/corpus/fuzz_recording_v2/gaps.rec" PYTHONPATH="$2/lib/python3/dist-packages" \
        "$1" -c 'import socmon, sys; assert socmon.library_path.startswith(sys.argv[1]), socmon.library_path' "$2" &&
     cd "$WORK/elsewhere" && env -u SOCMON_LIBDIR -u SOCMON_DATADIR SOCMON_BIN="$2/bin/socmon" SOCMON_PROGRAM="$PROG" \
        SOCMON_GAPS_REC="$WORK/src.gone/fuzz/corpus/fuzz_recording_v2/gaps.rec" PYTHONPATH="$2/lib/python3/dist-packages" \
        "$1" -m unittest test_socmon) >"$WORK/last.log" 2>&1 || { cat "$WORK/last.log"; die "the Python package from $2 ($1)"; }
    step "ok: the Python package from $2 ($1)"
}
pytest_install python3 "$P"
/usr/bin/python3 -c 'import pandas' 2>/dev/null && pytest_install /usr/bin/python3 "$P"

# ---- 5. an install moved away from where it was installed ----
mv "$P" "$P.away"
B=$WORK/relocB
check "tile15\." "$B/bin/socmon" stat -t esp:soc=esp_4x4
"$B/bin/socmon" stat -t esp:soc=no_such_soc >"$WORK/out.txt" 2>&1 && die "relocated: soc=no_such_soc succeeded"
grep -q "$(cd "$B/share/socmon/socs" && pwd -P)" "$WORK/out.txt" ||
    { cat "$WORK/out.txt"; die "relocated socmon does not look in $B/share/socmon/socs"; }
PKG_CONFIG_PATH="$B/$LIB/pkgconfig" pkg-config --variable=includedir socmon >"$WORK/out.txt"
[ "$(cd "$(cat "$WORK/out.txt")" && pwd -P)" = "$(cd "$B/include" && pwd -P)" ] ||
    die "relocated socmon.pc: includedir $(cat "$WORK/out.txt") is not $B/include"
# The shared library finds the data next to itself (bare SoC name through SOCMON_ESP_SOC).
SOCMON_ESP_SOC=esp_4x4 LD_LIBRARY_PATH="$B/$LIB" "$WORK/pc/ex_esp_all_4x4" >"$WORK/out.txt" 2>&1 ||
    { cat "$WORK/out.txt"; die "esp_all (4x4) against the relocated libsocmon.so"; }
LD_LIBRARY_PATH="$B/$LIB" ldd "$WORK/pc/ex_esp_all_4x4" | grep -q "$B/$LIB/libsocmon.so" || die "ex_esp_all_4x4 did not use $B/$LIB"
pytest_install python3 "$B"
step "ok: relocated install ($B)"
mv "$P.away" "$P"

# ---- 6. without the web page: no npm, no uPlot ----
mv "$WORK/src.gone" "$WORK/src"
rm -rf "$WORK/src/web/node_modules"
# Release too, so that -O3's warnings (errors: SOCMON_WERROR) are met here and not by the first
# user who configures a Release build: -O3 inlines more and warned of out-parameters set only on
# success that -O2 does not see.
step "configuring and building with -DSOCMON_WEB=OFF (Release, -O3), without web/node_modules"
run cmake -S "$WORK/src" -B "$WORK/build-noweb" -DCMAKE_BUILD_TYPE=Release -DSOCMON_TESTS=OFF -DSOCMON_WEB=OFF
run cmake --build "$WORK/build-noweb" -j "$JOBS" --target socmon_cli
N=$WORK/build-noweb/socmon
check "tile1.ddr_accesses" "$N" stat -t esp
check "wrote .* samples" "$N" record -t esp -I 200us -o "$WORK/elsewhere/noweb.rec"
check "tile1.ddr_accesses" "$N" report -i "$WORK/elsewhere/noweb.rec" --summary
rc=0
"$N" report -i "$WORK/elsewhere/noweb.rec" --html "$WORK/elsewhere/noweb.html" >"$WORK/out.txt" 2>&1 || rc=$?
[ "$rc" != 0 ] || die "--html succeeded in a build without the web page"
grep -q "built without its web page (-DSOCMON_WEB=OFF)" "$WORK/out.txt" ||
    { cat "$WORK/out.txt"; die "--html without the web page: no clear message"; }
step "ok: -DSOCMON_WEB=OFF build (--html: $(head -1 "$WORK/out.txt"))"
step "all passed"
