#!/bin/sh
# At its fd limit the agent neither spins nor floods its log (issue 23, item 5): when accept fails
# with EMFILE it says so once and stops polling its listening socket for a while; once the peers
# close, collectors connect again.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"
LIMIT=24

# the agent under `ulimit -n 24` (exec keeps the pid)
printf '#!/bin/sh\nulimit -n %s || exit 99\nexec "%s" "$@"\n' "$LIMIT" "$BIN" >"$TMP/lowfd"
chmod +x "$TMP/lowfd"
BIN=$TMP/lowfd start_agent fd -t esp -I 100ms -d 600s --max-clients 64
# 40 authenticated connections for at most 20 s: more than the agent has fds for
$WC hold "$AGENT" 40 "$TMP/hold.ready" 20 subscribe >"$TMP/hold.out" 2>&1 &
HPID=$!
PIDS="$PIDS $HPID"
wait_for test -e "$TMP/hold.ready" || bad "the peer did not connect: $(cat "$TMP/hold.out")"
full() { [ "$(ls /proc/"$AGENT_PID"/fd | awk -v l="$LIMIT" '$1 < l' | wc -l)" -ge "$LIMIT" ]; }
wait_for full || bad "the agent never reached its fd limit: $(ls /proc/"$AGENT_PID"/fd | tr '\n' ' ')"

# its CPU time (utime + stime, all threads) over 2 s: a spinning accept loop costs a whole core
ticks() { awk '{print $14 + $15}' "/proc/$AGENT_PID/stat"; }
t0=$(ticks)
sleep 2
t1=$(ticks)
hz=$(getconf CLK_TCK)
pct=$(( (t1 - t0) * 100 / (2 * hz) ))
echo "agent CPU at its fd limit: ${pct}% of a core over 2 s"
[ "$pct" -lt 20 ] && ok || bad "the agent used ${pct}% of a core at its fd limit"

kill "$HPID" 2>/dev/null
wait "$HPID" 2>/dev/null
expect 0 "wrote [0-9]* samples" -- timeout 10 "$BIN" record --remote "$AGENT" -d 100ms -o "$TMP/after.rec" -q
stop_agent
n=$(grep -c "file descriptors" "$TMP/fd.err")
[ "$n" -ge 1 ] && [ "$n" -le 2 ] && ok || bad "expected one or two lines about file descriptors, got $n: $(cat "$TMP/fd.err")"
grep -q "out of file descriptors" "$TMP/fd.err" && ok || bad "the agent did not say it ran out of fds"
lines=$(wc -l <"$TMP/fd.err")
[ "$lines" -lt 300 ] && ok || bad "the agent's log has $lines lines"
finish agent_fdlimit
