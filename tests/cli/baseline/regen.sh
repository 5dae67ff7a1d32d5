#!/bin/sh
# Captures tests/cli/baseline/values.txt.gz from a socmon build (README.md: when, and from which commit).
#   tests/cli/baseline/regen.sh [SOCMON]     default: build/socmon of this tree
#   REBUILD_ELF=1 tests/cli/baseline/regen.sh   also rebuild elf/*.elf (riscv64-unknown-elf-gcc)
# It captures twice and refuses a fixture the two captures do not agree on (the models are
# deterministic; a value that is not would make the test flaky).
set -eu
SRC=$(cd "$(dirname "$0")/../../.." && pwd)
BIN=$(realpath "${1:-$SRC/build/socmon}")
DIR=$SRC/tests/cli/baseline
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
if [ "${REBUILD_ELF:-0}" = 1 ]; then
    make -s -C "$SRC/tests/ibex/programs" O="$TMP/p" "$TMP/p/whole.elf" "$TMP/p/cprog.elf"
    env -u MAKEFLAGS make -s -C "$SRC/examples/riscv_hpm" O="$TMP/p" SOCMON_INCLUDE="$SRC/include"
    for e in whole cprog riscv_phases; do cp "$TMP/p/$e.elf" "$DIR/elf/$e.elf"; done
fi
export SOCMON_SRC="$SRC" SOCMON_DATADIR="$SRC"
python3 "$SRC/tests/cli/baseline.py" capture "$BIN" "$TMP/a.txt" -j 2
python3 "$SRC/tests/cli/baseline.py" capture "$BIN" "$TMP/b.txt" -j 2
if ! cmp -s "$TMP/a.txt" "$TMP/b.txt"; then
    diff "$TMP/a.txt" "$TMP/b.txt" | head -20
    echo "regen: two captures differ: not written" >&2
    exit 1
fi
gzip -9n <"$TMP/a.txt" >"$DIR/values.txt.gz"
echo "regen: $DIR/values.txt.gz ($(wc -c <"$DIR/values.txt.gz") bytes) from $BIN"
echo "regen: name the commit the build is of in $DIR/README.md"
