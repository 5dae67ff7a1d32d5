#!/bin/sh
# report on a recording with gaps (samples a collector never received,
# socmon_recwriter_skip_to; docs/recording-format.md): one line on stderr
# naming the gaps, the row after each gap flagged missed=N in the table, CSV
# and JSON, --stats counting them apart from damage. tools/rec_gap makes the
# gaps from a real recording.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
GAP=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}/rec_gap

R=$TMP/z.rec
"$BIN" record -t zynq -I 100us -d 5ms -q -o "$R" 2>/dev/null && ok || bad "record"
n=$("$BIN" report -i "$R" --stats --no-big-num | sed -n 's/^  samples: *//p')
[ "$n" -gt 30 ] && ok || bad "too few samples ($n) to cut gaps from"
# rows 10..14 and 20..22 dropped: rows 15 and 23 of the original come after gaps
"$GAP" "$R" "$TMP/g.rec" 10:5 20:3 && ok || bad "rec_gap"
expect 0 "g.rec: 2 gaps in the recording: 8 samples (.*) the recorder never received; the first is between .* and .*; the row after a gap is flagged missed=N" \
    -- "$BIN" report -i "$TMP/g.rec"
expect 0 "missed=5" -- "$BIN" report -i "$TMP/g.rec"
# the note names no damage: the gaps are not damaged blocks
"$BIN" report -i "$TMP/g.rec" --summary 2>"$TMP/err" >/dev/null
grep -q damaged "$TMP/err" && bad "a gap reported as damage: $(cat "$TMP/err")" || ok
[ "$(wc -l <"$TMP/err")" = 1 ] && ok || bad "one note line expected: $(cat "$TMP/err")"

"$BIN" report -i "$TMP/g.rec" -x, >"$TMP/g.csv" 2>/dev/null || bad "CSV of the gapped recording"
"$BIN" report -i "$R" --json --deltas >"$TMP/a.json" 2>/dev/null || bad "JSON of the whole recording"
"$BIN" report -i "$TMP/g.rec" --json --deltas >"$TMP/g.json" 2>/dev/null || bad "JSON of the gapped recording"
python3 - "$TMP/g.csv" "$TMP/a.json" "$TMP/g.json" <<'PY' && ok || bad "gap rows in CSV/JSON"
import csv, json, sys
g = list(csv.DictReader(l for l in open(sys.argv[1]) if not l.startswith("#")))
assert [r["flags"] for r in g if r["flags"]] == ["missed=5", "missed=3"], [r["flags"] for r in g if r["flags"]]
a = json.load(open(sys.argv[2]))["intervals"]
j = json.load(open(sys.argv[3]))["intervals"]
# interval row k is sample k+1; the gaps removed samples 10..14 and 20..22
assert len(j) == len(a) - 8 == len(g), (len(a), len(j), len(g))
flagged = [k for k, r in enumerate(j) if r["flags"]]
assert [j[k]["flags"] for k in flagged] == ["missed=5", "missed=3"], flagged
# the row after the first gap (sample 15) spans samples 10..15: its deltas are the sum of theirs
row = j[flagged[0]]
assert row["t_ns"] == a[14]["t_ns"] and row["interval_ns"] == sum(a[k]["interval_ns"] for k in range(9, 15)), row
for c, d in row["deltas"].items():
    assert d == sum(a[k]["deltas"][c] for k in range(9, 15)), c
PY

"$BIN" report -i "$TMP/g.rec" --stats --json >"$TMP/s.json" || bad "--stats --json"
python3 - "$TMP/s.json" "$n" <<'PY' && ok || bad "--stats --json counts the gaps"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["gaps"] == 2 and j["gap_samples"] == 8 and j["samples_lost"] == 8 and j["gap_ns"] > 0, j
assert j["blocks_lost"] == 0 and j["bytes_lost"] == 0 and j["complete"] is False, j
assert j["samples"] + 8 == int(sys.argv[2]), j
assert "2 gaps in the recording" in j["lost"], j
PY
expect 0 "lost:            2 gaps in the recording: 8 samples" -- "$BIN" report -i "$TMP/g.rec" --stats
finish recording_gaps
