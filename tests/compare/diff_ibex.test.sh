#!/bin/sh
# socmon diff on an Ibex program and a variant in which one function (crc32) does more work:
# the diff of their recordings names exactly that function, with cycle and instret deltas equal
# to the difference of the two runs' per-function counts (report --by-symbol), and every other
# function shows 0. Needs riscv64-unknown-elf-gcc (scripts/install-deps.sh installs it).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
P=$SOCMON_SRC/tests/ibex/programs
if ! riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    echo "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs gcc-riscv64-unknown-elf)"
    exit 0
fi
for r in 1 3; do
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -O2 -nostdlib -ffreestanding \
        -static -fno-builtin -Wall -Werror -I"$P" -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments \
        -DROUNDS=$r -o "$TMP/r$r.elf" "$P/crt0.S" "$SOCMON_SRC/tests/compare/diffprog.c" || bad "building diffprog -DROUNDS=$r"
    riscv64-unknown-elf-objcopy -O binary -j .text "$TMP/r$r.elf" "$TMP/r$r.text"
done
# the variant differs in data only: the same code at the same addresses
cmp -s "$TMP/r1.text" "$TMP/r3.text" && ok || bad "the two images' .text differ: other functions could count differently"
for r in 1 3; do
    "$BIN" record -q -t ibex -o "$TMP/r$r.rec" -- "$TMP/r$r.elf" >/dev/null || bad "record r$r"
    "$BIN" report -i "$TMP/r$r.rec" --by-symbol --json >"$TMP/f$r.json" || bad "report --by-symbol r$r"
done
"$BIN" diff "$TMP/r1.rec" "$TMP/r3.rec" --json >"$TMP/d.json" || bad "diff --json"
python3 - "$TMP/f1.json" "$TMP/f3.json" "$TMP/d.json" <<'PY' && ok || bad "the diff's function rows"
import json, sys
f1, f3, d = (json.load(open(p)) for p in sys.argv[1:4])
cols = ["cycles", "instret", "lsu_wait", "fetch_wait", "mul_wait", "div_wait", "loads", "stores", "branches",
        "branches_taken"]
per = [{r["function"]: r for r in f["functions"]} for f in (f1, f3)]
rows = [r for r in d["rows"] if r["kind"] == "function"]
assert rows, "no function rows"
seen = set()
for r in rows:
    fn, ev = r["name"], r["event"]
    assert r["key"] == "fn.%s.%s" % (fn, ev), r
    assert r["instance"] is None or r["instance"] == fn, r
    # report --by-symbol leaves out functions that never ran: their counts are 0
    a, b = (p[fn][ev] if fn in p else 0 for p in per)
    assert (r["baseline"], r["new"], r["delta"]) == (a, b, b - a), (r, a, b)
    assert r["significant"] is None, r        # model runs: exact, no statistics
    seen.add((fn, ev))
assert seen >= {(fn, c) for p in per for fn in p for c in cols}, "not every function and counter paired"
changed = {r["name"] for r in rows if r["delta"] != 0}
assert changed == {"crc32"}, "changed functions: %s" % sorted(changed)
crc = {r["event"]: r for r in rows if r["name"] == "crc32"}
assert crc["cycles"]["delta"] > 0 and crc["instret"]["delta"] > 0, crc
print("crc32: +%d cycles, +%d instret; %d other function rows unchanged"
      % (crc["cycles"]["delta"], crc["instret"]["delta"], len(rows) - 10))
assert crc["cycles"]["delta"] == per[1]["crc32"]["cycles"] - per[0]["crc32"]["cycles"]
# sorted by the largest relative change first: crc32's rows lead the function rows
first = [r for r in d["rows"] if r["delta"] not in (0, None)]
assert all(first[i]["ratio"] is None or first[i + 1]["ratio"] is None
           or abs(first[i]["ratio"] - 1) >= abs(first[i + 1]["ratio"] - 1) for i in range(len(first) - 1))
PY
# the table names crc32 first among functions; --only-changed with -e keeps just its rows
"$BIN" diff "$TMP/r1.rec" "$TMP/r3.rec" -e 'fn.*' --only-changed >"$TMP/t.txt" || bad "diff -e --only-changed"
grep -q "fn.crc32.cycles" "$TMP/t.txt" && ! grep -q "fn.main\|fn.fill\|fn.sum_squares" "$TMP/t.txt" && ok \
    || { bad "diff -e 'fn.*' --only-changed"; cat "$TMP/t.txt"; }
# a recording against itself: nothing changes
"$BIN" diff "$TMP/r1.rec" "$TMP/r1.rec" --only-changed --json | python3 -c "
import json, sys; d = json.load(sys.stdin); assert d['rows'] == [], d['rows'][:3]" && ok || bad "itself: changes"
# docs/check.md's firmware gate on this change: the function rules fail on crc32 alone (its
# instret, lsu_wait and cycles: the code changed, not only its layout)
python3 - "$SOCMON_SRC/docs/check.md" "$TMP/perf.rules" <<'PY' || bad "extracting perf.rules"
import sys
s = open(sys.argv[1]).read()
i = s.index("`perf.rules`:")
b = s.index("```\n", i) + 4
open(sys.argv[2], "w").write(s[b:s.index("```", b)])
PY
"$BIN" check "$TMP/r1.rec" "$TMP/r3.rec" --rules "$TMP/perf.rules" >"$TMP/gate.txt"
rc=$?
[ "$rc" = 1 ] && grep -q "FAIL  fn.\*.instret +0" "$TMP/gate.txt" && grep -q "fn.crc32.cycles" "$TMP/gate.txt" &&
    [ "$(grep -c '^        fn\.' "$TMP/gate.txt")" = 3 ] && [ "$(grep -c '^        fn\.crc32\.' "$TMP/gate.txt")" = 3 ] &&
    ! grep -q "hint:" "$TMP/gate.txt" && ok || { bad "the firmware gate (exit $rc)"; cat "$TMP/gate.txt"; }
n=$(grep -c '^[a-z*]' "$TMP/perf.rules")
expect 0 "0 of $n rules failed" -- "$BIN" check "$TMP/r1.rec" "$TMP/r1.rec" --rules "$TMP/perf.rules"
finish diff_ibex
