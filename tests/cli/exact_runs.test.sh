#!/bin/sh
# Exact run lengths (issue 11) on every target: stat == record + report --summary to the last digit
# (JSON and CSV), stat's counts the same whatever -I, -d exact with a short last interval, a workload
# run ending at the workload's end, --interval-count. The checks are in exact_runs.py; this builds
# the Ibex program it runs (tests/ibex/programs/whole.c, which never writes its counters) if the
# RISC-V compiler is installed, and checks the command-line errors.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
PROG=
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    if make -s -C "$SOCMON_SRC/tests/ibex/programs" O="$TMP/p" "$TMP/p/whole.elf" >"$TMP/make.log" 2>&1; then
        PROG=$TMP/p/whole.elf
    else
        cat "$TMP/make.log"; bad "building tests/ibex/programs/whole.c"
    fi
else
    echo "SKIP ibex: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs it)"
fi
python3 "$SOCMON_SRC/tests/cli/exact_runs.py" "$BIN" "$TMP" $PROG && ok || bad "exact_runs.py"

expect 2 "needs -I" -- "$BIN" stat --interval-count 3
expect 2 "needs -I" -- "$BIN" record -q -o "$TMP/x.rec" --interval-count 3
expect 2 "interval-count takes a count of intervals >= 1, got '0'" -- "$BIN" stat -I 1ms --interval-count 0
expect 2 "got 'x'" -- "$BIN" stat -I 1ms --interval-count x
expect 2 "got '-1'" -- "$BIN" stat -I 1ms --interval-count -1
expect 0 "interval-count N" -- "$BIN" stat --help
expect 0 "interval-count N" -- "$BIN" record --help
# The live line of a short last interval says so.
expect 0 "(short interval)" -- "$BIN" record -t zynq -d 10ms -I 3ms -o "$TMP/z.rec"
finish exact_runs
