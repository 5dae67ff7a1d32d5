#!/bin/sh
# A "device" file that a second process truncates while `record` samples it (zynq:hw=1 over plain
# files standing in for /dev/uioN and /dev/mem): record must stop with an error that names the
# device and the address, exit non-zero, and leave a recording `report` reads, with the samples up
# to the fault and its end record (no "cut short"). Before docs/bus.md's "Faults" it died of SIGBUS.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
command -v truncate >/dev/null || { echo "SKIP: no truncate"; exit 0; }
A=$TMP/apm M=$TMP/mem R=$TMP/run.rec
truncate -s 65536 "$A"
truncate -s $((0xF8894000)) "$M"   # sparse: up to the end of cpu1's PMU window
# what a real A9 PMU shows before anyone touches it: PMCR 0x41093000 at +0xE04 of each window
for base in 0xF8891000 0xF8893000; do
    printf '\000\060\011\101' | dd of="$M" bs=1 seek=$((base + 0xE04)) conv=notrunc 2>/dev/null
done
spec="zynq:hw=1,slots=2,apm_dev=$A,mem_dev=$M"
"$BIN" record -q -t "$spec" -I 10ms -d 60s -o "$R" >"$TMP/out" 2>"$TMP/err" &
pid=$!
# wait (bounded) until a flush has put samples in the file, so there is something to keep
i=0
while [ $i -lt 100 ]; do
    n=$("$BIN" report -i "$R" --summary 2>/dev/null | sed -n 's/^ *\([0-9,]*\) samples.*/\1/p' | tr -d ,)
    [ -n "$n" ] && [ "$n" -gt 0 ] && break
    sleep 0.1
    i=$((i + 1))
done
[ $i -lt 100 ] && ok || bad "no samples in $R after 10 s: $(cat "$TMP/err")"
truncate -s 0 "$A"                 # the second process: the device goes away mid-record
wait $pid
rc=$?
[ "$rc" != 0 ] && [ "$rc" -lt 128 ] && ok || bad "record exited $rc (want an error exit, not a signal): $(cat "$TMP/err")"
grep -q "mmio $A: read at 0x[0-9a-f]* faulted (SIGBUS)" "$TMP/err" && ok ||
    bad "no message naming the device and address: $(cat "$TMP/err")"
wrote=$(sed -n 's/^wrote \([0-9,]*\) samples.*/\1/p' "$TMP/err" | tr -d ,)
[ -n "$wrote" ] && [ "$wrote" -gt 0 ] && ok || bad "record did not say what it wrote: $(cat "$TMP/err")"
# the recording is whole: report reads it without "cut short", with every sample record wrote
"$BIN" report -i "$R" --summary >"$TMP/sum" 2>&1 && ok || bad "report failed: $(cat "$TMP/sum")"
grep -q "cut short" "$TMP/sum" && bad "the recording has no end record: $(cat "$TMP/sum")" || ok
got=$(sed -n 's/^ *\([0-9,]*\) samples.*/\1/p' "$TMP/sum" | tr -d ,)
[ "$got" = "$wrote" ] && ok || bad "report reads $got samples, record wrote $wrote"
expect 0 "slot0" -- "$BIN" report -i "$R" -x,
finish "mmio fault record"
