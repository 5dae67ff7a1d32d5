#!/bin/sh
# A collector whose agent falls silent (issue 23 item 3): an agent frozen by SIGSTOP still holds
# its connection open, so only the missing STATS (sent every second) say it is gone. record
# --remote gives up within 10 s with a message and exit status 1, its file closed whole with every
# sample received; stat --remote ends the same way; serve --remote says so and keeps serving what
# came. And the flush every --flush period runs on a timer: a collector killed (-9) while its agent
# is silent has on disk every sample it received before the silence. A peer that drips bytes but
# never a whole frame is silent too.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WIRE="$SOCMON_SRC/tests/agent/wire_client.py"

# file_samples FILE: the sample count report --stats reads in FILE
file_samples() { "$BIN" report -i "$1" --stats 2>/dev/null | sed -n 's/^ *samples: *\([0-9,]*\).*/\1/p' | tr -d ,; }

# the fake agent of part 2, started first (python takes a while to start)
python3 "$WIRE" scripted "$TMP/fake.port" stall "$TMP/stalled" 2>"$TMP/fake.err" &
PIDS="$PIDS $!"

# 1. a real agent, frozen mid-run: record with the default timeout (5 s), stat and serve with 2 s
start_agent frozen -t esp -w multifft -I 1ms -d 600s
# (each exit status to a file, so a collector that never ends fails the test instead of hanging it;
# such a collector ends when the trap kills the agent)
("$BIN" record --remote "$AGENT" -o "$TMP/f.rec" -q --flush 50ms >"$TMP/rec.out" 2>&1; echo $? >"$TMP/rec.rc") &
RPID=$!
("$BIN" stat --remote "$AGENT" -d 600s --agent-timeout 2s >"$TMP/stat.out" 2>&1; echo $? >"$TMP/stat.rc") &
SPID=$!
"$BIN" serve --remote "$AGENT" --http 127.0.0.1:0 --port-file "$TMP/serve.port" --agent-timeout 2s \
    >"$TMP/serve.out" 2>&1 &
VPID=$!
PIDS="$PIDS $RPID $SPID $VPID"
has_samples() { [ "$(file_samples "$TMP/f.rec")" -gt 0 ] 2>/dev/null; }
wait_for has_samples || bad "the collector wrote nothing: $(cat "$TMP/rec.out")"
wait_for test -s "$TMP/serve.port" || bad "serve --remote did not start: $(cat "$TMP/serve.out")"
wait_for grep -q "showing agent" "$TMP/serve.out" || bad "serve --remote did not subscribe: $(cat "$TMP/serve.out")"
kill -STOP "$AGENT_PID"
t0=$(date +%s)
wait_for test -s "$TMP/rec.rc"
t1=$(date +%s)
rc=$(cat "$TMP/rec.rc" 2>/dev/null)
[ "$rc" = 1 ] && ok || bad "record --remote of a stopped agent exited $rc, expected 1: $(cat "$TMP/rec.out")"
[ $((t1 - t0)) -le 10 ] && ok || bad "record --remote took $((t1 - t0)) s to give up on a stopped agent (at most 10)"
grep -q "sent nothing for 5 s.*giving up" "$TMP/rec.out" && ok || bad "record did not say why: $(cat "$TMP/rec.out")"
# every sample received is in the file, which is whole (its end record written)
got=$(sed -n 's/^wrote \([0-9,]*\) samples.*/\1/p' "$TMP/rec.out" | tr -d ,)
[ -n "$got" ] && [ "$got" -gt 0 ] && [ "$(file_samples "$TMP/f.rec")" = "$got" ] && ok ||
    bad "the file holds $(file_samples "$TMP/f.rec") samples, the collector said: $(cat "$TMP/rec.out")"
expect 0 "lost: *nothing" -- "$BIN" report -i "$TMP/f.rec" --stats
wait_for test -s "$TMP/stat.rc"
rc=$(cat "$TMP/stat.rc" 2>/dev/null)
[ "$rc" = 1 ] && grep -q "sent nothing for 2 s" "$TMP/stat.out" && ok ||
    bad "stat --remote of a stopped agent: exit $rc, $(cat "$TMP/stat.out")"
# serve keeps the page of what came: it says so and still answers
wait_for grep -q "sent nothing for 2 s.*still serving what came" "$TMP/serve.out" ||
    bad "serve --remote did not say the agent went silent: $(cat "$TMP/serve.out")"
python3 - "$(cat "$TMP/serve.port")" <<'PY' && ok || bad "serve --remote stopped answering after its agent fell silent"
import json, sys, urllib.request
info = json.load(urllib.request.urlopen("http://127.0.0.1:%s/api/info" % sys.argv[1], timeout=10))
assert info, info
PY
kill -TERM "$VPID"
kill -CONT "$AGENT_PID"
stop_agent

# 2. the flush is on a timer: a fake agent sends 40 samples at once, then nothing (connection
# open). With --flush 100ms they reach the disk within 0.1 s although no sample follows them;
# the collector, killed -9 while it still waits, leaves them all readable.
wait_for test -s "$TMP/fake.port" || bad "the fake agent did not start: $(cat "$TMP/fake.err")"
"$BIN" record --remote "127.0.0.1:$(cat "$TMP/fake.port")" -o "$TMP/s.rec" -q --flush 100ms --agent-timeout 60s \
    >"$TMP/s.out" 2>&1 &
CPID=$!
PIDS="$PIDS $CPID"
wait_for test -e "$TMP/stalled" || bad "the fake agent never sent its samples"
all40() { [ "$(file_samples "$TMP/s.rec")" = 40 ]; }
wait_for all40 && ok || bad "40 samples received, $(file_samples "$TMP/s.rec") on disk while the agent is silent"
kill -0 "$CPID" 2>/dev/null && ok || bad "the collector ended before the test killed it: $(cat "$TMP/s.out")"
kill -9 "$CPID"
wait "$CPID" 2>/dev/null
[ "$(file_samples "$TMP/s.rec")" = 40 ] && ok || bad "after kill -9 the file holds $(file_samples "$TMP/s.rec") of 40"

# 3. a peer dripping a byte every 0.5 s never sends a whole frame: that is silence too
# (the timeout counts frames, not bytes)
python3 "$WIRE" scripted "$TMP/drip.port" drip 2>"$TMP/drip.err" &
PIDS="$PIDS $!"
wait_for test -s "$TMP/drip.port" || bad "the dripping agent did not start: $(cat "$TMP/drip.err")"
expect 1 "sent nothing for 2 s but part of a frame" -- timeout 15 "$BIN" record --remote \
    "127.0.0.1:$(cat "$TMP/drip.port")" -o "$TMP/d.rec" -q --agent-timeout 2s
[ "$(file_samples "$TMP/d.rec")" = 40 ] && ok || bad "the dripped-on file holds $(file_samples "$TMP/d.rec") of 40"

expect 2 "bad --agent-timeout '0'" -- "$BIN" record --remote 127.0.0.1:1 --agent-timeout 0
finish remote_silent
