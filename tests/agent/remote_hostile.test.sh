#!/bin/sh
# What a hostile or broken agent sends never reaches the terminal raw, and never goes into a
# recording unchecked (issue 23 items 9 and 12): a fake agent (wire_client.py scripted) whose
# HELLO text and END reason hold ESC sequences, CR/LF and a C1 CSI; one whose counter name holds
# ESC (refused, the byte named); one whose clock goes backwards (refused, both times named, the
# samples before kept). A recording file is input too: tools/rec_hostile writes one with such
# strings, and report shows them escaped in every format.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WIRE="$SOCMON_SRC/tests/agent/wire_client.py"
HOSTILE=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}/rec_hostile

for sc in hostile badname backwards; do   # started together: python is slow to start
    python3 "$WIRE" scripted "$TMP/$sc.port" $sc 2>"$TMP/$sc.err" &
    PIDS="$PIDS $!"
done
fake() {
    wait_for test -s "$TMP/$1.port" || bad "fake agent $1 did not start: $(cat "$TMP/$1.err")"
    echo "127.0.0.1:$(cat "$TMP/$1.port")"
}

# clean FILE WHAT: FILE has no raw ESC, CR or C1 CSI byte (0x9b, also inside U+009B), and no
# line an agent forged
RAW=$(printf '[\033\r\233]')
clean() {
    if LC_ALL=C grep -q "$RAW" "$1" || grep -q '^FORGED' "$1"; then
        bad "$2: the peer's control bytes reached the output: $(od -c "$1" | head -20)"
    else ok; fi
}

# 1. HELLO text and END's reason: escaped on receipt, in record's messages, the file and report
A=$(fake hostile)
"$BIN" record --remote "$A" -o "$TMP/h.rec" >"$TMP/rec.out" 2>&1 || bad "record --remote: $(cat "$TMP/rec.out")"
clean "$TMP/rec.out" "record --remote"
grep -q 'run over\\x1b\[2J\\x0aFORGED-END' "$TMP/rec.out" && ok || bad "END's reason not shown escaped: $(cat "$TMP/rec.out")"
"$BIN" stat --remote "$A" >"$TMP/stat.out" 2>&1 || bad "stat --remote: $(cat "$TMP/stat.out")"
clean "$TMP/stat.out" "stat --remote"
grep -q "workload 'w\\\\x1b\[31m\\\\x0aFORGED-WORKLOAD'" "$TMP/stat.out" && ok ||
    bad "stat --remote does not show the workload escaped: $(cat "$TMP/stat.out")"
for f in "" "--summary" "-x, --deltas" "--summary -x," "--json" "--stats"; do
    "$BIN" report -i "$TMP/h.rec" $f >"$TMP/rep.out" 2>&1 || bad "report $f: $(cat "$TMP/rep.out")"
    clean "$TMP/rep.out" "report $f of a remote recording"
done
"$BIN" report -i "$TMP/h.rec" >"$TMP/rep.out" 2>&1
grep -q "recording of 'fake\\\\x1b\[2J\\\\x0aFORGED-TARGET' (dev\\\\x1b\]0;pwned\\\\x07" "$TMP/rep.out" && ok ||
    bad "report does not show the target and device escaped: $(cat "$TMP/rep.out")"

# 2. a recording file written with such strings (a hostile .rec): report escapes them on output
"$HOSTILE" "$TMP/c.rec" || bad "rec_hostile"
for f in "" "--summary" "-x, --deltas" "--summary -x," "--json" "--stats"; do
    "$BIN" report -i "$TMP/c.rec" $f >"$TMP/rep.out" 2>&1 || bad "report $f: $(cat "$TMP/rep.out")"
    clean "$TMP/rep.out" "report $f of a crafted recording"
done
"$BIN" report -i "$TMP/c.rec" --summary >"$TMP/rep.out" 2>&1
grep -q 'ev\\x1b\[1m\\x0aFORGED-UNIT' "$TMP/rep.out" && ok || bad "report does not show the unit escaped: $(cat "$TMP/rep.out")"

# 3. a counter name that is not an identifier: refused on receipt, the byte named
A=$(fake badname)
"$BIN" record --remote "$A" -o "$TMP/b.rec" >"$TMP/bad.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "counter 0 name 'c\\\\x1b\[2J' holds byte 0x1b at offset 1" "$TMP/bad.out" && ok ||
    bad "a counter name with ESC: exit $rc, $(cat "$TMP/bad.out")"
clean "$TMP/bad.out" "record --remote refusing a name"

# 4. a clock going backwards (1000, 2000, then 1500 ns): refused with both times; the two samples
# before it are in the file, which is whole
A=$(fake backwards)
"$BIN" record --remote "$A" -o "$TMP/t.rec" >"$TMP/t.out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "agent $A: sample seq 2 has time 1500 ns, before the 2000 ns of seq 1" "$TMP/t.out" && ok ||
    bad "a backwards timestamp: exit $rc, $(cat "$TMP/t.out")"
grep -q "^wrote 2 samples" "$TMP/t.out" && ok || bad "record did not keep the 2 samples before: $(cat "$TMP/t.out")"
"$BIN" report -i "$TMP/t.rec" --stats >"$TMP/ts.out" 2>&1
grep -Eq "samples: +2$" "$TMP/ts.out" && grep -q "lost: *nothing" "$TMP/ts.out" && ok ||
    bad "the file of a refused backwards sample: $(cat "$TMP/ts.out")"
finish remote_hostile
