#!/bin/sh
# -I below what a target can do is refused, naming the minimum (issue 28: -I 1ns was accepted
# silently); the minimum itself is accepted. stat and record, every model target.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
ELF=$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf
cd "$TMP"
for t in esp zynq tensix; do
    expect 1 "interval 1 ns is below the minimum of target $t, 1.000 us" -- "$BIN" stat -t "$t" -I 1ns
    expect 1 "interval 999 ns is below the minimum of target $t, 1.000 us" -- "$BIN" record -t "$t" -I 999ns -o "$t.rec"
    [ -e "$t.rec" ] && bad "record -I 999ns left $t.rec" || ok
    expect 0 "elapsed" -- "$BIN" stat -t "$t" -I 1us
done
expect 1 "interval 1 ns is below the minimum of target ibex, 1.000 us" -- "$BIN" stat -t ibex -I 1ns -- "$ELF"
expect 0 "elapsed" -- "$BIN" stat -t ibex -I 1us -- "$ELF"
finish interval_min
