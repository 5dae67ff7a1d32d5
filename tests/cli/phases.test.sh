#!/bin/sh
# Workload phases (docs/recording-format.md "Phases"): `record -t esp -w multifft` carries the
# workload's four coherence phases; report shows each row's phase in table, CSV and JSON,
# --perfetto one slice per phase at the phases' times, --html the phases in the page's data
# (phases.py checks all of them against each other). A workload without phases and the old
# fixtures report as before, with no phase column.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

R=$TMP/x.rec
"$BIN" record -t esp -w multifft -I 200us -q -o "$R" 2>/dev/null && ok || bad "record esp multifft"
"$BIN" report -i "$R" >"$TMP/x.txt" 2>/dev/null && ok || bad "report (table)"
"$BIN" report -i "$R" -x, >"$TMP/x.csv" 2>/dev/null && ok || bad "report -x,"
"$BIN" report -i "$R" --json >"$TMP/x.json" 2>/dev/null && ok || bad "report --json"
"$BIN" report -i "$R" --perfetto "$TMP/p.json" 2>/dev/null && ok || bad "report --perfetto"
"$BIN" report -i "$R" --html "$TMP/p.html" 2>/dev/null && ok || bad "report --html"
python3 "$SOCMON_SRC/tests/cli/phases.py" "$TMP" && ok || bad "phases in report, trace and page"

# a workload without phases: no column, no attachment
"$BIN" record -t esp -w cpu_stream -I 200us -q -o "$TMP/c.rec" 2>/dev/null && ok || bad "record cpu_stream"
"$BIN" report -i "$TMP/c.rec" -x, 2>/dev/null | head -1 | grep -q ',phase,' && bad "cpu_stream has a phase column" || ok
# recordings from before phases still read, with no column
for f in "$SOCMON_SRC"/tests/core/fixtures/*.rec; do
    "$BIN" report -i "$f" -x, >"$TMP/old.csv" 2>&1 && ok || { bad "old recording $f"; cat "$TMP/old.csv"; }
    head -1 "$TMP/old.csv" | grep -q ',phase,' && bad "$f has a phase column" || ok
done
finish phases
