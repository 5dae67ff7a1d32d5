#!/bin/sh
# -t host with a device target in one run, on one clock (issue 14): stat prints both and
# forwards the command's status; record writes one timeline of both that report reads back with
# both metric files (zynq's ipc renamed zynq_ipc beside the host's); the Perfetto trace holds
# host and device tracks; errors name the member.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
if ! "$BIN" stat -e task-clock -- true 2>"$TMP/probe"; then
    grep -q "not available here" "$TMP/probe" && { echo "skip: perf_event_open unavailable"; exit 0; }
fi

"$BIN" stat -x, -t host -t esp -e page-faults -- sh -c 'exit 3' 2>"$TMP/s" >/dev/null
rc=$?
[ $rc = 3 ] && ok || bad "combined stat: exit $rc, expected the command's 3"
grep -q "^counter,page_faults," "$TMP/s" && ok || bad "combined stat: no host counter"
grep -q "^counter,tile0.l2_hits," "$TMP/s" && ok || bad "combined stat: no esp counter"
grep -q "^metric,l2_hit_rate_all," "$TMP/s" && ok || bad "combined stat: no esp metric"

"$BIN" record -q -t host -t zynq -I 5ms -e page-faults -o "$TMP/c.smr" -- sleep 0.05 2>"$TMP/r"
rc=$?
[ $rc = 0 ] && ok || bad "combined record: exit $rc: $(cat "$TMP/r")"
"$BIN" report -i "$TMP/c.smr" --summary -x, >"$TMP/sum" 2>&1
grep -q "^counter,page_faults," "$TMP/sum" && ok || bad "report: no host counter"
grep -q "^counter,slot0.wr_bytes,slot0," "$TMP/sum" && ok || bad "report: no zynq counter"
grep -q "^metric,zynq_ipc," "$TMP/sum" && ok || bad "report: zynq's metrics not found"
grep -q "^metric,page_faults_per_s," "$TMP/sum" && ok || bad "report: host's metrics not found"
# one timeline: every interval holds both, at real-time stamps about 5 ms apart
"$BIN" report -i "$TMP/c.smr" -x, --deltas >"$TMP/rows" 2>&1
n=$(grep -c "^[0-9]" "$TMP/rows")
[ "$n" -ge 5 ] && ok || bad "report: $n interval rows for a 50 ms run at 5 ms"
"$BIN" report -i "$TMP/c.smr" --perfetto "$TMP/t.json" >/dev/null 2>&1
python3 - "$TMP/t.json" <<'PY' && ok || bad "perfetto: host and zynq tracks"
import json, sys
d = json.load(open(sys.argv[1]))
ev = d["traceEvents"] if isinstance(d, dict) else d
names = {e.get("name") for e in ev}
assert "page_faults" in names, sorted(n for n in names if n)[:20]
assert any(n and n.startswith("slot0.") for n in names)
PY

"$BIN" stat -t host -t nosuch -- true 2>"$TMP/e"
grep -q "nosuch" "$TMP/e" && ok || bad "unknown member not named: $(cat "$TMP/e")"
"$BIN" stat -t esp -t esp -d 1ms 2>"$TMP/e"
grep -q "also another member" "$TMP/e" && ok || bad "collision: $(cat "$TMP/e")"
"$BIN" stat -t esp -t zynq -- true 2>"$TMP/e"
grep -q "host" "$TMP/e" && ok || bad "command without host: $(cat "$TMP/e")"

finish combined_run
