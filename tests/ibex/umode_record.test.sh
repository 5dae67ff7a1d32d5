#!/bin/sh
# record samples a program while it runs in U-mode (tests/ibex/umode/umode.S): socmon reads the
# counters as a debugger would, at any privilege, so every interval of the U-mode loop has its
# exact counts (addi + bne per iteration: 2 instructions, 4 cycles, 1 taken branch), and the
# whole-run totals equal stat's. The program's own counter reads in U-mode still trap ("traps 2").
# Before the fix the CSR bus read with the core's privilege: 0 samples, "CSR 0xb80 is not readable".
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
if ! riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    echo "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs gcc-riscv64-unknown-elf)"
    exit 0
fi
LOOPS=100000
riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
    -static -T "$SOCMON_SRC/tests/ibex/programs/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
    -DLOOPS=$LOOPS -o "$TMP/umode.elf" "$SOCMON_SRC/tests/ibex/umode/umode.S" && ok || { bad "building umode.S"; finish umode_record; }

"$BIN" record -q -t ibex -I 100us -- "$TMP/umode.elf" -o "$TMP/u.rec" >"$TMP/out" 2>"$TMP/err"
rc=$?
[ "$rc" = 0 ] && ok || bad "record exited $rc: $(tail -3 "$TMP/err")"
grep -q "not readable" "$TMP/err" && bad "record blamed a CSR: $(cat "$TMP/err")" || ok
[ "$(cat "$TMP/out")" = "traps 2" ] && ok || bad "the U-mode counter reads did not both trap: '$(cat "$TMP/out")'"

"$BIN" stat -x, -t ibex -- "$TMP/umode.elf" >/dev/null 2>"$TMP/stat.csv" && ok || bad "stat failed: $(tail -3 "$TMP/stat.csv")"
"$BIN" report -i "$TMP/u.rec" --summary --json >"$TMP/sum.json" 2>"$TMP/err" && ok || bad "report --summary: $(cat "$TMP/err")"
"$BIN" report -i "$TMP/u.rec" -x, --deltas >"$TMP/rows.csv" 2>"$TMP/err" && ok || bad "report -x, --deltas: $(cat "$TMP/err")"
python3 - "$TMP/sum.json" "$TMP/rows.csv" "$TMP/stat.csv" $LOOPS <<'PY' && ok || bad "counts"
import csv, json, sys
summ, rows_path, stat_path, loops = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
s = json.load(open(summ))
total = {c["name"]: c["value"] for c in s["counters"] if c["instance"] == ""}
stat = {}
for line in open(stat_path):
    f = line.rstrip("\n").split(",")
    if len(f) >= 4 and f[0] == "counter" and f[2] == "":
        stat[f[1]] = int(f[3])
bad = []
# 8 ms of simulated time at 100 us: about 80 samples, none missed
if s["samples"] < 70 or s["missed"] != 0:
    bad.append(f"{s['samples']} samples, {s['missed']} missed")
for n in ("cycles", "instret", "branches", "branches_taken"):
    if total.get(n) != stat.get(n):
        bad.append(f"{n}: record {total.get(n)}, stat {stat.get(n)}")
# the loop is 2 instructions a turn; the rest (start, traps, ecall, output) is under 100
if not 2 * loops <= total["instret"] < 2 * loops + 100:
    bad.append(f"instret {total['instret']} for {loops} turns")
if not loops <= total["branches_taken"] < loops + 20:
    bad.append(f"branches_taken {total['branches_taken']} for {loops} turns")
# every interval inside the U-mode loop (not the first or the last two): 5000 cycles at 50 MHz
rows = list(csv.DictReader(open(rows_path)))
inner = rows[1:-2]
exact = [r for r in inner if (r["cycles"], r["instret"], r["branches_taken"]) == ("5000", "2500", "1250")]
if len(inner) < 60 or len(exact) != len(inner):
    bad.append(f"{len(exact)} of {len(inner)} U-mode intervals have 5000 cycles, 2500 instret, 1250 taken")
for b in bad:
    print(b)
sys.exit(1 if bad else 0)
PY
finish umode_record
