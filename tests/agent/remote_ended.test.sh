#!/bin/sh
# A remote recording of a run that is over (issue 37, item 8): `record --remote -d 1s` (or --from
# now) joining an agent whose workload has ended used to wait, write a file of 0 intervals and exit
# 0. The agent's HELLO says its run is over, so record now says so, with what the ring holds and
# that --from oldest records it, writes no file and exits 1; --from oldest records the ring; an
# --append that gets nothing new exits 1 saying why. A ring smaller than the run names the seqs it
# still holds.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"

# an unpaced agent whose workload ends within milliseconds; it then serves its ring
start_agent done -t esp -w multifft -I 1ms --no-pace
wait_for grep -q "run ended" "$TMP/done.err" || bad "the agent's run did not end: $(cat "$TMP/done.err")"
n=$(sed -n 's/.*run ended (workload done) after \([0-9]*\) samples.*/\1/p' "$TMP/done.err")
[ -n "$n" ] && [ "$n" -gt 1 ] && ok || bad "the agent did not say how many samples it took: $(cat "$TMP/done.err")"
held="its ring holds $n samples (seq 0\.\.$((n - 1)))"

for from in "-d 1s" "--from now" "--from now -d 1s"; do
    # shellcheck disable=SC2086
    expect 1 "the run of agent $AGENT has ended (it took $n samples).*$held: 'socmon record --remote $AGENT --from oldest' records them" \
        -- "$BIN" record --remote "$AGENT" $from -o "$TMP/now.rec"
    [ ! -e "$TMP/now.rec" ] && ok || bad "record --remote $from wrote a file of an ended run"
done
# -q does not hide it: it is the error
expect 1 "has ended" -- "$BIN" record --remote "$AGENT" -d 1s -q -o "$TMP/now.rec"

# --from oldest records what the ring holds, all of it
expect 0 "^wrote $n samples (0 lost at the agent)" -- "$BIN" record --remote "$AGENT" --from oldest -q -o "$TMP/old.rec"
expect 0 "samples: *$n" -- "$BIN" report -i "$TMP/old.rec" --stats
# an --append that gets nothing new: exit 1, with why; the file is as it was
expect 1 "recorded no interval: the agent's run ended (workload done) before a sample after the file's last; $held" \
    -- "$BIN" record --remote "$AGENT" --append -q -o "$TMP/old.rec"
expect 0 "samples: *$n" -- "$BIN" report -i "$TMP/old.rec" --stats
stop_agent

# a ring smaller than the run: it holds the newest 8, and says which
start_agent small -t esp -w multifft -I 100us --no-pace --ring 8
wait_for grep -q "run ended" "$TMP/small.err" || bad "the agent's run did not end: $(cat "$TMP/small.err")"
n=$(sed -n 's/.*run ended (workload done) after \([0-9]*\) samples.*/\1/p' "$TMP/small.err")
[ -n "$n" ] && [ "$n" -gt 8 ] && ok || bad "the small ring's agent took $n samples: $(cat "$TMP/small.err")"
expect 1 "its ring holds 8 samples (seq $((n - 8))\.\.$((n - 1)))" -- "$BIN" record --remote "$AGENT" -d 1s -o "$TMP/s.rec"
stop_agent
finish remote_ended
