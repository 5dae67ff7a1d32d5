#!/bin/sh
# The README's main job on the ESP target, as a user runs it: stat and record
# on the virtual SoC, with the ESP metrics, hot spots and target options.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}

out=$("$BIN" stat -t esp -w multifft 2>&1) && ok || bad "stat -t esp -w multifft exited $?"
for pat in "tile2.acc_invocations" "tile1.ddr_accesses" "acc_util " "llc_hit_rate" \
           "noc_bp_hot_plane" "Hot spots" "noc_bp_p"; do
    printf '%s' "$out" | grep -q -- "$pat" && ok || bad "stat output lacks '$pat'"
done
# multifft keeps its accelerators busy: some utilisation, a finite communication share.
util=$(printf '%s\n' "$out" | awk '$1 == "acc_util" && $2 == "tile2" { print $3 }')
awk -v u="$util" 'BEGIN { exit !(u > 0 && u <= 100) }' && ok || bad "acc_util tile2 '$util' not in (0, 100]"

# JSON output names every ESP metric; the 4x4 SoC file and another workload work.
"$BIN" stat -t "esp:soc=$SRC/socs/esp_4x4.soc" -w acc_sweep --json >"$TMP/s.json" 2>&1 && ok ||
    bad "stat on esp_4x4.soc exited $?"
grep -q '"tile15' "$TMP/s.json" && ok || bad "4x4 JSON lacks tile15"

# record / report round trip at the README's interval.
"$BIN" record -t esp -w multifft -I 200us -o "$TMP/r.rec" >/dev/null 2>&1 && ok || bad "record exited $?"
"$BIN" report -i "$TMP/r.rec" --summary >"$TMP/rep.txt" 2>&1 && ok || bad "report exited $?"
grep -q "acc_tot_cycles" "$TMP/rep.txt" && ok || bad "report lacks acc_tot_cycles"

# Bad target options are errors naming the option.
out=$("$BIN" stat -t esp:bogus=1 2>&1) && bad "esp:bogus=1 succeeded" || ok
printf '%s' "$out" | grep -q "unknown option 'bogus'" && ok || bad "esp:bogus=1: '$out'"
out=$("$BIN" stat -t esp:soc=/nonexistent.soc 2>&1) && bad "missing soc file succeeded" || ok
printf '%s' "$out" | grep -q "/nonexistent.soc" && ok || bad "missing soc file: '$out'"

# --trace-bus shows the snapshot protocol: burst writes around monitor reads.
"$BIN" stat -t esp -w idle -d 1ms --trace-bus "$TMP/bus.txt" >/dev/null 2>&1 && ok || bad "trace-bus run exited $?"
grep -q "^W 0x60090000 = 0x00000001" "$TMP/bus.txt" && ok || bad "no burst write to tile 0 in the bus trace"
grep -q "^W 0x60090000 = 0x00000000" "$TMP/bus.txt" && ok || bad "no burst release of tile 0 in the bus trace"

# list counters --json: each counter's name, width, unit, description and ESP monitor index
# (issue 38), the index as ESP numbers its monitors; model-only counters have none (null).
"$BIN" list counters -t esp:soc=esp_4x4 --json >"$TMP/lc.json" && ok || bad "list counters --json exited $?"
python3 - "$TMP/lc.json" <<'PY' && ok || bad "list counters --json: wrong fields or monitor indices"
import json, re, sys
d = json.load(open(sys.argv[1]))
assert d["target"].startswith("esp") and d["index"] == "monitor", d.keys()
base = ["ddr_accesses", "coh_reqs", "coh_fwds", "coh_rsps_rcv", "coh_rsps_snd", "dma_reqs", "dma_rsps",
        "coh_dma_reqs", "coh_dma_rsps", "l2_hits", "l2_misses", "llc_hits", "llc_misses", "acc_tlb_cycles",
        "acc_mem_cycles", None, "acc_tot_cycles", None, "acc_invocations"]
dirs = ["north", "south", "west", "east", "local"]   # the RTL's port order
def want(name):
    if name in base: return base.index(name)
    m = re.fullmatch(r"dvfs_op(\d)", name)
    if m: return 19 + int(m[1])
    m = re.fullmatch(r"noc_inj_p(\d)", name)
    if m: return 23 + int(m[1])
    m = re.fullmatch(r"noc_out_p(\d)_(\w+)", name)
    if m: return 29 + 5 * int(m[1]) + dirs.index(m[2])
    assert re.fullmatch(r"noc_(stop_p\d_\w+|pkts_p\d)", name), name
    return None
n = {"mon": 0, "model": 0}
for c in d["counters"]:
    assert set(c) == {"name", "instance", "width", "unit", "description", "monitor"}, c
    short = c["name"].split(".", 1)[1]
    assert c["monitor"] == want(short), (c["name"], c["monitor"], want(short))
    assert c["width"] == (64 if short in ("acc_mem_cycles", "acc_tot_cycles") else 32), c
    assert c["description"] and c["unit"], c
    if c["monitor"] is None:
        assert "model only" in c["description"], c
    n["mon" if c["monitor"] is not None else "model"] += 1
assert n["model"] == 16 * 36 and n["mon"] > 16 * 30, n
PY
"$BIN" list counters -t esp -e 'tile1.noc_out_p3_*' --json | grep -c '"monitor": 4[4-8]' | grep -qx 5 && ok ||
    bad "list counters -e tile1.noc_out_p3_* --json: not monitors 44..48"
expect 2 "--json is for 'list counters'" -- "$BIN" list metrics --json

finish "esp cli"
