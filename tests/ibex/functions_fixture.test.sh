#!/bin/sh
# The exact profile's per-function values against the RTL's (tests/ibex/fixtures/README.md,
# "Per-function fixtures"; issue 39): socmon records each program of the fixture in small and
# maxperf and every function's self counts of the 12 counters (--children; --by-symbol's 10) must
# equal the fixture's. No RTL needed, only the fixture (and, first, the fixture's attribution
# script on a made-up dump). Every irq_* program, trapframes, CoreMark and Embench have one in both
# configurations. With the cross compiler the programs are built (to the hashes of images.sha256)
# and all 84 files are compared; without it the three whose ELFs are committed (trapframes,
# bench/ibex's coremark_i10 and embench_sglib).
# Then a fixture with one value changed, one with a function's line gone and one with a line
# added must each fail, naming the function and the counter.
set -eu
: "${SOCMON_SRC:?}" "${SOCMON_BIN:?}"
C="$SOCMON_SRC/tests/ibex/functions_check.py"
F="$SOCMON_SRC/tests/ibex/fixtures"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

for cfg in small maxperf; do
    for f in "$SOCMON_SRC"/tests/ibex/programs/irq_*.S; do
        p=$(basename "$f" .S)
        [ -f "$F/$cfg/$p.functions" ] || { echo "functions_fixture: no $cfg/$p.functions"; exit 1; }
    done
    for p in trapframes coremark_i10 embench_sglib; do
        [ -f "$F/$cfg/$p.functions" ] || { echo "functions_fixture: no $cfg/$p.functions"; exit 1; }
    done
done

# the convention of tools/ibex_rtl/functions.py on a made-up probe dump (socmon_probe.sv's format;
# inc bit i = counter i): the boot's cycles go to the first instruction, a refetch (ID empty) to the
# instruction before it, an interrupt entry from its decision (ctrl_fsm_ns = IRQ_TAKEN, 7) to the
# vector's instruction, minstret/NumInstrRetC to the PC in WB, a counter write (w/v) as new - old to
# the instruction in ID at its edge, the end-of-run read's speculative part (end) to the PC in WB
cat >"$tmp/probe" <<'DUMP'
0 0 1 0 0 0 0 11
1 1 4 0 0 0 0 11
2 4 5 0 0 0 0 11
3 5 5 2 100080 1 100080 85
4 5 5 0 100080 0 100080 11
5 5 5 2 100200 1 100200 5
6 5 7 0 100200 0 100200 11
7 7 5 0 100200 0 100200 1
8 5 5 0 100200 0 100200 11
9 5 5 2 10001c 1 10001c 85
a 5 5 2 100300 1 100204 5
b 5 5 2 100304 0 100304 0
w 0 c
v 0 0
c 5 5 1 100304 0 100304 409
end 100304 1 1
DUMP
cat >"$tmp/want" <<'DUMP'
0010001c 4 1 0 2 0 0 1 0 0 0 0 0
00100080 5 1 0 4 0 0 1 0 0 0 0 0
00100200 1 1 0 0 0 0 0 0 0 0 0 0
00100204 0 1 0 0 0 0 0 0 0 0 0 0
00100300 1 0 0 0 0 0 0 0 0 0 0 0
00100304 -11 1 1 0 0 0 0 0 0 2 0 0
DUMP
python3 "$SOCMON_SRC/tools/ibex_rtl/functions.py" --pcs "$tmp/probe" "$SOCMON_SRC/tests/ibex/profile/elf/trapframes.elf" >"$tmp/got"
diff "$tmp/want" "$tmp/got" || { echo "functions_fixture: functions.py's attribution of the made-up dump"; exit 1; }

if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/programs" O="$tmp/elf" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; exit 1; }
    python3 "$C" --socmon "$SOCMON_BIN" --elf-dir "$tmp/elf" --need 84 >"$tmp/all" || { cat "$tmp/all"; exit 1; }
    [ "$(grep -c '^same     [a-z]*/irq_' "$tmp/all")" = 14 ] || { echo "functions_fixture: not 14 irq_* files the same"; cat "$tmp/all"; exit 1; }
else
    echo "functions_fixture: no riscv64-unknown-elf-gcc: only the committed ELFs"
    python3 "$C" --socmon "$SOCMON_BIN" --elf-dir "$tmp/none" --need 6 trapframes coremark_i10 embench_sglib >"$tmp/all" || { cat "$tmp/all"; exit 1; }
fi

# a changed value, a function missing, a function too many: each fails and says where
mutant() {   # name, then the sed script applied to maxperf/trapframes.functions
    rm -rf "$tmp/fix"
    cp -R "$F" "$tmp/fix"
    sed -i "$2" "$tmp/fix/maxperf/trapframes.functions"
    if python3 "$C" --socmon "$SOCMON_BIN" --elf-dir "$tmp/none" --fixtures "$tmp/fix" trapframes >"$tmp/out" 2>&1; then
        echo "functions_fixture: a fixture with $1 passed the check"; cat "$tmp/out"; exit 1
    fi
}
mutant "leaf's minstret one higher" 's/^leaf 195 158 /leaf 195 159 /'
grep -q '^DIFFERS maxperf/trapframes leaf minstret: rtl 159, socmon --children 158$' "$tmp/out" || { cat "$tmp/out"; exit 1; }
grep -q '^DIFFERS maxperf/trapframes leaf minstret: rtl 159, socmon --by-symbol 158$' "$tmp/out" || { cat "$tmp/out"; exit 1; }
grep -q '^same     small/trapframes' "$tmp/out" || { cat "$tmp/out"; exit 1; }
mutant "spin's NumCompressed one lower" 's/^\(spin \([0-9-]* \)\{9\}\)37 /\136 /'
grep -q '^DIFFERS maxperf/trapframes spin mhpmcounter10: rtl 36, socmon --children 37$' "$tmp/out" || { cat "$tmp/out"; exit 1; }
mutant "no line for spin" '/^spin /d'
grep -q '^DIFFERS maxperf/trapframes spin mcycle: rtl 0, socmon --children 168$' "$tmp/out" || { cat "$tmp/out"; exit 1; }
mutant "a function that never ran" '$a never_ran 1 0 0 0 0 0 0 0 0 0 0 0'
grep -q '^DIFFERS maxperf/trapframes never_ran mcycle: rtl 1, socmon --children 0$' "$tmp/out" || { cat "$tmp/out"; exit 1; }
mutant "a short line" 's/^leaf 195 /leaf /'
grep -q 'trapframes.functions:[0-9]*: not a function and 12 counts' "$tmp/out" || { cat "$tmp/out"; exit 1; }
echo "functions_fixture: ok ($(tail -1 "$tmp/all"))"
