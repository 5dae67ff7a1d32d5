#!/bin/sh
# socmon diff on the host's noisy runs (stat -r 10, perf_event): a run against itself is not
# significant anywhere; two batches of `true` do not differ significantly in page faults; a
# program making twice the page faults does, with a tiny p. stat -r's JSON carries the mean, sd
# and 95 % interval diff reads. Skips where perf_event cannot count page faults.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
if ! "$BIN" stat -e page-faults --json -o "$TMP/probe.json" -- true >/dev/null 2>&1 ||
   ! grep -q '"value": [0-9]' "$TMP/probe.json"; then
    echo "SKIP: this machine's perf_event cannot count page-faults (perf_event_paranoid?)"
    exit 0
fi
cc -O2 -o "$TMP/faults" "$SOCMON_SRC/tests/compare/faults.c" || bad "building faults.c"

# `stat -r 10 -- true` (every default event) against itself: nothing significant, every p = 1
"$BIN" stat -r 10 --json -o "$TMP/true.json" -- true || bad "stat -r 10 -- true"
"$BIN" diff "$TMP/true.json" "$TMP/true.json" --json >"$TMP/self.json" || bad "diff itself"
python3 - "$TMP/true.json" "$TMP/self.json" <<'PY' && ok || bad "true against itself"
import json, math, sys
s, d = (json.load(open(p)) for p in sys.argv[1:3])
# stat -r's statistics: sd = stddev * sqrt(runs), the interval around the mean
assert s["runs"] == 10
for c in s["counters"] + s["metrics"]:
    if c.get("mean") is None:
        continue
    assert abs(c["sd"] - c["stddev"] * math.sqrt(10)) <= 1e-9 * max(1, c["sd"]), c
    lo, hi = c["ci95"]
    assert lo <= c["mean"] <= hi and abs((hi - lo) / 2 - 2.2621571628 * c["stddev"]) <= 1e-6 * max(1, hi - lo), c
tested = [r for r in d["rows"] if r["significant"] is not None]
assert tested, "no row with statistics"
assert not [r for r in tested if r["significant"]], [r for r in tested if r["significant"]]
assert all(r["p"] == 1.0 for r in tested if r["p"] is not None)
PY

# two batches of `true`: page faults do not differ significantly
"$BIN" stat -r 10 -e page-faults --json -o "$TMP/t1.json" -- true || bad "stat batch 1"
"$BIN" stat -r 10 -e page-faults --json -o "$TMP/t2.json" -- true || bad "stat batch 2"
"$BIN" diff "$TMP/t1.json" "$TMP/t2.json" -e page_faults --json >"$TMP/tt.json" || bad "diff batches"
python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))['rows']
assert len(r) == 1 and r[0]['significant'] is False, r" "$TMP/tt.json" && ok || bad "two batches of true"

# N pages against 2N + 50 (twice the faults, `true`'s ~50 included): significant
"$BIN" stat -r 10 -e page-faults --json -o "$TMP/f1.json" -- "$TMP/faults" 1000 || bad "stat faults 1000"
"$BIN" stat -r 10 -e page-faults --json -o "$TMP/f2.json" -- "$TMP/faults" 2050 || bad "stat faults 2050"
"$BIN" diff "$TMP/f1.json" "$TMP/f2.json" --json >"$TMP/ff.json" || bad "diff faults"
python3 - "$TMP/ff.json" <<'PY' && ok || bad "twice the page faults"
import json, sys
r = {x["key"]: x for x in json.load(open(sys.argv[1]))["rows"]}["page_faults"]
assert r["significant"] is True and r["p"] < 1e-6, r
assert 1.8 < r["ratio"] < 2.2, r
print("page faults x%.3f, p = %.3g" % (r["ratio"], r["p"]))
PY
"$BIN" diff "$TMP/f1.json" "$TMP/f2.json" -e page_faults >"$TMP/ff.txt" && grep -q "page_faults .*yes (p=" "$TMP/ff.txt" && ok ||
    { bad "the table's significant column"; cat "$TMP/ff.txt"; }
finish diff_host
