#!/bin/sh
# report --perfetto OUT.json: a Chrome trace-event JSON file for the Perfetto UI
# (docs/perfetto.md), checked with python3's json against report's own JSON:
# every counter and metric result has a counter track, each track's value over
# every interval equals report's delta (metric) for it, timestamps never go
# back on a track, the events are those Perfetto's JSON importer reads (C with
# numeric args, M names, X with dur, i with a scope), a recording with gaps
# shows each gap as a "gap" slice with every track at 0 over it, and the file
# grows linearly with the recording. A program's recording (Ibex) adds its
# profile's function slices on a "hart 0" thread: they nest, their depths are
# the nesting, they lie inside the counter tracks' time range, there is one per
# frame the profile counted, and dropped slices are said (perfetto_slices.py).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
GAP=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}/rec_gap
CHECK=$SOCMON_SRC/tests/cli/perfetto_check.py

R=$TMP/z.rec
"$BIN" record -t zynq -I 100us -d 5ms -q -o "$R" 2>/dev/null && ok || bad "record zynq"
expect 0 "wrote $TMP/z.json: 50 intervals, 44 counter and [0-9]* metric tracks" -- \
    "$BIN" report -i "$R" --perfetto "$TMP/z.json"
"$BIN" report -i "$R" --json --deltas >"$TMP/z.report.json" 2>/dev/null || bad "report --json"
python3 "$CHECK" "$TMP/z.json" "$TMP/z.report.json" && ok || bad "zynq trace"

# gaps: rows 10..14 and 20..22 dropped as gaps the writer declared
"$GAP" "$R" "$TMP/g.rec" 10:5 20:3 && ok || bad "rec_gap"
expect 0 "wrote $TMP/g.json: 42 intervals" -- "$BIN" report -i "$TMP/g.rec" --perfetto "$TMP/g.json"
"$BIN" report -i "$TMP/g.rec" --json --deltas >"$TMP/g.report.json" 2>/dev/null || bad "report --json (gaps)"
python3 "$CHECK" "$TMP/g.json" "$TMP/g.report.json" 2 && ok || bad "trace with gaps"

# ESP: 259 counters in 64 tile processes, per-instance metrics
"$BIN" record -t esp -w multifft -I 10us -q -o "$TMP/e.rec" 2>/dev/null && ok || bad "record esp"
"$BIN" report -i "$TMP/e.rec" --perfetto "$TMP/e.json" 2>/dev/null && ok || bad "report --perfetto esp"
"$BIN" report -i "$TMP/e.rec" --json --deltas >"$TMP/e.report.json" 2>/dev/null || bad "report --json esp"
python3 "$CHECK" "$TMP/e.json" "$TMP/e.report.json" && ok || bad "esp trace"

# linear: four times the recording, about four times the events (streamed, nothing per pair)
"$BIN" record -t zynq -I 100us -d 20ms -q -o "$TMP/z4.rec" 2>/dev/null || bad "record zynq x4"
"$BIN" report -i "$TMP/z4.rec" --perfetto "$TMP/z4.json" 2>/dev/null || bad "report --perfetto x4"
python3 - "$TMP/z.json" "$TMP/z4.json" <<'PY' && ok || bad "not linear"
import json, sys
a, b = (len(json.load(open(p))["traceEvents"]) for p in sys.argv[1:3])
assert 2.5 * a < b < 5.5 * a, (a, b)
PY

# a program's function slices: the committed cprog.elf, and callgraph.elf (recursion, mutual
# recursion, a trap) when the RISC-V compiler is there; a zynq trace has none
SLICES=$SOCMON_SRC/tests/cli/perfetto_slices.py
! grep -q '"hart 0"' "$TMP/z.json" && ok || bad "a trace without a profile has a hart thread"
"$BIN" record -t ibex -I 2us -q -o "$TMP/c.rec" -- "$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf" >/dev/null 2>&1 &&
    ok || bad "record cprog.elf"
expect 0 "wrote $TMP/c.json: [0-9]* intervals, [0-9]* counter and [0-9]* metric tracks, [1-9][0-9]* function slices on hart 0" -- \
    "$BIN" report -i "$TMP/c.rec" --perfetto "$TMP/c.json"
"$BIN" report -i "$TMP/c.rec" --children --json >"$TMP/c.children.json" 2>/dev/null || bad "report --children cprog"
python3 "$SLICES" "$TMP/c.json" "$TMP/c.children.json" --min-depth 4 && ok || bad "cprog's slices"
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/profile" O="$TMP/cg" >"$TMP/cg.log" 2>&1 || cat "$TMP/cg.log"
    "$BIN" record -t ibex -I 5us -q -o "$TMP/cg.rec" -- "$TMP/cg/callgraph.elf" >/dev/null 2>&1 && ok || bad "record callgraph"
    "$BIN" report -i "$TMP/cg.rec" --perfetto "$TMP/cg.json" 2>/dev/null && ok || bad "report --perfetto callgraph"
    "$BIN" report -i "$TMP/cg.rec" --children --json >"$TMP/cg.children.json" 2>/dev/null || bad "report --children"
    python3 "$SLICES" "$TMP/cg.json" "$TMP/cg.children.json" --min-depth 10 && ok || bad "callgraph's slices"
    # at most 20 entries kept: the rest dropped, said in the trace and on stderr
    "$BIN" record -t ibex:slices=20 -I 20us -q -o "$TMP/cd.rec" -- "$TMP/cg/callgraph.elf" >/dev/null 2>&1 ||
        bad "record callgraph slices=20"
    expect 0 "the profile dropped [1-9][0-9]* function entries past the 20 it kept" -- \
        "$BIN" report -i "$TMP/cd.rec" --perfetto "$TMP/cd.json"
    "$BIN" report -i "$TMP/cd.rec" --children --json >"$TMP/cd.children.json" 2>/dev/null || bad "report --children"
    python3 "$SLICES" "$TMP/cd.json" "$TMP/cd.children.json" --expect-dropped && ok || bad "dropped slices"
else
    echo "perfetto: no riscv64-unknown-elf-gcc: callgraph.elf's slices are not checked"
fi

# a safe output: an existing file moves aside, --force replaces it, a failure leaves nothing
expect 0 "moved the existing '$TMP/z.json' to '$TMP/z.json.old'" -- "$BIN" report -i "$R" --perfetto "$TMP/z.json"
cmp -s "$TMP/z.json" "$TMP/z.json.old" && ok || bad "the re-written trace differs"
expect 0 "wrote" -- "$BIN" report -i "$R" --perfetto "$TMP/z.json" --force
expect 1 "$TMP/nodir" -- "$BIN" report -i "$R" --perfetto "$TMP/nodir/t.json"
expect 1 "" -- "$BIN" report -i "$TMP/none.rec" --perfetto "$TMP/n.json"
[ ! -e "$TMP/n.json" ] && ok || bad "a failed report left $TMP/n.json"
expect 2 "cannot be combined with --summary" -- "$BIN" report -i "$R" --perfetto "$TMP/x.json" --summary
expect 2 "cannot be combined with -x/--json" -- "$BIN" report -i "$R" --perfetto "$TMP/x.json" --json
expect 2 "--force applies to --perfetto" -- "$BIN" report -i "$R" --force
expect 0 "--perfetto OUT.json" -- "$BIN" report --help
finish perfetto
