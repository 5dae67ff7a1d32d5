#!/bin/sh
# Issue 28: a counter the program stopped (mcountinhibit) is said in every format: the table's
# note, JSON's "inhibited" (issue 27), and now CSV records "inhibited,COUNTER,,CYCLES,cycles"
# (before, CSV had only a note on stderr, which a spreadsheet never sees).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
E=$SOCMON_SRC/tests/cli/baseline/elf

# with a program, stdout is the program's and socmon's output goes to stderr
"$BIN" stat -t ibex -x, -- "$E/cprog.elf" >/dev/null 2>"$TMP/c.csv" || bad "stat -x, cprog"
python3 - "$TMP/c.csv" <<'PY' && ok || bad "CSV lacks the inhibited counters"
import csv, sys
rows = [r for r in csv.reader(open(sys.argv[1])) if r and r[0] == "inhibited"]
assert len(rows) == 12, rows
names = {r[1] for r in rows}
assert {"cycles", "instret"} <= names, names
# cprog's crt0 stops every counter for the same 3,851 cycles (the table's note says so too)
assert all(r[3] == "3851" and r[4] == "cycles" for r in rows), rows
PY
grep -q "note:" "$TMP/c.csv" && bad "CSV still has the inhibited note as text: $(grep note: "$TMP/c.csv")" || ok
expect 0 "note: cycles (mcycle), instret (minstret) and 10 more counted 65.8 %" -- "$BIN" stat -t ibex -- "$E/cprog.elf"
finish inhibited_fields
