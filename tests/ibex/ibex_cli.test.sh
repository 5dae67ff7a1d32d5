#!/bin/sh
# The ibex target through the CLI: builds programs of tests/ibex/programs (and the small ones of
# tests/ibex/cli) with riscv64-unknown-elf-gcc, runs them with `socmon stat/record -t ibex --`
# and checks: stdout is exactly the program's output (the RTL's, tests/ibex/fixtures/*/*.out);
# the counters socmon prints are exactly the RTL's final values (*.counters); --json parses;
# -o FILE; the exit status of halt, trap-out, hang, --max-cycles, bad or missing ELF; record,
# report and report --by-symbol, whose total must equal the whole-program counters.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
P=$SOCMON_SRC/tests/ibex/programs
F=$SOCMON_SRC/tests/ibex/fixtures
if ! riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    echo "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs gcc-riscv64-unknown-elf)"
    exit 0
fi
make -s -C "$P" O="$TMP/p" >"$TMP/make.log" 2>&1 || { cat "$TMP/make.log"; bad "building tests/ibex/programs"; finish ibex_cli; }
for s in trapout sleep spin; do
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
        -static -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$TMP/p/$s.elf" \
        "$SOCMON_SRC/tests/ibex/cli/$s.S" && ok || bad "building tests/ibex/cli/$s.S"
done

# fixture counter name -> socmon counter name
cat >"$TMP/names" <<'N'
mcycle cycles
minstret instret
mhpmcounter3 lsu_wait
mhpmcounter4 fetch_wait
mhpmcounter5 loads
mhpmcounter6 stores
mhpmcounter7 jumps
mhpmcounter8 branches
mhpmcounter9 branches_taken
mhpmcounter10 compressed
mhpmcounter11 mul_wait
mhpmcounter12 div_wait
N

# stat: stdout = the program's output, stderr (CSV) = the RTL's counters, exit 0. stat prints how
# much each counter moved (per-interval changes summed); from reset that is the final value, except
# that a program zeroing its own counters (traps, muldiv: between measured windows) adds the
# write's change, so there the sum equals the RTL's value modulo 2^width (40 bits; 64 for
# cycles/instret, where the sum wraps in 64 bits anyway). `whole` and `cprog` never write them.
cat >"$TMP/check.py" <<'PY'
import sys
names = dict(l.split() for l in open(sys.argv[1]))
got = {}
for line in open(sys.argv[2]):
    f = line.rstrip("\n").split(",")
    if len(f) >= 4 and f[0] == "counter" and f[2] == "":
        got[f[1]] = int(f[3])
exact = sys.argv[4] == "exact"
bad = 0
for line in open(sys.argv[3]):
    fname, want = line.split()
    n, want = names[fname], int(want)
    width = 64 if fname in ("mcycle", "minstret") else 40
    g = got.get(n)
    if g is None or (g != want if exact else (g - want) % (1 << width)):
        print(f"{n} ({fname}) = {g}, RTL {want}")
        bad = 1
sys.exit(bad)
PY
# halt_*: programs that halt with the counters running (what issues in the RTL's last two edges
# counts, and a store issued there prints)
HALTS=$(cd "$F/small" && ls halt_*.out | sed 's/\.out$//')
for cfg in small maxperf; do
    for prog in whole cprog traps inhibit cntwrite muldiv $HALTS; do
        "$BIN" stat -t "ibex:config=$cfg" -a -x, -- "$TMP/p/$prog.elf" >"$TMP/out" 2>"$TMP/err"
        rc=$?
        [ "$rc" = 0 ] && ok || bad "stat $cfg $prog exited $rc: $(head -3 "$TMP/err")"
        cmp -s "$TMP/out" "$F/$cfg/$prog.out" && ok || bad "stat $cfg $prog: stdout differs from the RTL's output"
        case $prog in whole|cprog) how=exact ;; *) how=modular ;; esac
        msg=$(python3 "$TMP/check.py" "$TMP/names" "$TMP/err" "$F/$cfg/$prog.counters" $how) && ok ||
            bad "stat $cfg $prog ($how): $msg"
    done
done

# --json parses and holds the counters; -o FILE takes the counts, stdout stays the program's
"$BIN" stat -t ibex --json -- "$TMP/p/whole.elf" >"$TMP/out" 2>"$TMP/err"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); c = {x["name"]: x["value"] for x in d["counters"]}; sys.exit(c["cycles"] != 9219)' "$TMP/err" \
    && ok || bad "stat --json: not JSON, or cycles != 9219: $(head -5 "$TMP/err")"
"$BIN" stat -t ibex -o "$TMP/counts.txt" -- "$TMP/p/whole.elf" >"$TMP/out" 2>"$TMP/err"
cmp -s "$TMP/out" "$F/small/whole.out" && ok || bad "stat -o: stdout is not the program's output"
grep -q "cycles *9,219" "$TMP/counts.txt" && ok || bad "stat -o: counts not in the file"
[ ! -s "$TMP/err" ] && ok || bad "stat -o: stderr not empty: $(head -3 "$TMP/err")"
# the table goes to stderr
expect 0 "instret *5,280" -- "$BIN" stat -t ibex -- "$TMP/p/whole.elf"
expect 0 "ipc" -- "$BIN" stat -t ibex:config=maxperf -- "$TMP/p/whole.elf"

# exit status: trap-out 3, --max-cycles 4, hang 5, bad/missing ELF 1, usage 2
expect 3 "trapped out: exception mcause 2" -- "$BIN" stat -t ibex -- "$TMP/p/trapout.elf"
out=$("$BIN" stat -t ibex -- "$TMP/p/trapout.elf" 2>/dev/null)
[ "$out" = "before" ] && ok || bad "trapout: stdout '$out', expected the output before the trap"
expect 4 "did not halt within 1000 cycles" -- "$BIN" stat -t ibex --max-cycles 1000 -- "$TMP/p/whole.elf"
expect 4 "cycles *1,000" -- "$BIN" stat -t ibex --max-cycles 1000 -- "$TMP/p/spin.elf"
expect 5 "sleeps forever" -- "$BIN" stat -t ibex -- "$TMP/p/sleep.elf"
printf 'this is not an ELF file' >"$TMP/bad.elf"
expect 1 "ibex: " -- "$BIN" stat -t ibex -- "$TMP/bad.elf"
expect 1 "cannot open" -- "$BIN" stat -t ibex -- "$TMP/none.elf"
expect 1 "no program to run" -- "$BIN" stat -t ibex
expect 1 "runs no program" -- "$BIN" stat -t esp -- "$TMP/p/whole.elf"
expect 1 "has no cycle limit" -- "$BIN" stat -t esp --max-cycles 10
expect 2 "needs a program after it" -- "$BIN" stat -t ibex --
expect 2 "max-cycles takes" -- "$BIN" stat -t ibex --max-cycles 0 -- "$TMP/p/whole.elf"
expect 2 "does not run" -- "$BIN" report -- "$TMP/p/whole.elf"

# record over simulated time, report like any recording, --by-symbol totals = the counters
"$BIN" record -t ibex -I 10us -- "$TMP/p/cprog.elf" -o "$TMP/c.rec" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "record exited $rc: $(tail -3 "$TMP/err")"
cmp -s "$TMP/out" "$F/small/cprog.out" && ok || bad "record: stdout is not the program's output"
grep -q "wrote .* samples" "$TMP/err" && ok || bad "record: no 'wrote' line on stderr"
expect 0 "recording" -- "$BIN" report -i "$TMP/c.rec"
expect 0 "cycles *6,990" -- "$BIN" report -i "$TMP/c.rec" --summary
expect 0 "total equals the whole-program counters" -- "$BIN" report -i "$TMP/c.rec" --by-symbol
"$BIN" report -i "$TMP/c.rec" --by-symbol -x, >"$TMP/sym.csv"
awk -F, '$1 == "mix" { print $2 }' "$TMP/sym.csv" | grep -qx 5376 && ok || bad "by-symbol: mix cycles"
awk -F, '$1 == "total" { print $2 }' "$TMP/sym.csv" | grep -qx 6990 && ok || bad "by-symbol: total cycles != 6990"
"$BIN" report -i "$TMP/c.rec" --by-symbol --json >"$TMP/sym.json" && python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(not d["total_matches"])' "$TMP/sym.json" \
    && ok || bad "by-symbol --json"
for cfg in small maxperf; do
    for prog in whole cprog traps inhibit cntwrite csrread wfi faults loadstore halt_load halt_div halt_branch; do
        "$BIN" record -q -t "ibex:config=$cfg" -I 50us -- "$TMP/p/$prog.elf" -o "$TMP/r.rec" >/dev/null 2>"$TMP/err" ||
            bad "record $cfg $prog: $(tail -2 "$TMP/err")"
        "$BIN" report -i "$TMP/r.rec" --by-symbol -x, >"$TMP/sym.csv" && ok || bad "report --by-symbol $cfg $prog: totals differ"
        want=$(awk '$1 == "mcycle" { print $2 }' "$F/$cfg/$prog.counters")
        got=$(awk -F, '$1 == "total" { print $2 }' "$TMP/sym.csv")
        [ "$got" = "$want" ] && ok || bad "by-symbol $cfg $prog: total cycles $got, RTL mcycle $want"
    done
done
"$BIN" record -q -t esp -d 2ms -o "$TMP/esp.rec" >/dev/null 2>&1
expect 1 "no per-function counters" -- "$BIN" report -i "$TMP/esp.rec" --by-symbol

# the start: the boot address 0x100080 as the RTL, whatever the ELF's entry point says (bootaddr is
# linked with another one); entry=elf starts there instead
out=$("$BIN" stat -t ibex -- "$TMP/p/bootaddr.elf" 2>/dev/null | head -1)
[ "$out" = "started at the boot address" ] && ok || bad "bootaddr: '$out', expected the boot address"
out=$("$BIN" stat -t ibex:entry=elf -- "$TMP/p/bootaddr.elf" 2>/dev/null)
[ "$out" = "started at the ELF entry" ] && ok || bad "bootaddr entry=elf: '$out', expected the ELF entry"
expect 1 "entry" -- "$BIN" stat -t ibex:entry=reset -- "$TMP/p/bootaddr.elf"

# socmon list ibex shows the options
expect 0 "mhpm_width=N" -- "$BIN" list ibex
expect 0 "clock_mhz=N" -- "$BIN" list ibex
expect 0 "entry=NAME" -- "$BIN" list ibex
finish ibex_cli
