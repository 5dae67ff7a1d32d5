#!/bin/sh
# socmon list/stat/record/report on the "zynq" target: PL and PS metrics on
# one live line and in the recording, bad options named.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

expect 0 "^zynq " -- "$BIN" list
# configured traffic comes back: 5 slots x 300 MB/s of writes
expect 0 "pl_wr_throughput  *1,500\.00 " -- "$BIN" stat -t "zynq:wr_mbps=300,duration_ms=200" -w steady
expect 0 "avg_rd_latency_ns  *slot0  *400" -- "$BIN" stat -t "zynq:lat_ns=400,duration_ms=100" -w steady
# live line: PL and PS side by side, one line per 50 ms interval
expect 0 "200.000 ms  pl_wr_throughput=.*ps_cpu_util=" -- \
    "$BIN" record -t "zynq:duration_ms=200" -w steady -I 50ms -o "$TMP/z.rec"
lines=$("$BIN" record -t "zynq:duration_ms=200" -w steady -I 50ms -o "$TMP/z.rec" 2>&1 | grep -c "ms  pl_wr")
if [ "$lines" = 4 ]; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: $lines live lines, want 4"; fi
expect 0 "ps_ipc" -- "$BIN" report -i "$TMP/z.rec"
expect 0 "cpu0.*cpu_util" -- "$BIN" report -i "$TMP/z.rec" -x, -M 'cpu_util'
expect 0 "intervals missed\|0 intervals" -- "$BIN" report -i "$TMP/z.rec" --summary
# bad options name the value
expect 1 "burst=100 is not a multiple of 8" -- "$BIN" stat -t "zynq:burst=100"
expect 1 "slots=12" -- "$BIN" stat -t "zynq:slots=12"
expect 1 "mem_dev" -- "$BIN" stat -t "zynq:hw=1,apm_dev=$TMP/none"
expect 1 "zynq: slots=9 out of range 1..8" -- "$BIN" stat -t "zynq:slots=9"
# one target's options, from the same table the parser uses
expect 0 "slots=N  .*(1..8; default 5)" -- "$BIN" list zynq
expect 0 "ccnt_div=N  .*(1 or 64; default 1)" -- "$BIN" list zynq
expect 0 "default interval: 50 ms" -- "$BIN" list zynq

finish "zynq cli"
