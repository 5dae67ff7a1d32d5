#!/bin/sh
# socmon stat/record/report on the "tensix" target: the bound each kernel
# shape is built for is the one shown per thread (dominant_bound_per_thread),
# tt-llk's dominant_bound (summed stall rate, a73bae96f metrics.py:154-161) calls
# those shapes risc-bound; each workload (kernel) shows its signature; partial
# configurations (counters=, raw ids included) show every metric, '-'/null where
# undefined; bad options are named.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

expect 0 "^tensix " -- "$BIN" list
for b in math unpack pack; do
    expect 0 "dominant_bound_per_thread  *$b-bound" -- "$BIN" stat -t "tensix:bound=$b,tiles=64"
    expect 0 "dominant_bound  *risc-bound" -- "$BIN" stat -t "tensix:bound=$b,tiles=64"
    expect 0 "dominant_bound_per_thread  *$b-bound" -- "$BIN" stat -t "tensix:bound=$b,tiles=64,platform=blackhole"
done
expect 0 "dominant_bound  *math-bound" -- "$BIN" stat -t "tensix:fidelity=HiFi4,tiles=64"
expect 0 "dominant_bound_per_thread  *math-bound" -- "$BIN" stat -t "tensix:fidelity=HiFi4,tiles=64"
# tt-llk's platform spelling, any case
expect 0 "dominant_bound_per_thread  *pack-bound" -- "$BIN" stat -t "tensix:bound=pack,tiles=64,platform=WORMHOLE"
# Partial configuration: only FPU and TDMA_PACK slots, and a raw id the guide does not list.
expect 0 "fpu.FPU_UNKNOWN_300  *0 " -- "$BIN" stat -t "tensix:tiles=64,counters=fpu+tdma_pack+FPU:300"
# the table names the metrics of counters not configured in one line, rather than rows of '-'
expect 0 "not computed here, their counters are absent: .*, unpack_util, .*, risc_bound_score" -- "$BIN" stat -t "tensix:tiles=64,counters=fpu+tdma_pack"
"$BIN" stat --json -t "tensix:tiles=64,counters=fpu+tdma_pack" >"$TMP/partial.json" &&
    python3 -c 'import json, sys
m = {x["name"]: x["value"] for x in json.load(open(sys.argv[1]))["metrics"]}
assert m["unpack_util"] is None and m["risc_bound_score"] is None and m["pack_util"] is not None, m' "$TMP/partial.json" &&
    ok || bad "partial configuration: JSON does not keep the absent metrics as null"
expect 0 "dominant_bound  *pack-bound" -- "$BIN" stat -t "tensix:tiles=64,bound=pack,counters=fpu+tdma_pack"
"$BIN" stat -t "tensix:tiles=64,bound=pack,counters=fpu+TDMA_PACK:18" --json >"$TMP/p.json" ||
    bad "stat --json on a partial configuration failed"
python3 - "$TMP/p.json" <<'PY' && ok || bad "partial configuration JSON"
import json, sys
d = json.load(open(sys.argv[1]))
m = {x["name"]: x for x in d["metrics"]}
names = [x["name"] for x in d["metrics"]]
assert len(names) == len(set(names)), names
for k in ("unpack_util", "stall_rate", "issue_rate", "risc_bound_score", "noc_txn_per_cycle",
          "l1_congestion_index"):
    assert k in m and m[k]["value"] is None, (k, m.get(k))
for k in ("math_util", "pack_util", "dominant_bound_score"):
    assert isinstance(m[k]["value"], float), (k, m[k])
assert m["dominant_bound"]["label"] == "pack-bound", m["dominant_bound"]
PY
expect 1 "counters item 'FPU:512': counter id must be 0..511" -- "$BIN" stat -t "tensix:counters=FPU:512"
expect 1 "tensix bank 'GPU' unknown" -- "$BIN" stat -t "tensix:counters=GPU:1"
expect 0 "fpu.FPU_OR_SFPU_INSTRN" -- "$BIN" stat -t tensix:tiles=16
expect 0 "noc1_bytes_per_cycle" -- "$BIN" stat -t tensix:tiles=16,l1_mux=1
expect 0 "l1.NOC_RING1_OUTGOING_0" -- "$BIN" stat -t tensix:tiles=16,l1_mux=1
expect 0 "dominant_bound_per_thread=pack-bound" -- "$BIN" record -t tensix:bound=pack,tiles=128 -I 5us \
    -M 'dominant_bound_per_thread' -o "$TMP/t.rec"
expect 0 "pack-bound" -- "$BIN" report -i "$TMP/t.rec" --summary
expect 1 "unknown option 'bogus' (valid: tiles, format" -- "$BIN" stat -t tensix:bogus=1
expect 1 "bound 'risc' unknown" -- "$BIN" stat -t tensix:bound=risc
expect 1 "tiles '0' out of range" -- "$BIN" stat -t tensix:tiles=0
expect 1 "l1_mux=2 must be 0 or 1" -- "$BIN" stat -t tensix:l1_mux=2
expect 1 "unknown workload 'conv' (known: matmul, sfpu, reduce, topk, sync)" -- "$BIN" stat -t tensix -w conv
# The other kernels: an SFPU op is math-bound with the FPU idle; top-k searches.
expect 0 "dominant_bound  *math-bound" -- "$BIN" stat -t tensix:tiles=64 -w sfpu
expect 0 "fpu_util  *0\.000 " -- "$BIN" stat -t tensix:tiles=64 -w sfpu
expect 0 "instrn_thread.XSEARCH_INSTRN_AVAILABLE_1  *[1-9]" -- "$BIN" stat -t tensix:tiles=64 -w topk
expect 0 "instrn_thread.WAITING_FOR_MMIO_IDLE_0  *[1-9]" -- "$BIN" stat -t tensix:tiles=64 -w sync
expect 0 "workloads: matmul sfpu reduce topk sync" -- "$BIN" list

finish "tensix cli"
