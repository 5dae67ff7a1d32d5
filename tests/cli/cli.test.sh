#!/bin/sh
# The socmon command line as a user meets it: help, errors, every output
# format, and a record/report round trip on the virtual ESP SoC.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

expect 0 "usage: socmon" -- "$BIN" --help
expect 2 "usage: socmon" -- "$BIN"
expect 2 "unknown command 'frob'" -- "$BIN" frob
expect 0 "socmon 0" -- "$BIN" --version
for c in list read stat record report; do
    expect 0 "usage: socmon $c" -- "$BIN" $c --help
done
# --help with -t (either order) appends that target's option table.
for args in "stat -t zynq --help" "stat --help -t zynq:slots=3" "record -t zynq -h" "read --help -t zynq"; do
    expect 0 "Options of target 'zynq'" -- "$BIN" $args
    expect 0 "  slots=" -- "$BIN" $args
done
expect 0 "  soc=" -- "$BIN" stat --help -t esp
out=$("$BIN" stat --help 2>&1)
printf '%s' "$out" | grep -q "Options of target" && bad "stat --help without -t shows a target's options" || ok
expect 2 "unknown target 'nosuch'" -- "$BIN" stat --help -t nosuch
expect 0 "usage: socmon stat" -- "$BIN" stat --help --bogus
expect 0 "esp" -- "$BIN" list targets
expect 0 "multifft (default)" -- "$BIN" list workloads -t esp
expect 0 "tile0" -- "$BIN" list counters -t esp
expect 0 "l2_hit_rate" -- "$BIN" list metrics -t esp
expect 2 "unknown list 'bogus'" -- "$BIN" list bogus

# Errors name the bad value.
expect 1 "unknown target 'nosuch' (known: " -- "$BIN" stat -t nosuch
expect 1 "unknown option 'bogus'" -- "$BIN" stat -t esp:bogus=1
# A SoC name not found says both places tried: the current directory first, then the data root.
expect 1 "'nosuch' is no file in the current directory; socs 'nosuch': no file nosuch.soc in " -- \
    "$BIN" stat -t esp:soc=nosuch
expect 1 "is not key=value" -- "$BIN" stat -t esp:soc
expect 1 "unknown workload 'nope'" -- "$BIN" stat -w nope
expect 1 "'zzz\*' matches no counter" -- "$BIN" stat -e 'zzz*'
expect 2 "bad interval '0'" -- "$BIN" record -I 0
expect 2 "bad interval '5parsecs'" -- "$BIN" record -I 5parsecs
expect 2 "bad duration '-3ms'" -- "$BIN" stat -d -3ms
expect 2 "-x takes one separator character, got ';;'" -- "$BIN" stat -x ';;'
expect 2 "unexpected argument 'extra'" -- "$BIN" stat extra
expect 2 "needs a value" -- "$BIN" stat -t

# stat in the three formats.
expect 0 "Performance counter stats for target 'esp', workload 'multifft'" -- "$BIN" stat
expect 0 "Hot spots" -- "$BIN" stat -w noc_stress
"$BIN" stat -x, > "$TMP/stat.csv" 2>&1 || bad "stat -x, failed"
head -1 "$TMP/stat.csv" | grep -q '^type,name,instance,value,unit$' && ok || bad "CSV header: $(head -1 "$TMP/stat.csv")"
grep -q '^metric,' "$TMP/stat.csv" && ok || bad "CSV has no metric rows"
grep -q '^counter,tile' "$TMP/stat.csv" && ok || bad "CSV has no counter rows"
"$BIN" stat --json > "$TMP/stat.json" 2>&1 || bad "stat --json failed"
python3 - "$TMP/stat.json" <<'PY' && ok || bad "stat --json is not the expected JSON"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["target"] == "esp" and d["workload"] == "multifft", d
assert d["elapsed_ns"] > 0
assert any(c["name"].endswith("ddr_accesses") and c["value"] > 0 for c in d["counters"]), "no DDR accesses"
assert any(m["name"] == "l2_hit_rate" for m in d["metrics"]), "no l2_hit_rate"
PY

# A counter selection says which metrics it leaves uncomputed, and drops hot spots it cannot see.
expect 0 "metrics not computed: llc_hit_rate: 'llc_hits' is not a counter" -- "$BIN" stat -e 'tile*.l2_*'
out=$("$BIN" stat -e 'tile*.l2_*' 2>&1)
printf '%s' "$out" | grep -q "Hot spots" && bad "hot spots shown for a selection without NoC counters" || ok

# read: a snapshot after a workload shows moving counters; before, all zero.
# Zero counters are shown, as perf shows them (they were hidden behind --all before).
expect 0 "tile0.l2_hits  *0  events" -- "$BIN" read --zeros
expect 0 "ddr_accesses" -- "$BIN" read -w multifft

# record -> report round trip.
expect 0 "wrote .* samples (0 intervals missed) to $TMP/r.rec" -- "$BIN" record -I 200us -o "$TMP/r.rec" -q
# the summary's counts are grouped like every count a person reads; --no-big-num leaves them plain
expect 0 "wrote 13,353 samples (0 intervals missed) to $TMP/g.rec ([0-9]*,[0-9][0-9][0-9] bytes)" -- "$BIN" record -I 1us -o "$TMP/g.rec" -q
expect 0 "wrote 13353 samples (0 intervals missed) to $TMP/g.rec ([0-9]* bytes)" -- "$BIN" record -I 1us -o "$TMP/g.rec" -q --force --no-big-num
expect 0 "recording of 'esp'" -- "$BIN" report -i "$TMP/r.rec"
expect 0 "Recording summary" -- "$BIN" report -i "$TMP/r.rec" --summary
"$BIN" report -i "$TMP/r.rec" -x, > "$TMP/r.csv" || bad "report -x, failed"
head -1 "$TMP/r.csv" | grep -q '^t_ns,interval_ns,flags,' && ok || bad "report CSV header"
rows=$(($(wc -l < "$TMP/r.csv") - 1))
[ "$rows" -gt 2 ] && ok || bad "report CSV has $rows rows"
"$BIN" report -i "$TMP/r.rec" --json > "$TMP/r.json" || bad "report --json failed"
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert len(d['intervals']) == $rows" "$TMP/r.json" \
    && ok || bad "report --json intervals != CSV rows"
# The stat totals equal the summed recording: both count the same deterministic model run.
"$BIN" stat -x, -e '*ddr_accesses' > "$TMP/s1.csv"
"$BIN" report -i "$TMP/r.rec" --summary -x, > "$TMP/s2.csv"
a=$(grep '^counter,.*ddr_accesses' "$TMP/s1.csv" | cut -d, -f4 | head -1)
b=$(grep '^counter,.*ddr_accesses' "$TMP/s2.csv" | cut -d, -f4 | head -1)
[ -n "$a" ] && [ "$a" = "$b" ] && ok || bad "stat DDR accesses '$a' != recorded total '$b'"

# Choosing metrics for the live line and the table.
expect 0 "tile2.acc_util=" -- "$BIN" record -I 500us -o "$TMP/m.rec" -M 'acc_util'
expect 2 "-M 'nothing' matches no metric" -- "$BIN" record -o "$TMP/m.rec" -M nothing
expect 0 "tile2.acc_util" -- "$BIN" report -i "$TMP/r.rec" -M 'acc_util'
expect 0 "metric results shown" -- "$BIN" report -i "$TMP/r.rec"
# --trace-bus logs the driver's register accesses: burst writes and monitor reads.
expect 0 "Performance counter stats" -- "$BIN" stat -e 'tile1.ddr_accesses' --trace-bus "$TMP/trace.txt"
grep -q '^W 0x[0-9a-f]* = 0x00000001' "$TMP/trace.txt" && grep -q '^R 0x' "$TMP/trace.txt" && ok \
    || bad "bus trace lacks burst writes or reads: $(head -3 "$TMP/trace.txt")"

# A target's own default interval applies when -I is not given (zynq: 50 ms).
expect 0 "every 50.000 ms" -- "$BIN" record -t zynq -d 100ms -o "$TMP/z.rec"
expect 0 "every 1.000 ms" -- "$BIN" record -t zynq -d 3ms -I 1ms -o "$TMP/z.rec"

expect 1 "directory '/nonexistent' of '/nonexistent/x.rec' does not exist" -- "$BIN" record -q -o /nonexistent/x.rec

# Bad recordings get a clear error, never a crash.
expect 1 "report: " -- "$BIN" report -i "$TMP/missing.rec"
head -c 100 "$TMP/r.rec" > "$TMP/trunc.rec"
expect 1 "report: " -- "$BIN" report -i "$TMP/trunc.rec"
printf 'not a recording at all' > "$TMP/junk.rec"
expect 1 "report: " -- "$BIN" report -i "$TMP/junk.rec"

# Output that cannot be written (a full disk) is an error, never exit 0 with the output lost.
if [ -w /dev/full ]; then
    for args in "stat" "stat -x," "stat --json" "read -a" "report -i $TMP/r.rec" "report -i $TMP/r.rec --json" \
                "report -i $TMP/r.rec --summary -x;" "record -I 200us -o $TMP/full.rec" \
                "record -q -I 200us -o $TMP/full.rec" "list counters"; do
        # shellcheck disable=SC2086
        err=$("$BIN" $args 2>&1 >/dev/full)
        rc=$?
        if [ "$rc" = 1 ] && printf '%s' "$err" | grep -q "writing stdout: No space left"; then ok
        else bad "socmon $args > /dev/full: exit $rc, '$err'"; fi
    done
fi

finish "cli"
