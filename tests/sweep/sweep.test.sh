#!/bin/sh
# socmon sweep (issue 26): every point's values equal a separate `socmon stat --json` of it (ESP
# 2 SoCs x 2 workloads, Ibex 2 configs x 2 programs); shards run through GNU parallel and merged
# equal the whole sweep, CSV and JSON alike; a failing point is reported while the rest
# completes; a stopped sweep resumes with only its missing points; bad grids, shards and merges
# get clear errors.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
CHECK="python3 $SOCMON_SRC/tests/sweep/sweep_check.py"
PROGS=$SOCMON_SRC/tests/cli/baseline/elf   # committed Ibex programs (tests/cli/baseline/README.md)
ESP="esp:soc={esp_2x3,esp_4x4}"

# ---- a sweep equals single runs ----
expect 0 "4 ok, 0 failed" -- "$BIN" sweep -t "$ESP" -w multifft,acc_sweep --json -o "$TMP/esp.json"
$CHECK count "$TMP/esp.json" ok 4 && ok || bad "the ESP sweep has 4 ok points"
$CHECK equal_runs "$BIN" "$TMP/esp.json" && ok || bad "ESP sweep values differ from stat"
expect 0 "4 ok" -- "$BIN" sweep -t 'ibex:config={small,maxperf}' --json -o "$TMP/ibex.json" -- \
    "$PROGS/cprog.elf" "$PROGS/whole.elf"
$CHECK equal_runs "$BIN" "$TMP/ibex.json" && ok || bad "Ibex sweep values differ from stat"
python3 - "$TMP/ibex.json" <<'PY' && ok || bad "Ibex points in grid order, the config saving cycles"
import json, sys
pts = json.load(open(sys.argv[1]))["points"]
got = [(p["options"]["config"], p["program"].rsplit("/", 1)[1]) for p in pts]
assert got == [("small", "cprog.elf"), ("small", "whole.elf"), ("maxperf", "cprog.elf"), ("maxperf", "whole.elf")], got
# maxperf (single-cycle multiplier, branch target ALU, writeback stage) saves cycles on both
assert pts[3]["counters"]["cycles"] < pts[1]["counters"]["cycles"], (pts[1]["counters"]["cycles"], pts[3]["counters"]["cycles"])
assert pts[2]["counters"]["cycles"] < pts[0]["counters"]["cycles"], (pts[0]["counters"]["cycles"], pts[2]["counters"]["cycles"])
PY
# the same grid from a sweep file gives the same table (same grid id, same points)
cat >"$TMP/esp.sweep" <<S
# ESP: SoC sizes x workloads
target   $ESP
workload multifft, acc_sweep
S
expect 0 "4 ok" -- "$BIN" sweep -f "$TMP/esp.sweep" --json -o "$TMP/esp_file.json"
$CHECK same "$TMP/esp.json" "$TMP/esp_file.json" && ok || bad "a sweep file's table differs from -t/-w's"
# CSV: one header, a row per point, the same columns the Python package reads
expect 0 "4 ok" -- "$BIN" sweep -t "$ESP" -w multifft,acc_sweep -o "$TMP/esp.csv"
head -1 "$TMP/esp.csv" | grep -q '^point,sweep,points,target,workload,program,status,error,recording,option:soc,counter:' \
    && ok || bad "CSV header: $(head -c 200 "$TMP/esp.csv")"
[ "$(wc -l <"$TMP/esp.csv")" = 5 ] && ok || bad "CSV rows: $(wc -l <"$TMP/esp.csv")"

# ---- shards: fixed subsets, merged equal to the whole; through GNU parallel ----
if command -v parallel >/dev/null 2>&1; then
    parallel --will-cite -j 2 "$BIN" sweep -q -j 1 -t "'$ESP'" -w multifft,acc_sweep --shard {}/4 --json \
        -o "$TMP/shard{}.json" ::: 1 2 3 4 && ok || bad "4 shards through GNU parallel"
    parallel --will-cite -j 2 "$BIN" sweep -q -j 1 -t "'$ESP'" -w multifft,acc_sweep --shard {}/4 \
        -o "$TMP/shard{}.csv" ::: 1 2 3 4 && ok || bad "4 CSV shards through GNU parallel"
else
    bad "GNU parallel is not installed (scripts/install-deps.sh installs it)"
fi
$CHECK count "$TMP/shard2.json" ok 1 && ok || bad "shard 2/4 holds one point"
"$BIN" sweep merge "$TMP/shard1.json" "$TMP/shard2.json" "$TMP/shard3.json" "$TMP/shard4.json" \
    --json -o "$TMP/merged.json" && ok || bad "merging the JSON shards"
$CHECK same "$TMP/esp.json" "$TMP/merged.json" && ok || bad "merged shards differ from the whole sweep"
"$BIN" sweep merge "$TMP/shard4.csv" "$TMP/shard2.csv" "$TMP/shard3.csv" "$TMP/shard1.csv" \
    -o "$TMP/merged.csv" && ok || bad "merging the CSV shards"
cmp -s "$TMP/esp.csv" "$TMP/merged.csv" && ok || { bad "merged CSV shards differ from the whole CSV"; diff "$TMP/esp.csv" "$TMP/merged.csv" | head -5; }
# a JSON table merges with CSV shards of the same sweep too
"$BIN" sweep merge "$TMP/shard1.json" "$TMP/shard2.csv" "$TMP/shard3.csv" "$TMP/shard4.json" \
    --json -o "$TMP/mixed.json" && ok || bad "merging JSON and CSV shards"
$CHECK same "$TMP/esp.json" "$TMP/mixed.json" && ok || bad "JSON and CSV shards merged differ from the whole"
expect 1 "hold 3 of the sweep's 4 points; missing: 2" -- "$BIN" sweep merge "$TMP/shard1.json" "$TMP/shard2.json" \
    "$TMP/shard4.json" -o "$TMP/partial.csv"

# ---- failures and resume ----
"$BIN" sweep -q -t 'esp:soc={esp_2x3,no_such_soc}' -w multifft --json -o "$TMP/fail.json" 2>"$TMP/fail.err"
rc=$?
[ "$rc" = 1 ] && ok || bad "a sweep with a failing point exited $rc, expected 1"
grep -q "point 1 (esp:soc=no_such_soc, multifft) failed: .*no_such_soc" "$TMP/fail.err" && ok || { bad "the failing point is not reported"; cat "$TMP/fail.err"; }
$CHECK count "$TMP/fail.json" ok 1 && $CHECK count "$TMP/fail.json" failed 1 && ok || bad "the failed point is not in the table"
python3 -c "
import json, sys; p = json.load(open(sys.argv[1]))['points'][1]
assert p['status'] == 'failed' and 'no_such_soc' in p['error'] and p['counters'] == {}, p" "$TMP/fail.json" \
    && ok || bad "the failed point's row"
# resume: a table that lost two points (as a sweep stopped half way leaves it) runs only those
python3 -c "
import json, sys; t = json.load(open(sys.argv[1])); t['points'] = [p for p in t['points'] if p['point'] in (0, 3)]
json.dump(t, open(sys.argv[2], 'w'))" "$TMP/esp.json" "$TMP/resume.json"
expect 0 "resuming .*: 2 of 4 points done, 2 to run" -- "$BIN" sweep -t "$ESP" -w multifft,acc_sweep --json -o "$TMP/resume.json"
$CHECK same "$TMP/esp.json" "$TMP/resume.json" && ok || bad "the resumed table differs from the whole sweep"
expect 0 "4 of 4 points done, 0 to run" -- "$BIN" sweep -t "$ESP" -w multifft,acc_sweep --json -o "$TMP/resume.json"
# a table of another grid is not resumed over
expect 2 "holds the table of another sweep" -- "$BIN" sweep -t "$ESP" -w multifft --json -o "$TMP/resume.json"
# Ctrl-C: the sweep stops (exit 130) with the points done so far in its table; the same command
# again finishes it, running only what is missing, and the result equals an uninterrupted sweep
BIG="esp:soc={esp_2x3,esp_4x4,esp_8x8}"
"$BIN" sweep -q -j 1 -t "$BIG" -w multifft,acc_sweep,cpu_stream --json -o "$TMP/whole9.json" >/dev/null 2>&1
"$BIN" sweep -j 1 -t "$BIG" -w multifft,acc_sweep,cpu_stream --json -o "$TMP/int.json" >/dev/null 2>"$TMP/int.err" &
pid=$!
i=0
while [ ! -s "$TMP/int.json" ] && [ $i -lt 300 ] && kill -0 $pid 2>/dev/null; do sleep 0.05; i=$((i + 1)); done
kill -INT $pid 2>/dev/null
wait $pid
rc=$?
[ "$rc" = 130 ] || [ "$rc" = 0 ] && ok || { bad "a sweep stopped by SIGINT exited $rc"; cat "$TMP/int.err"; }
n=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['points']))" "$TMP/int.json")
"$BIN" sweep -j 2 -t "$BIG" -w multifft,acc_sweep,cpu_stream --json -o "$TMP/int.json" >/dev/null 2>"$TMP/int2.err"
grep -q "$n of 9 points done, $((9 - n)) to run\|ran in" "$TMP/int2.err" && ok || { bad "resume after SIGINT ($n done)"; cat "$TMP/int2.err"; }
[ "$n" = 9 ] || grep -q "$n of 9 points done, $((9 - n)) to run" "$TMP/int2.err" && ok || bad "resume ran other points than the missing ones"
$CHECK same "$TMP/whole9.json" "$TMP/int.json" && ok || bad "the table after SIGINT and resume differs"

# ---- recordings ----
expect 0 "2 ok" -- "$BIN" sweep -t 'esp:soc={esp_2x3,esp_4x4}' --record-dir "$TMP/recs" --json -o "$TMP/rec.json"
[ -s "$TMP/recs/point-0000.rec" ] && [ -s "$TMP/recs/point-0001.rec" ] && ok || bad "no recording per point"
expect 0 "tile0.l2_hits" -- "$BIN" report -i "$TMP/recs/point-0001.rec" --summary

# ---- bad input ----
expect 2 "'{' at column 9 is never closed" -- "$BIN" sweep -t 'esp:soc={esp_2x3,esp_4x4' -o "$TMP/x.csv"
expect 2 "'}' at column 16 closes no '{'" -- "$BIN" sweep -t 'esp:soc=esp_2x3}' -o "$TMP/x.csv"
expect 2 "braces inside braces" -- "$BIN" sweep -t 'esp:soc={a,{b,c}}' -o "$TMP/x.csv"
expect 2 "unknown option 'bogus'" -- "$BIN" sweep -t 'esp:{soc,bogus}=esp_2x3' -o "$TMP/x.csv"
expect 2 "unknown option 'speed'" -- "$BIN" sweep -t 'esp:speed={1,2}' -o "$TMP/x.csv"
expect 2 "unknown target 'nosuch'" -- "$BIN" sweep -t 'nosuch:a={1,2}' -o "$TMP/x.csv"
expect 2 "an empty choice in {}" -- "$BIN" sweep -t 'esp:soc={}' -o "$TMP/x.csv"
expect 2 "an empty choice" -- "$BIN" sweep -t 'esp:soc={esp_2x3,}' -o "$TMP/x.csv"
expect 2 "the grid would have no point" -- "$BIN" sweep -t esp -w '' -o "$TMP/x.csv"
expect 2 "no grid" -- "$BIN" sweep -o "$TMP/x.csv"
expect 2 "no 'target SPEC' line" -- "$BIN" sweep -f /dev/null
expect 2 "--shard 3/2: expected K/N with 1 <= K <= N .*K is above N" -- "$BIN" sweep -t esp --shard 3/2
expect 2 "--shard 0/2" -- "$BIN" sweep -t esp --shard 0/2
expect 2 "--shard x" -- "$BIN" sweep -t esp --shard x
expect 2 "-j 0: expected a number" -- "$BIN" sweep -t esp -j 0
expect 2 "programs go after '--'" -- "$BIN" sweep -t ibex prog.elf
expect 2 "/nonexistent/dir" -- "$BIN" sweep -t esp -o /nonexistent/dir/t.csv
"$BIN" sweep -q -t esp -w multifft,idle --json -o "$TMP/other.json" >/dev/null 2>&1
expect 2 "is a table of another sweep" -- "$BIN" sweep merge "$TMP/esp.json" "$TMP/other.json" -o "$TMP/x.json"
expect 2 "not a table of socmon sweep" -- "$BIN" sweep merge "$TMP/esp.json" "$TMP/esp.sweep"
expect 2 "No such file" -- "$BIN" sweep merge "$TMP/esp.json" "$TMP/none.json"
printf 'point,sweep,points,target,workload,program,status,error,recording\n0,abc,1,esp,,,maybe,,\n' >"$TMP/badstatus.csv"
expect 2 "status 'maybe' is neither ok nor failed" -- "$BIN" sweep merge "$TMP/badstatus.csv"
printf 'not a table\n' >"$TMP/junk.csv"
expect 2 "exists and is not a sweep's table to resume" -- "$BIN" sweep -t esp -o "$TMP/junk.csv"
# a sweep file's 'run' line is checked before any point runs (issue 37): exit 2, the option named,
# no table written and no file made by a point
for run in "-o $TMP/RUNFILE" '-I' '-I abc' 'stray' '--json' '-- prog.elf'; do
    printf 'target esp\nworkload multifft\nrun %s\n' "$run" >"$TMP/run.sweep"
    rm -f "$TMP/run.csv"
    expect 2 "the 'run' line: the points' stat takes -e, -I" -- "$BIN" sweep -q -f "$TMP/run.sweep" -o "$TMP/run.csv"
    [ ! -e "$TMP/run.csv" ] && [ ! -e "$TMP/RUNFILE" ] && ok || bad "run $run: a point ran"
done
# and the message of the bad value itself
printf 'target esp\nrun -I abc\n' >"$TMP/run.sweep"
expect 2 "bad interval 'abc'" -- "$BIN" sweep -q -f "$TMP/run.sweep" -o "$TMP/run.csv"
printf 'target esp\nrun -o RUNFILE\n' >"$TMP/run.sweep"
expect 2 "option -o is not known here" -- "$BIN" sweep -q -f "$TMP/run.sweep" -o "$TMP/run.csv"
# a point twice in one table with different values: merge refuses it, as across tables
printf 'point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,abc,1,esp,,,ok,,,1\n0,abc,1,esp,,,ok,,,2\n' >"$TMP/twice.csv"
expect 2 "twice.csv:3: point 0 (esp) is in the table twice with different values" -- "$BIN" sweep merge "$TMP/twice.csv"
expect 0 "usage: socmon sweep" -- "$BIN" sweep --help
finish sweep
