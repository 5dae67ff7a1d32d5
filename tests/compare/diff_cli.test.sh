#!/bin/sh
# socmon diff from the command line: an ESP 2x3 against a 4x4 SoC running multifft (common values
# paired by tile kind, the 4x4's extra tiles only in the new run), the three text formats agreeing, stat's JSON
# as input, and bad input (exit 2 with the file or glob named).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

"$BIN" record -q -t esp -w multifft -o "$TMP/a.rec" >/dev/null 2>&1 || bad "record 2x3"
"$BIN" record -q -t esp:soc=esp_4x4 -w multifft -o "$TMP/b.rec" >/dev/null 2>&1 || bad "record 4x4"
for r in a b; do "$BIN" report -i "$TMP/$r.rec" --summary --json >"$TMP/$r.json" || bad "report --summary $r"; done
"$BIN" diff "$TMP/a.rec" "$TMP/b.rec" --json >"$TMP/d.json" && ok || bad "diff --json"
"$BIN" diff "$TMP/a.rec" "$TMP/b.rec" -x';' >"$TMP/d.csv" && ok || bad "diff -x';'"
"$BIN" diff "$TMP/a.rec" "$TMP/b.rec" >"$TMP/d.txt" && ok || bad "diff (table)"
# the same runs' totals as stat's JSON: the same pairs and values
"$BIN" diff "$TMP/a.json" "$TMP/b.json" --json >"$TMP/dj.json" && ok || bad "diff of report --summary --json"
python3 - "$TMP" <<'PY' && ok || bad "ESP 2x3 vs 4x4 pairing"
import csv, json, re, sys
t = sys.argv[1]
a, b, d, dj = (json.load(open("%s/%s" % (t, f))) for f in ("a.json", "b.json", "d.json", "dj.json"))
def keys(doc):
    c = {x["name"]: x["value"] for x in doc["counters"]}
    m = {(x["instance"] + "." if x["instance"] else "") + x["name"]: x["value"] for x in doc["metrics"]}
    return c, m
(ca, ma), (cb, mb) = keys(a), keys(b)
side = lambda r: 0 if r["baseline"] is not None and r["new"] is not None else 1 if r["new"] is None else 2
rows = {(r["kind"], r["key"], side(r)): r for r in d["rows"]}
assert len(rows) == len(d["rows"]), "a key twice on one side"
# two layouts: tiles pair by kind (tests/compare/diff_layouts.test.sh checks which with which), each
# row with the runs' own values; the new run's value under its own key where its tile is another
paired_new = set()
for kind, ka, kb in (("counter", ca, cb), ("metric", ma, mb)):
    for r in d["rows"]:
        if r["kind"] != kind:
            continue
        new = r["new_key"] or r["key"]
        if r["baseline"] is not None and r["new"] is not None:
            assert (r["baseline"], r["new"]) == (ka[r["key"]], kb[new]), (r, ka[r["key"]], kb[new])
            if kind == "counter":
                assert r["delta"] == kb[new] - ka[r["key"]], r
            paired_new.add((kind, new))
    for k in kb:   # every value of the new run: paired, or only in the new run
        assert (kind, k) in paired_new or (kind, k, 2) in rows or (kb[k] is None and (kind, k, 1) in rows), k
    for k in ka:   # every value of the baseline: paired (the 2x3's tiles all pair here)
        assert (kind, k, 0) in rows, k
# every tile of the 2x3 pairs; 10 of the 4x4's 16 tiles are only in the new run
extra = [r for r in d["rows"] if r["instance"] and r["baseline"] is None]
inst = {r["instance"] for r in extra}
assert len(inst) == 10, sorted(inst)
common_metrics = [r for r in d["rows"] if r["kind"] == "metric" and r["baseline"] is not None and r["new"] is not None]
assert len(common_metrics) > 20, len(common_metrics)
# order: paired rows first (largest change first), then only in A, then only in B
groups = [0 if r["baseline"] is not None and r["new"] is not None else 1 if r["new"] is None else 2
          for r in d["rows"] if (r["baseline"] is not None) or (r["new"] is not None)]
assert groups == sorted(groups), "rows not grouped"
# stat's JSON and the recordings give the same rows and values (the recordings add no functions here)
strip = lambda rows: sorted((r["kind"], r["key"], r["new_key"] or "", str(r["baseline"]), str(r["new"])) for r in rows)
assert strip(d["rows"]) == strip(dj["rows"]), "recording and JSON inputs disagree"
# CSV: a header and the JSON's rows, in the same order
with open(t + "/d.csv", newline="") as f:
    recs = list(csv.reader(f, delimiter=";"))
assert recs[0][:4] == ["kind", "name", "instance", "event"], recs[0]
assert [r[4] for r in recs[1:]] == [r["key"] for r in d["rows"]], "CSV rows differ from JSON"
print("paired values %d, metrics %d; only in 4x4: %d rows of 10 tiles"
      % (len(paired_new), len(common_metrics), len(extra)))
PY
# every tile of the 2x3 has one of its kind in the 4x4: nothing is only in the baseline
grep -q "only in the new run" "$TMP/d.txt" && ! grep -q "only in the baseline" "$TMP/d.txt" && ok || bad "table sections"

# bad input: exit 2, the file or glob named
printf 'hello\n' >"$TMP/text"
printf '{"counters": [{"value": 3}]}' >"$TMP/noname.json"
printf '{"counters": ' >"$TMP/cut.json"
python3 -c "
import sys; b = bytearray(open(sys.argv[1], 'rb').read())
h = bytearray(b); h[len(b) // 2] ^= 0xff; open(sys.argv[2], 'wb').write(h)   # in the (large) header
b[len(b) - 100] ^= 0xff; open(sys.argv[3], 'wb').write(b)                   # in the last block" \
    "$TMP/a.rec" "$TMP/head.rec" "$TMP/flip.rec"
head -c 300 "$TMP/a.rec" >"$TMP/short.rec"
expect 2 "missing.rec: No such file" -- "$BIN" diff "$TMP/missing.rec" "$TMP/a.rec"
expect 2 "text: neither a socmon recording nor the JSON of socmon stat" -- "$BIN" diff "$TMP/a.rec" "$TMP/text"
expect 2 "noname.json: counters\[0\] has no name" -- "$BIN" diff "$TMP/noname.json" "$TMP/a.rec"
expect 2 "cut.json: not valid JSON" -- "$BIN" diff "$TMP/cut.json" "$TMP/a.rec"
expect 2 "flip.rec: .*damaged.*not compared" -- "$BIN" diff "$TMP/a.rec" "$TMP/flip.rec"
expect 2 "head.rec: recording: .*checksum mismatch" -- "$BIN" diff "$TMP/head.rec" "$TMP/a.rec"
expect 2 "short.rec: " -- "$BIN" diff "$TMP/short.rec" "$TMP/a.rec"
expect 2 "\-e 'nosuch\*' matches no counter or function" -- "$BIN" diff "$TMP/a.rec" "$TMP/b.rec" -e 'nosuch*'
expect 2 "\-M 'nosuch' matches no metric" -- "$BIN" diff "$TMP/a.rec" "$TMP/b.rec" -M 'tile0.*,nosuch'
expect 2 "needs two files" -- "$BIN" diff "$TMP/a.rec"
expect 2 "unexpected argument" -- "$BIN" diff "$TMP/a.rec" "$TMP/b.rec" "$TMP/a.rec"
expect 2 "the prometheus format\|not known here" -- "$BIN" diff "$TMP/a.rec" "$TMP/b.rec" --prometheus
expect 0 "BASELINE NEW" -- "$BIN" diff --help
# -M keeps only the metrics it names
"$BIN" diff "$TMP/a.rec" "$TMP/b.rec" -M 'tile0.*' --json | python3 -c "
import json, sys; r = json.load(sys.stdin)['rows']
assert r and all(x['kind'] == 'metric' and x['key'].startswith('tile0.') for x in r), r[:2]" && ok || bad "-M filter"
# a hostile name in stat's JSON reaches the terminal escaped
printf '{"counters": [{"name": "x\\u001b[31mred", "value": 1}]}' >"$TMP/esc.json"
"$BIN" diff "$TMP/esc.json" "$TMP/esc.json" >"$TMP/esc.txt" 2>&1
if grep -q "$(printf '\033')" "$TMP/esc.txt"; then bad "an escape byte reached the table"; else ok; fi
# a file name that is not UTF-8 is written as the terminal shows it, never dropped to null
bname="$TMP/b$(printf '\377').json"
cp "$TMP/b.json" "$bname"
"$BIN" diff "$TMP/a.json" "$bname" --json | python3 -c "
import json, sys; d = json.load(sys.stdin); assert d['new'].endswith('/b\\\\xff.json'), d['new']" && ok || bad "a non-UTF-8 path in the JSON"
finish diff_cli
