#!/bin/sh
# Numbers a person can scan, on every target as `socmon` prints them: thousands separators in
# tables and live lines (none with --no-big-num, never in CSV or JSON); one precision per metric
# in every row of record's live lines, report's table and report --summary; units in report's
# headers; value columns that end together however long a name is; "simulated" beside every
# elapsed time of a model run. The outputs are parsed (tests/cli/numbers_check.py), not grepped.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
CHECK="python3 $SOCMON_SRC/tests/cli/numbers_check.py"

run() { # run NAME command...: output to $TMP/NAME, a failure reported
    n=$1
    shift
    "$@" >"$TMP/$n" 2>&1 || bad "$* exited $?: $(tail -3 "$TMP/$n")"
}

targets="esp tensix zynq"
# ibex runs a program: the smallest one, if the cross compiler is here (tests/ibex builds the rest).
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    P=$SOCMON_SRC/tests/ibex/programs
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
        -static -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$TMP/spin.elf" \
        "$SOCMON_SRC/tests/ibex/cli/spin.S" && targets="$targets ibex" || bad "building tests/ibex/cli/spin.S"
fi

for t in $targets; do
    args="-t $t"
    [ "$t" = ibex ] && args="-t ibex:program=$TMP/spin.elf,max_cycles=20000"
    [ "$t" = zynq ] && args="-t zynq:duration_ms=300"
    [ "$t" = tensix ] && args="-t tensix -I 100us"
    # shellcheck disable=SC2086
    {
        # -o: the counts alone, whatever a program prints or how it ends (ibex's spin never halts).
        "$BIN" stat $args -o "$TMP/stat-$t" >/dev/null 2>&1
        "$BIN" stat $args --no-big-num -o "$TMP/stat-plain-$t" >/dev/null 2>&1
        "$BIN" stat $args -x';' -o "$TMP/stat-$t.csv" >/dev/null 2>&1
        "$BIN" stat $args --json -o "$TMP/stat-$t.json" >/dev/null 2>&1
        "$BIN" record $args -o "$TMP/$t.rec" -M '*' >"$TMP/live-$t" 2>&1
        "$BIN" record $args -o "$TMP/$t-plain.rec" --no-big-num >"$TMP/live-plain-$t" 2>&1
    }
    run "report-$t" "$BIN" report -i "$TMP/$t.rec" -M '*'
    run "report-plain-$t" "$BIN" report -i "$TMP/$t.rec" --no-big-num
    run "summary-$t" "$BIN" report -i "$TMP/$t.rec" --summary
    run "summary-$t.csv" "$BIN" report -i "$TMP/$t.rec" --summary -x';'
    run "report-$t.json" "$BIN" report -i "$TMP/$t.rec" --json --deltas
    if $CHECK "$TMP" "$t"; then ok; else bad "numbers of target $t (outputs above)"; fi
done

# The big numbers of the multifft run are grouped; --no-big-num prints the very same digits.
expect 0 "tile0.l2_hits  *28,672  events" -- "$BIN" stat -t esp
expect 0 "tile0.l2_hits  *28672  events" -- "$BIN" stat -t esp --no-big-num
expect 0 "ddr_accesses_total=[0-9,]* accesses" -- "$BIN" record -t esp -o "$TMP/u.rec"
expect 0 "l2_hit_rate_all \[%\]" -- "$BIN" report -i "$TMP/u.rec"
expect 0 "seconds simulated time elapsed" -- "$BIN" read -t esp -d 1ms

finish "numbers"
