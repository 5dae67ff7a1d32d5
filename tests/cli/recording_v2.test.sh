#!/bin/sh
# report on recordings in format v2: --stats (text and JSON), and a damaged or
# cut-short file read up to its last good block with one line on stderr
# saying what was lost (docs/recording-format.md).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

R=$TMP/esp.rec
expect 0 "" -- "$BIN" record -t esp -w multifft -I 1us -q -o "$R"
expect 0 "format version:  2" -- "$BIN" report -i "$R" --stats
expect 0 "counters:        483" -- "$BIN" report -i "$R" --stats
expect 0 "lost:            nothing" -- "$BIN" report -i "$R" --stats
# the attachments by name: multifft's phases (not "a program's profile", as it once said)
expect 0 "attachments:     1 ([0-9,]* bytes: phases)" -- "$BIN" report -i "$R" --stats
# the issue's goal: at most 1.0 byte per counter value, whole file included
bpv=$("$BIN" report -i "$R" --stats | sed -n 's/^  bytes per value: //p')
[ -n "$bpv" ] && awk "BEGIN { exit !($bpv <= 1.0) }" && ok || bad "bytes per value '$bpv' above 1.0"
"$BIN" report -i "$R" --stats --json >"$TMP/s.json" || bad "--stats --json failed"
python3 - "$TMP/s.json" <<'PY' && ok || bad "--stats --json: bad object"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["version"] == 2 and j["samples"] > 13000 and j["counters"] == 483, j
assert 0 < j["bytes_per_value"] <= 1.0 and j["complete"] is True and j["samples_lost"] == 0, j
# bytes per value leaves the attachments out (multifft's phases)
assert abs(j["bytes_per_value"] - (j["file_bytes"] - j["attachment_bytes"]) / (j["samples"] * j["counters"])) < 1e-9, j
PY
# a whole file prints no note
"$BIN" report -i "$R" --summary >/dev/null 2>"$TMP/err" && [ ! -s "$TMP/err" ] && ok || bad "note on a whole file"

# cut short: the end record and part of the last block gone
size=$(wc -c <"$R")
head -c $((size - 100)) "$R" >"$TMP/cut.rec"
expect 0 "recording cut short (recorder killed?): read [0-9,]* samples to" -- "$BIN" report -i "$TMP/cut.rec" --summary
expect 0 "Recording summary" -- "$BIN" report -i "$TMP/cut.rec" --summary
expect 0 "lost:            .*cut short" -- "$BIN" report -i "$TMP/cut.rec" --stats

# a damaged byte in the last block: that block skipped, its samples counted (the last block is
# before the phases attachment, which sits between it and the end record)
python3 - "$R" "$TMP/bad.rec" "$TMP/s.json" <<'PY'
import json, sys
b = bytearray(open(sys.argv[1], "rb").read())
att = json.load(open(sys.argv[3]))["attachment_bytes"]
b[len(b) - 36 - att - 50] ^= 0x40
open(sys.argv[2], "wb").write(b)
PY
expect 0 "1 damaged block skipped: [0-9,]* samples (.*) not read" -- "$BIN" report -i "$TMP/bad.rec" -x,
n=$("$BIN" report -i "$R" --stats --no-big-num | sed -n 's/^  samples: *//p')
"$BIN" report -i "$TMP/bad.rec" --stats --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["blocks_lost"] == 1 and j["samples_lost_known"] and j["samples_lost"] > 0, j
assert j["samples"] + j["samples_lost"] == int(sys.argv[1]), j' "$n" && ok || bad "--stats --json of a damaged file"

# a damaged header is an error naming the offset
python3 - "$R" "$TMP/hdr.rec" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[30] ^= 1
open(sys.argv[2], "wb").write(b)
PY
expect 1 "offset [0-9]*: header checksum mismatch" -- "$BIN" report -i "$TMP/hdr.rec"

# --stats: counts grouped for a person, plain with --no-big-num, one CSV row with -x
expect 0 "samples:         13,3[0-9][0-9]\$" -- "$BIN" report -i "$R" --stats
expect 0 "file bytes:      [0-9]*,[0-9][0-9][0-9]\$" -- "$BIN" report -i "$R" --stats
expect 0 "file bytes:      [0-9]*\$" -- "$BIN" report -i "$R" --stats --no-big-num
"$BIN" report -i "$TMP/bad.rec" -x';' --stats >"$TMP/s.csv" || bad "--stats -x failed"
python3 - "$TMP/s.csv" "$n" <<'PY' && ok || bad "--stats -x: bad CSV"
import csv, sys
rows = list(csv.reader(open(sys.argv[1]), delimiter=";"))
assert len(rows) == 2 and rows[0][:3] == ["file", "version", "samples"] and rows[0][-4:] == ["lost", "clock", "attachments", "attachment_bytes"], rows
d = dict(zip(*rows))
assert d["version"] == "2" and d["blocks_lost"] == "1" and d["complete"] == "0", d
assert int(d["samples"]) + int(d["samples_lost"]) == int(sys.argv[2]), d
assert "damaged block" in d["lost"] and d["clock"] == "simulated" and d["attachments"] == "1", d   # the phases
PY
expect 2 "--stats cannot be combined with --summary" -- "$BIN" report -i "$R" --stats --summary
expect 2 "--stats cannot be combined with -M" -- "$BIN" report -i "$R" --stats -M 'l2*'

# a v1 file (tests/core/fixtures, written before v2): --stats in every format
V1=$SOCMON_SRC/tests/core/fixtures/zynq_v1.rec
expect 0 "format version:  1" -- "$BIN" report -i "$V1" --stats
expect 0 "samples:         6\$" -- "$BIN" report -i "$V1" --stats
expect 0 "counters:        44" -- "$BIN" report -i "$V1" --stats
expect 0 "file bytes:      5,163" -- "$BIN" report -i "$V1" --stats
expect 0 "lost:            nothing" -- "$BIN" report -i "$V1" --stats
"$BIN" report -i "$V1" --stats --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
assert j["version"] == 1 and j["samples"] == 6 and j["counters"] == 44 and j["file_bytes"] == 5163, j
assert j["complete"] is True and j["flush_ns"] == 0, j' && ok || bad "--stats --json of the v1 fixture"
# v1 never said its clock: report guesses from the target (a model: simulated)
expect 0 "simulated time elapsed" -- "$BIN" report -i "$V1" --summary

# report's help: --all is the old --deltas there; -h names no -t (report takes none)
expect 0 "--all  *the old name of --deltas" -- "$BIN" report --help
"$BIN" report --help | grep -q "with -t NAME" && bad "report --help offers -t" || ok
expect 0 "-h, --help  *this help (with -t NAME" -- "$BIN" stat --help
# the file says which clock stamped it: a model's, also when --realtime paces it to the wall clock
# (record tells the writer; --stats shows it; v1 files never said)
expect 0 "clock:           simulated" -- "$BIN" report -i "$R" --stats
"$BIN" record -t zynq -d 20ms -I 5ms --realtime -q -o "$TMP/rt.rec" >/dev/null || bad "record --realtime failed"
expect 0 "clock:           simulated" -- "$BIN" report -i "$TMP/rt.rec" --stats
expect 0 "simulated time elapsed" -- "$BIN" report -i "$TMP/rt.rec" --summary
expect 0 '"clock": "unknown"' -- "$BIN" report -i "$V1" --stats --json

finish recording_v2
