#!/bin/sh
# A reader that goes away never kills record (issue 23, item 6). `record | head -2`: the live
# lines stop with a note on stderr, the recording goes on to its end and closes whole (its end
# record, as many samples as a run without head), exit status 0. A FIFO given as -o whose reader
# goes away: the run stops with exit 1 and a message naming EPIPE, never a silent SIGPIPE death.
# stat and report under `| head -1` end quietly (0, or SIGPIPE's 141 as any filter), no message.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

# 2,000 live lines of ~180 bytes: far more than a pipe holds, so record is still writing them
# when head has gone (it blocks on the full pipe until then): the EPIPE is certain, not a race.
REC="record -t esp -d 20ms -I 10us"
"$BIN" $REC -q -o "$TMP/ref.rec" >/dev/null 2>&1 || bad "reference record failed"
samples() { "$BIN" report -i "$1" --stats --json | python3 -c '
import json, sys
j = json.load(sys.stdin)
print(j["samples"] if j["complete"] else "incomplete: %s" % j["lost"])'; }
want=$(samples "$TMP/ref.rec")

{ "$BIN" $REC -o "$TMP/head.rec" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -2 >"$TMP/head.out"
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] && ok || bad "record | head -2: exit $rc (141 is SIGPIPE): $(cat "$TMP/err")"
[ "$(wc -l <"$TMP/head.out")" = 2 ] && ok || bad "head did not get its 2 lines"
grep -q "reader of the live lines went away (EPIPE) at interval [0-9]*: no more live lines" "$TMP/err" && ok ||
    bad "record | head -2: no note on stderr: $(cat "$TMP/err")"
grep -q "^wrote 2,001 samples" "$TMP/err" && ok || bad "record | head -2: no summary on stderr: $(cat "$TMP/err")"
[ "$(grep -c . "$TMP/err")" = 2 ] && ok || bad "record | head -2: more than the note and summary: $(cat "$TMP/err")"
got=$(samples "$TMP/head.rec")
[ "$want" = 2001 ] && [ "$got" = "$want" ] && ok || bad "record | head -2: file holds '$got', a run without head '$want'"

# -q: only the summary goes to stdout, and its reader is gone by then: it goes to stderr, exit 0.
{ "$BIN" $REC -q -o "$TMP/q.rec" 2>"$TMP/err"; echo $? >"$TMP/rc"; } | true
rc=$(cat "$TMP/rc")
[ "$rc" = 0 ] && [ "$(samples "$TMP/q.rec")" = "$want" ] && ok || bad "record -q | true: exit $rc: $(cat "$TMP/err")"

# The recording's FIFO (one tile's counters: a header shorter than the pipe's 64 KiB): its reader
# takes 100 bytes of the header and leaves; the first block
# (at the first 50 ms flush) meets EPIPE.
mkfifo "$TMP/fifo"
head -c 100 "$TMP/fifo" >/dev/null &
reader=$!
i=0   # until head has opened its end: a refused attempt leaves the FIFO as it was
while out=$("$BIN" record -q --realtime -I 1ms -d 20s --flush 50ms --force -e 'tile0.*' -o "$TMP/fifo" 2>&1); rc=$?;
      [ $rc = 1 ] && [ $i -lt 100 ] && printf '%s' "$out" | grep -q "no reader"; do
    sleep 0.05; i=$((i + 1))
done
wait $reader
[ $rc = 1 ] && ok || bad "record into a FIFO whose reader left: exit $rc (141 is SIGPIPE): $out"
printf '%s' "$out" | grep -q "writing '$TMP/fifo': recording: writing block 0 .*Broken pipe (EPIPE 32)" && ok ||
    bad "record into a FIFO whose reader left: no EPIPE message: $out"
printf '%s' "$out" | grep -q "^wrote 0 samples" && ok || bad "record into a FIFO whose reader left: no summary: $out"

# stat and report: a reader that leaves ends them quietly, with no file cut short.
for cmd in "stat -t esp -d 20ms -I 10us -x," "report -i $TMP/head.rec" "report -i $TMP/head.rec -x,"; do
    { "$BIN" $cmd 2>"$TMP/err"; echo $? >"$TMP/rc"; } | head -1 >/dev/null
    rc=$(cat "$TMP/rc")
    { [ "$rc" = 0 ] || [ "$rc" = 141 ]; } && [ ! -s "$TMP/err" ] && ok || bad "$cmd | head -1: exit $rc: $(cat "$TMP/err")"
done
"$BIN" stat -t esp -d 20ms -I 10us -x, -o "$TMP/stat.csv" | head -1
"$BIN" stat -t esp -d 20ms -I 10us -x, -o "$TMP/stat_ref.csv"
cmp -s "$TMP/stat.csv" "$TMP/stat_ref.csv" && ok || bad "stat -o FILE | head -1: FILE differs from a run without head"
finish "record_pipe"
