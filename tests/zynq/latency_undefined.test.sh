#!/bin/sh
# Issue 28: an APM interval that counted a transaction's address but none of its latency (the
# latency is added at completion, docs/zynq.md) has no average latency. Light traffic with a
# latency close to the interval makes such intervals: each must be undefined in every format
# (table '-', CSV empty, JSON null, the HTML page's data null with the chart not joining gaps),
# never a 0 ns average. Intervals with both counts keep a number.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

T='zynq:rd_mbps=1,wr_mbps=1,lat_ns=90000,slots=1'
"$BIN" record -q -t "$T" -I 100us -d 3ms -o "$TMP/low.rec" >/dev/null 2>&1 || bad "record failed"
"$BIN" report -i "$TMP/low.rec" -x, --deltas > "$TMP/low.csv" || bad "report -x, failed"
"$BIN" report -i "$TMP/low.rec" --json > "$TMP/low.json" || bad "report --json failed"
"$BIN" report -i "$TMP/low.rec" -M avg_rd_latency_ns > "$TMP/low.txt" 2>&1 || bad "report (table) failed"
"$BIN" report -i "$TMP/low.rec" --html "$TMP/low.html" >/dev/null 2>&1 || bad "report --html failed"

python3 - "$TMP/low.csv" "$TMP/low.json" "$TMP/low.txt" "$TMP/low.html" <<'PY' && ok || bad "latency of an interval without a completed transaction is not undefined everywhere"
import csv, json, re, sys
rows = list(csv.DictReader(open(sys.argv[1])))
head = list(rows[0].keys())
js = json.load(open(sys.argv[2]))["intervals"]
table = [l.split() for l in open(sys.argv[3]) if re.match(r"\s*[0-9][0-9,.]*\s", l)]
html = open(sys.argv[4]).read()
web = {int(m.group(1)): m.group(2).split(",")
       for m in re.finditer(r'\{"seq":(\d+),[^{}]*?"m":\[([^\]]*)\]', html)}
# the page's m[] follows the CSV's metric columns (after t_ns, interval_ns, flags)
mi = head.index("slot0.avg_rd_latency_ns") - 3
assert len(rows) == len(js) == len(table), (len(rows), len(js), len(table))
undef = defined = 0
for i, r in enumerate(rows):
    txns, lat = int(r["slot0.rd_txns"]), int(r["slot0.rd_lat"])
    v_json = js[i]["metrics"]["slot0.avg_rd_latency_ns"]
    v_web = web[i][mi]
    if txns >= 1 and lat == 0:
        undef += 1
        assert r["slot0.avg_rd_latency_ns"] == "", (i, r["slot0.avg_rd_latency_ns"])
        assert r["pl_rd_latency_ns"] == "", (i, r["pl_rd_latency_ns"])
        assert v_json is None, (i, v_json)
        assert table[i][1] == "-", (i, table[i])
        assert v_web == "null", (i, v_web)
    elif txns >= 1 and lat >= 1:
        defined += 1
        assert float(r["slot0.avg_rd_latency_ns"]) > 0 and v_json > 0, (i, r)
assert undef >= 3, "the workload made no interval with a transaction and no latency"
# uPlot draws a null as a gap only if the series does not span gaps
m = re.search(r"series\.push\(\{[^}]*spanGaps: (\w+)", html)
assert m and m.group(1) == "false", "the chart series join gaps"
PY

# the same interval through the steady default: every interval has both counts, so no '-' appears
"$BIN" record -q -t zynq -I 100us -d 1ms -o "$TMP/st.rec" >/dev/null 2>&1 || bad "record (steady) failed"
"$BIN" report -i "$TMP/st.rec" -x, -M 'avg_rd_latency_ns' > "$TMP/st.csv" || bad "report (steady) failed"
python3 - "$TMP/st.csv" <<'PY' && ok || bad "a steady interval lost its latency"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["slot0.avg_rd_latency_ns"] not in ("", "0") for r in rows), rows[:3]
PY
finish latency_undefined
