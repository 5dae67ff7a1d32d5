#!/bin/sh
# A report page's charts read at once (issue 28, item 8; tests/web/check_charts.js says what it
# checks in chromium): legends give last/mean/max of the data in view when the cursor is away,
# identical series get distinct dashes, counts say "per interval (T)" and rates "/s" like the
# heat map, the page opens with a summary of totals, metrics and findings, header times are
# rounded, a chart of values constant but for rounding (Zynq's latencies) spans from 0, no axis
# repeats a tick label. On an ESP page as recorded (its findings, if the report wrote any; idle tiles give
# identical series) and on a
# Zynq page given findings and two identical series (tests/web/edit_doc.py). Screenshots:
# $SOCMON_BUILD/artifacts/charts-*.png.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/web/web_env.sh"
web_require charts_page
CHARTS="node $SOCMON_SRC/tests/web/check_charts.js"

"$BIN" record -t esp:soc=esp_4x4 -w multifft -I 100us -q -o "$TMP/esp.rec" >"$TMP/esp.log" 2>&1 &&
    "$BIN" report -i "$TMP/esp.rec" --html "$TMP/esp.html" 2>>"$TMP/esp.log" && ok || { cat "$TMP/esp.log"; bad "ESP report --html"; }
$CHARTS "file://$TMP/esp.html" "$ART/charts-esp.png" --identical 1 --add-counter tile3.noc_inj_p0 &&
    ok || bad "the ESP page's charts (check_charts.js above says which)"

"$BIN" record -t zynq -d 2s -q -o "$TMP/zynq.rec" >"$TMP/zynq.log" 2>&1 &&
    "$BIN" report -i "$TMP/zynq.rec" --html "$TMP/zynq.html" 2>>"$TMP/zynq.log" && ok || { cat "$TMP/zynq.log"; bad "Zynq report --html"; }
cat >"$TMP/findings.json" <<'JSON'
[{"target": "zynq", "finding": "slot0 writes 12.5 MB/s of the 100 MB/s asked for: <b>latency-bound</b>",
  "evidence": {"wr_throughput_MBps": 12.4567, "avg_wr_latency_ns": 1234.5678}},
 {"target": "zynq", "finding": "cpu0 IPC 0.45, L1D misses 3.2 %", "evidence": {"ipc": 0.4512, "l1d_miss_rate": 3.21}}]
JSON
python3 "$SOCMON_SRC/tests/web/edit_doc.py" "$TMP/zynq.html" "$TMP/zynq-edited.html" --findings "$TMP/findings.json" \
    --same slot0.wr_throughput slot1.wr_throughput && ok || bad "edit_doc.py"
$CHARTS "file://$TMP/zynq-edited.html" "$ART/charts-zynq.png" --identical 1 --flat 2 --findings 2 --add-counter slot0.wr_bytes &&
    ok || bad "the Zynq page with findings and identical series (check_charts.js above says which)"
finish charts_page
