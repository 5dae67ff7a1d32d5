#!/bin/sh
# The region example measured (SOCMON_REGIONS set) and its recording read by socmon report:
# each thread's two "work" calls counted, "fill" took the page faults of 2 x 256 fresh pages.
set -u
BIN=${SOCMON_BIN:?}
BUILD=${SOCMON_BUILD:?}
EX="$BUILD/examples/regions/example_regions"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
[ -x "$EX" ] || { echo "FAIL: $EX not built"; exit 1; }
SOCMON_REGIONS="$TMP/r.smr" SOCMON_REGIONS_EVENTS=task-clock,page-faults "$EX" > "$TMP/out" 2>&1
rc=$?
if grep -q "not available here" "$TMP/out"; then echo "skip: perf_event_open unavailable"; exit 0; fi
[ $rc = 0 ] || { echo "FAIL: example exit $rc: $(cat "$TMP/out")"; exit 1; }
"$BIN" report -i "$TMP/r.smr" --summary -x, > "$TMP/sum" || { echo "FAIL: report"; exit 1; }
calls=$(awk -F, '$1 == "counter" && $2 == "work.calls" { print $4 }' "$TMP/sum")
pf=$(awk -F, '$1 == "counter" && $2 == "fill.page_faults" { print $4 }' "$TMP/sum")
[ "$calls" = 2 ] || { echo "FAIL: work.calls '$calls'"; cat "$TMP/sum"; exit 1; }
[ -n "$pf" ] && [ "$pf" -ge 500 ] && [ "$pf" -le 700 ] || { echo "FAIL: fill.page_faults '$pf' (512 pages touched)"; exit 1; }
echo "regions_example: ok (work.calls=$calls fill.page_faults=$pf)"
