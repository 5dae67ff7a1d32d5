#!/bin/sh
# The socmon Python package (issue 26) against the build's libsocmon.so and socmon CLI, three ways:
#   1. python3 with pandas made unimportable: tables are lists of dicts;
#   2. Debian's /usr/bin/python3 with its python3-pandas: tables are DataFrames;
#   3. `pip install` of python/ into a fresh venv (no package index: its build backend is its own),
#      the library found through SOCMON_LIBDIR, the same tests from there.
# Each run's numbers must equal the CLI's (report --json --deltas, stat --json, diff, sweep).
# A sanitizer build (its runtimes preloaded into python) runs the first only.
set -e
: "${SOCMON_SRC:?SOCMON_SRC must name the source tree}"
: "${SOCMON_LIBDIR:?SOCMON_LIBDIR must name the directory of libsocmon.so}"
: "${SOCMON_BIN:?SOCMON_BIN must name the socmon CLI}"
lib="$SOCMON_LIBDIR/libsocmon.so"
[ -f "$lib" ] || { echo "python_package.test.sh: $lib not built (target socmon_shared)" >&2; exit 1; }
# a sanitizer build's library needs its runtimes preloaded into python (leaks: the interpreter's own)
pre=$(ldd "$lib" 2>/dev/null | awk '/lib(asan|ubsan)\.so/ {print $3}' | tr '\n' ' ')
if [ -n "$pre" ]; then
    LD_PRELOAD="$pre"
    ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
    export LD_PRELOAD ASAN_OPTIONS
fi
SOCMON_PROGRAM="$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf"   # committed (tests/cli/baseline/README.md)
SOCMON_GAPS_REC="$SOCMON_SRC/fuzz/corpus/fuzz_recording_v2/gaps.rec"
export SOCMON_PROGRAM SOCMON_GAPS_REC
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
# programs that end otherwise than halting (socmon.stat's end): tests/ibex/cli's, built as
# tests/ibex/ibex_cli.test.sh builds them; without the cross compiler those tests skip
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    for s in trapout sleep; do
        riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
            -static -T "$SOCMON_SRC/tests/ibex/programs/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
            -o "$TMP/$s.elf" "$SOCMON_SRC/tests/ibex/cli/$s.S"
    done
    SOCMON_TRAP_PROGRAM="$TMP/trapout.elf" SOCMON_HANG_PROGRAM="$TMP/sleep.elf"
    export SOCMON_TRAP_PROGRAM SOCMON_HANG_PROGRAM
else
    echo "python_package.test.sh: riscv64-unknown-elf-gcc not installed: the trap and hang runs skip"
fi
cd "$SOCMON_SRC/tests/python"

echo "== 1. without pandas (python3: $(command -v python3))"
mkdir "$TMP/block" "$TMP/block/pandas"
echo 'raise ImportError("pandas blocked by python_package.test.sh")' >"$TMP/block/pandas/__init__.py"
SOCMON_TEST_PANDAS=0 PYTHONPATH="$TMP/block:$SOCMON_SRC/python" python3 -m unittest -v test_socmon

# Runs 2 and 3 make the same calls into the library as run 1; what they add is Python's side (pandas,
# pip's install). Under a sanitizer build run 1 checks the library; the plain build runs all three.
if [ -n "$pre" ]; then
    echo "python_package.test.sh: sanitizer build: run 1 checks the library; runs 2 and 3 (pandas, pip install) are the plain build's"
    exit 0
fi

py=/usr/bin/python3
echo "== 2. with pandas ($py)"
if ! "$py" -c 'import pandas' 2>/dev/null; then
    echo "python_package.test.sh: $py cannot import pandas: run scripts/install-deps.sh (python3-pandas)" >&2
    exit 1
fi
SOCMON_TEST_PANDAS=1 PYTHONPATH="$SOCMON_SRC/python" "$py" -m unittest -v test_socmon

echo "== 3. pip install ./python into a venv"
# a copy, so pip's build leaves nothing in the source tree: python/ and the one file that holds the
# version (include/socmon/version.h), where a clone has them
mkdir -p "$TMP/tree/include/socmon"
cp "$SOCMON_SRC/include/socmon/version.h" "$TMP/tree/include/socmon/"
cp -R "$SOCMON_SRC/python" "$TMP/tree/python"
ln -s "$TMP/tree/python" "$TMP/python"
rm -rf "$TMP/python/socmon/__pycache__" "$TMP/python/socmon_tensix/__pycache__"
vpy=python3
"$vpy" -m venv "$TMP/venv" 2>/dev/null || { vpy=$py; "$vpy" -m venv "$TMP/venv"; }
"$TMP/venv/bin/pip" install --no-index --disable-pip-version-check -q "$TMP/tree/python"
# the wheel's metadata says the library's version (the CLI's first line: "socmon X.Y.Z")
want=$("$SOCMON_BIN" --version | sed -n '1s/^socmon //p')
"$TMP/venv/bin/pip" show socmon 2>/dev/null | grep -qx "Version: $want" ||
    { echo "python_package.test.sh: pip's socmon is not version $want: $("$TMP/venv/bin/pip" show socmon 2>&1 | grep Version)" >&2; exit 1; }
"$TMP/venv/bin/python" -c 'import socmon, os, sys; assert socmon.__file__.startswith(sys.argv[1]), socmon.__file__; print("installed:", socmon.__file__, "library:", socmon.library_path)' "$TMP/venv"
# the installed package, not the source tree: the tests run from another directory
cp test_socmon.py "$TMP/"
cd "$TMP"
"$TMP/venv/bin/python" -m unittest test_socmon
"$TMP/venv/bin/pip" uninstall -y -q socmon
echo "python_package.test.sh: all three runs passed"
