#!/bin/sh
# The issue's Prometheus acceptance, end to end on loopback: `socmon agent` on the virtual ESP SoC
# serves /metrics (--http on a port the kernel picks, reported in --http-port-file); promtool
# checks the 0.0.4 text, the OpenMetrics answer to Prometheus's Accept header ends with # EOF;
# then Debian's Prometheus, started by tests/support/prom_scrape.py on a free loopback port with a
# 1 s scrape interval, scrapes the agent until it is up, and its query API returns a counter total
# with exactly the value the agent reported. The workload ends within milliseconds and the agent
# then keeps serving: the totals no longer move once /api/stream has said `event: end`, so the
# value the agent reported is the one every later scrape stores. A second agent runs the Zynq
# model's steady workload, paced, so its counters keep moving: a plain ratio of two counters' rates
# of one instance (no ignoring(): the series carry no counter label) returns its value (issue 28,
# item 13). Every process is stopped on exit.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
command -v promtool >/dev/null && command -v prometheus >/dev/null ||
    { echo "FAIL: promtool/prometheus missing (sh scripts/install-deps.sh installs them)"; exit 1; }
GET="python3 $SOCMON_SRC/tests/support/http_get.py"

apid="" zpid=""
cleanup() {
    [ -n "$apid" ] && kill "$apid" 2>/dev/null && wait "$apid" 2>/dev/null
    [ -n "$zpid" ] && kill "$zpid" 2>/dev/null && wait "$zpid" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

"$BIN" agent -t esp -w multifft --listen 127.0.0.1:0 --http 127.0.0.1:0 --http-port-file "$TMP/http.port" \
    >"$TMP/agent.log" 2>&1 &
apid=$!
# the port file appears once the HTTP server listens (waited on, never slept on alone)
n=0
while [ ! -s "$TMP/http.port" ]; do
    kill -0 "$apid" 2>/dev/null || { bad "agent exited: $(cat "$TMP/agent.log")"; finish prometheus; }
    n=$((n + 1))
    [ "$n" -gt 1200 ] && { bad "no --http-port-file after 120 s: $(cat "$TMP/agent.log")"; finish prometheus; }
    sleep 0.1
done
port=$(cat "$TMP/http.port")
URL=http://127.0.0.1:$port
# Zynq steady: every APM slot reads 16 bytes per transaction with 50 cycles of latency, each the
# same in every interval
"$BIN" agent -t zynq -w steady -I 10ms -d 600s --listen 127.0.0.1:0 --http 127.0.0.1:0 \
    --http-port-file "$TMP/zynq.port" >"$TMP/zynq.log" 2>&1 &
zpid=$!
n=0
while [ ! -s "$TMP/zynq.port" ] && [ "$n" -lt 1200 ]; do n=$((n + 1)); sleep 0.1; done
zport=$(cat "$TMP/zynq.port" 2>/dev/null)
[ -n "$zport" ] || bad "the zynq agent did not start: $(cat "$TMP/zynq.log")"

# The run is over when the stream says so; from then on the totals are final.
$GET "$URL/api/stream" --until-event end 2>"$TMP/stream.err" && ok || bad "no 'event: end': $(cat "$TMP/stream.err")"

$GET "$URL/metrics" -o "$TMP/metrics.prom" 2>"$TMP/ct" && ok || bad "GET /metrics: $(cat "$TMP/ct")"
grep -q "content-type: text/plain; version=0.0.4" "$TMP/ct" && ok || bad "/metrics content type: $(cat "$TMP/ct")"
if out=$(promtool check metrics <"$TMP/metrics.prom" 2>&1) && [ -z "$out" ]; then ok; else
    bad "promtool check metrics on /metrics: $out"; fi
# what Prometheus 2.42 sends
$GET "$URL/metrics" -o "$TMP/metrics.om" 2>"$TMP/ct" --accept \
    'application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1' &&
    ok || bad "GET /metrics (OpenMetrics): $(cat "$TMP/ct")"
grep -q "content-type: application/openmetrics-text; version=1.0.0" "$TMP/ct" && ok || bad "OM content type: $(cat "$TMP/ct")"
[ "$(tail -n 1 "$TMP/metrics.om")" = "# EOF" ] && ok || bad "OpenMetrics /metrics does not end with # EOF"

# A known counter: tile0's L2 hits (multifft runs code on the CPU tile), as the agent reported it.
line=$(grep '^socmon_l2_hits_total{.*inst="tile0"' "$TMP/metrics.prom")
value=${line##* }
case "$value" in
'' | 0 | *[!0-9]*) bad "agent's tile0 l2_hits total is '$value': $(head -c 2000 "$TMP/metrics.prom")" ;;
*) ok ;;
esac
# Prometheus scrapes the agent (asking for OpenMetrics first) and stores that value, and the info series.
mkdir "$TMP/prom"
if python3 "$SOCMON_SRC/tests/support/prom_scrape.py" --dir "$TMP/prom" --scrape "agent=127.0.0.1:$port" \
    --scrape "zynq=127.0.0.1:$zport" \
    --expect "socmon_l2_hits_total{job=\"agent\",inst=\"tile0\"}=$value" \
    --expect "socmon_target_info{job=\"agent\",target=\"esp\"}=1" \
    --expect-near "rate(socmon_rd_lat_cycles_total{inst=\"slot0\"}[1m]) / rate(socmon_rd_txns_total{inst=\"slot0\"}[1m])=50" \
    --expect-near "rate(socmon_rd_bytes_total{inst=\"slot2\"}[1m]) / rate(socmon_rd_txns_total{inst=\"slot2\"}[1m])=128"; then ok; else
    bad "Prometheus did not find the agent's total $value, or a ratio of one slot's rates"; fi

kill "$zpid" 2>/dev/null
wait "$zpid"
zpid=""
kill "$apid" 2>/dev/null
wait "$apid"
rc=$?
apid=""
# SIGTERM is a normal stop for the agent (its summary printed)
grep -q "stopped by SIGTERM" "$TMP/agent.log" && ok || bad "agent did not stop cleanly (rc $rc): $(tail -3 "$TMP/agent.log")"
finish prometheus
