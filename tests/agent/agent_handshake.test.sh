#!/bin/sh
# Peers that connect and never authenticate cannot keep collectors out (issue 23, item 1): past the
# per-address limit of 4 handshakes the oldest is dropped, not the newcomer; other addresses are not
# held up; a socket that sends nothing goes after 2 s; and with a peer holding 4 idle sockets and
# reopening each one the agent drops, a collector connects (retrying if it was the one dropped);
# refusals of unauthenticated peers cannot fill the log.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"

start_agent hs -t esp -I 1ms -d 600s
# 4 handshakes from 127.0.0.1 (started, so they would stay 10 s), not replaced; then a fifth
# from there, and one from 127.0.0.2
$WC hold "$AGENT" 4 "$TMP/keep.ready" 20 keep >"$TMP/keep.out" 2>&1 &
KPID=$!
PIDS="$PIDS $KPID"
wait_for test -e "$TMP/keep.ready" || bad "the idle sockets did not connect: $(cat "$TMP/keep.out")"
timeout 10 $WC idle "$AGENT" 127.0.0.2 >"$TMP/other.out" 2>&1 &
OPID=$!
PIDS="$PIDS $OPID"
out=$(timeout 10 $WC idle "$AGENT")
# the newcomers stay until their own deadline: 2 s for a socket that sends nothing (not 10 s)
echo "$out" | grep -q "ERROR 1: sent nothing within 2 s" && ok || bad "the fifth handshake from 127.0.0.1: $out"
echo "$out" | grep -Eq "after [0-3]\.[0-9] s" && ok || bad "idle socket held too long: $out"
wait "$OPID"
grep -q "ERROR 1: sent nothing within 2 s" "$TMP/other.out" && ok ||
    bad "a handshake from 127.0.0.2: $(cat "$TMP/other.out")"
# ... and the oldest of 127.0.0.1's was dropped for it, with a word for the log
grep -q "dropped 127.0.0.1:[0-9]*: too many connections in their handshake from this address" "$TMP/hs.err" && ok ||
    bad "no oldest handshake dropped: $(cat "$TMP/hs.err")"
kill "$KPID" 2>/dev/null

# the hostile peer: 4 idle sockets, each replaced at once, for at most 20 s (the test kills it sooner)
$WC hold "$AGENT" 4 "$TMP/hold.ready" 20 >"$TMP/hold.out" 2>&1 &
HPID=$!
PIDS="$PIDS $HPID"
wait_for test -e "$TMP/hold.ready" || bad "the idle sockets did not connect: $(cat "$TMP/hold.out")"
for i in 1 2; do
    expect 0 "wrote [0-9]* samples" -- timeout 5 "$BIN" record --remote "$AGENT" -d 100ms -o "$TMP/r$i.rec"
done
kill "$HPID" 2>/dev/null
stop_agent

# a peer reconnecting in a loop with junk gets its ERROR every time, but the log holds at most 10
# lines about unauthenticated peers in 10 s (each refusal used to be a line: a disk filled)
start_agent junk -t esp -I 1ms -d 600s
out=$(timeout 20 $WC junk "$AGENT" 200)
[ "$out" = "200 errors" ] && ok || bad "junk peer: $out"
n=$(grep -Ec "(refused|dropped) 127\.0\.0\.1" "$TMP/junk.err")
[ "$n" -ge 1 ] && [ "$n" -le 10 ] && ok || bad "200 refused handshakes wrote $n log lines (at most 10): $(head -3 "$TMP/junk.err")"
stop_agent
finish agent_handshake
