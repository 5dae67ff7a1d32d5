#!/bin/sh
# Where a remote recording starts (issue 28, item 1): `record --remote -d D` joining an agent that
# has run a while records the next D from now, not the first D of the agent's run; --from oldest
# starts at the oldest sample the agent still holds; the first line says which; live lines are
# printed as a local record prints them; the last line says what arrived. An --append continues a
# --from now file at the agent's right seq.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"

# the first sample's time (ns of the agent's target time since its run started) of recording $1
first_t() { "$BIN" report -i "$1" -x, 2>/dev/null | sed -n 2p | cut -d, -f1; }

# option errors come before any connection
expect 2 "--from is for --remote" -- "$BIN" record --from now -d 1ms -o "$TMP/x.rec"
expect 2 "bad --from 'later' (expected now or oldest)" -- "$BIN" record --remote 127.0.0.1:1 --from later
expect 2 "--from does not go with it" -- "$BIN" record --remote 127.0.0.1:1 --from now --append -o "$TMP/x.rec"

# A paced agent (1 ms of target time per ms) whose ring (1,500 samples) holds its last 1.5 s. The
# ring is what lets step 3's --append, a second process started after a first one, continue with
# nothing lost: its margin is the time between those two processes, which under ASan on a loaded
# CI machine was once more than half a second (a 500-sample ring lost 77 samples there).
RING=1500
start_agent paced -t esp -w multifft -I 1ms -d 600s --ring $RING
sleep 3

# 1. --from now -d 1s: the file's first sample is after 2.5 s of the agent's run, and nothing
# before it counts as lost (it was never asked for)
"$BIN" record --remote "$AGENT" --from now -d 1s -o "$TMP/now.rec" >"$TMP/now.out" 2>"$TMP/now.err" ||
    bad "record --from now failed: $(cat "$TMP/now.err")"
t=$(first_t "$TMP/now.rec")
[ -n "$t" ] && [ "$t" -gt 2500000000 ] && ok || bad "--from now: first sample at t=$t ns, expected after 2.5 s"
head -1 "$TMP/now.err" | grep -q "from agent $AGENT (target esp.*--from now: from its next sample" && ok ||
    bad "--from now: the first line does not say so: $(head -1 "$TMP/now.err")"
expect 0 "lost: *nothing" -- "$BIN" report -i "$TMP/now.rec" --stats
# the live lines, as local record prints them (stdout), and what arrived
grep -q "ms  l2_hit_rate_all=" "$TMP/now.out" && ok || bad "record --remote printed no live lines: $(head -3 "$TMP/now.out")"
grep -Eq "^wrote 1,001 samples \(0 lost at the agent\): 1,001 samples from agent $AGENT \(target esp\) over 1.000 s of target time \(seq [0-9]+\.\.[0-9]+\), to $TMP/now.rec" \
    "$TMP/now.out" && ok || bad "the last line does not say what arrived: $(tail -1 "$TMP/now.out")"

# 2. -d without --from is --from now
"$BIN" record --remote "$AGENT" -d 100ms -q -o "$TMP/d.rec" 2>"$TMP/d.err" >/dev/null || bad "record -d failed: $(cat "$TMP/d.err")"
t=$(first_t "$TMP/d.rec")
[ -n "$t" ] && [ "$t" -gt 2500000000 ] && ok || bad "-d without --from: first sample at t=$t ns, expected now (> 2.5 s)"

# 3. --append continues a --from now file at the agent's next seq: one file, nothing lost, no
# sample repeated (a resume at the file's own index would go back to the run's start)
expect 0 "continuing '$TMP/d.rec' at seq" -- "$BIN" record --remote "$AGENT" -d 50ms --append -o "$TMP/d.rec"
expect 0 "lost: *nothing" -- "$BIN" report -i "$TMP/d.rec" --stats
expect 0 "samples: *15[0-9]" -- "$BIN" report -i "$TMP/d.rec" --stats

# 4. --from oldest: the oldest sample the ring still holds (its 1,500 samples: 1.5 s back; the agent
# has run more than 4 s by now), and the first line names its seq; what the ring no longer held was
# not asked for: not lost
"$BIN" record --remote "$AGENT" --from oldest -d 100ms -o "$TMP/old.rec" >/dev/null 2>"$TMP/old.err" ||
    bad "record --from oldest failed: $(cat "$TMP/old.err")"
seq=$(head -1 "$TMP/old.err" | sed -n 's/.*--from oldest: from the oldest sample it holds (seq \([0-9]*\) of \([0-9]*\) taken).*/\1 \2/p')
set -- $seq
if [ $# = 2 ] && [ "$1" -gt 0 ] && [ $(($2 - $1)) -le $((RING + 20)) ]; then ok; else
    bad "--from oldest: the first line does not name the ring's oldest seq: $(head -1 "$TMP/old.err")"
fi
t=$(first_t "$TMP/old.rec")
# seq N is sampled at (N + 1) ms of the run. The ring moves on between the HELLO the first line
# reads and the subscription: a few ms, but 63 ms once under ASan on a loaded CI machine, so the
# window is half the ring: the start is still 750 ms before the samples taken at the HELLO,
# which a start "now" would be at
if [ $# = 2 ] && [ -n "$t" ] && [ "$t" -ge "$((($1 + 1) * 1000000))" ] && [ "$t" -le "$((($1 + RING / 2) * 1000000))" ] &&
    [ "$t" -lt "$(($2 * 1000000 - 300000000))" ]; then ok; else
    bad "--from oldest: first sample at t=$t ns, expected the oldest held, seq ${1:-?}"
fi
expect 0 "lost: *nothing" -- "$BIN" report -i "$TMP/old.rec" --stats
stop_agent

finish remote_from
