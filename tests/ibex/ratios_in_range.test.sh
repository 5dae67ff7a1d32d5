#!/bin/sh
# Issue 37, item 12: a run's share or ratio is computed from the run's totals, or it is undefined
# (JSON null, table '-'); it is never outside its possible range (metrics/ibex.json "range").
# The cause of `lsu_wait_share 2.7e7 %`: a program that zeroes or writes its counters (crt0's
# sm_zero_counters, the bracket around each measured window) sets them back between two samples;
# the delta of a 40-bit mhpmcounter then reads as a wrap of nearly 2^40, and the 64-bit mcycle's
# as nearly 2^64, which the run's 64-bit sum cancels for mcycle but not for the 40-bit counters.
# Such a delta is implausible (above its counter's maximum rate): the metrics over it are
# undefined. A program that inhibits mcycle alone (inhibit_cycles.S) makes IPC and the shares of
# mcycle impossible without any wrap: the range makes them undefined.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
P=$SOCMON_SRC/tests/ibex/programs
if ! riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    echo "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh installs gcc-riscv64-unknown-elf)"
    exit 0
fi
make -s -C "$P" O="$TMP/p" >"$TMP/make.log" 2>&1 || { cat "$TMP/make.log"; bad "building tests/ibex/programs"; finish ratios_in_range; }
riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
    -static -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$TMP/p/inhibit_cycles.elf" \
    "$SOCMON_SRC/tests/ibex/cli/inhibit_cycles.S" && ok || bad "building tests/ibex/cli/inhibit_cycles.S"

# programs that inhibit (inhibit, halt_inhibit, inhibit_cycles), zero (alu, cprog: crt0 and every
# window) or write (cntwrite) their counters, and one that leaves them alone (whole)
for prog in inhibit halt_inhibit inhibit_cycles alu cprog cntwrite whole; do
    for I in 20us 1us; do
        r=$TMP/$prog.$I
        "$BIN" record -q -t ibex -I $I -o "$r.rec" -- "$TMP/p/$prog.elf" >/dev/null 2>"$r.log" &&
            "$BIN" report -i "$r.rec" --summary --json >"$r.sum.json" 2>>"$r.log" &&
            "$BIN" report -i "$r.rec" --summary >"$r.sum.txt" 2>>"$r.log" &&
            "$BIN" report -i "$r.rec" --json >"$r.json" 2>>"$r.log" && ok ||
            { bad "$prog at -I $I: record or report failed"; cat "$r.log"; }
    done
done
"$BIN" stat -t ibex --json -o "$TMP/stat.json" -- "$TMP/p/inhibit_cycles.elf" >/dev/null 2>&1 ||
    bad "stat of inhibit_cycles failed"

python3 - "$TMP" "$SOCMON_SRC/metrics/ibex.json" <<'PY' && ok || bad "a share or ratio is outside its range, or not from the run's totals"
import json, re, sys, glob
d = sys.argv[1]
rng = {m["name"]: m["range"] for m in json.load(open(sys.argv[2]))["metrics"] if "range" in m}
assert {"lsu_wait_share", "other_share", "ipc", "branch_taken_ratio"} <= set(rng), rng
def check(where, name, v):
    if v is None or name not in rng:
        return
    lo, hi = rng[name]
    assert lo <= v <= hi, f"{where}: {name} = {v} outside {lo}..{hi}"
def summary(path):
    s = json.load(open(path))
    return s, {m["name"]: m["value"] for m in s["metrics"]}, {c["name"]: c["value"] for c in s["counters"]}
undefined = set()
for path in glob.glob(d + "/*.sum.json"):
    s, m, c = summary(path)
    for k, v in m.items():
        check(path, k, v)
        if v is None:
            undefined.add(path.split("/")[-1].split(".")[0])
    # a defined share is the run's totals' own: 100 * lsu_wait / cycles of the counters printed
    if m.get("lsu_wait_share") is not None:
        want = 100 * c["lsu_wait"] / c["cycles"]
        assert abs(m["lsu_wait_share"] - want) <= 1e-9 * max(1, want), (path, m["lsu_wait_share"], want)
    rows = json.load(open(path.replace(".sum.json", ".json")))["intervals"]
    for i, r in enumerate(rows):
        for k, v in r["metrics"].items():
            check(f"{path} row {i}", k, v)
# the program that leaves its counters alone keeps every value; the others lose the broken ones
for I in ("20us", "1us"):
    s, m, c = summary(f"{d}/whole.{I}.sum.json")
    assert all(m[k] is not None for k in ("ipc", "lsu_wait_share", "other_share")), m
    assert "implausible_intervals" not in s, s
s, m, c = summary(d + "/inhibit_cycles.20us.sum.json")
assert m["ipc"] is None and m["lsu_wait_share"] is None and m["div_wait_share"] is None, m
assert c["instret"] > 1000 * c["cycles"], c     # what made them impossible
assert m["compressed_share"] is not None, m     # a share of minstret, which counted throughout
s, m, c = summary(d + "/cntwrite.1us.sum.json")
assert s["implausible_intervals"] > 0 and m["lsu_wait_share"] is None, (s.get("implausible_intervals"), m)
st = json.load(open(d + "/stat.json"))
sm = {x["name"]: x["value"] for x in st["metrics"]}
assert sm["ipc"] is None and sm["lsu_wait_share"] is None, sm
# the table says '-' for what JSON says null
t = open(d + "/inhibit_cycles.20us.sum.txt").read()
assert re.search(r"^\s*lsu_wait_share\s+-\s", t, re.M), t
assert {"inhibit_cycles", "cntwrite", "alu"} <= undefined, undefined
PY
finish ratios_in_range
