# Shared by tests/agent/*.test.sh: start agents on loopback ports chosen race-free (port 0, reported
# through --port-file) and make sure every process started is gone when the test ends, even when it
# fails. Source after tests/support/expect.sh.
PIDS=""
trap 'for p in $PIDS; do kill -9 "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# wait_for COND_COMMAND...: retries for up to 20 s; 0 once the condition holds.
wait_for() {
    i=0
    while [ $i -lt 400 ]; do
        "$@" && return 0
        sleep 0.05
        i=$((i + 1))
    done
    return 1
}

# start_agent NAME ARGS...: runs `socmon agent ARGS --listen 127.0.0.1:0 --port-file ...` in the
# background, stderr to $TMP/NAME.err; sets AGENT_PID and AGENT (127.0.0.1:PORT).
start_agent() {
    name=$1
    shift
    rm -f "$TMP/$name.port"
    "$BIN" agent "$@" --listen 127.0.0.1:0 --port-file "$TMP/$name.port" 2>"$TMP/$name.err" &
    AGENT_PID=$!
    PIDS="$PIDS $AGENT_PID"
    if ! wait_for test -s "$TMP/$name.port"; then
        bad "agent $name did not start: $(cat "$TMP/$name.err")"
        AGENT=127.0.0.1:1
        return 1
    fi
    AGENT=127.0.0.1:$(cat "$TMP/$name.port")
}

# stop_agent: SIGTERM and wait (the agent prints its cost on the way out).
stop_agent() {
    kill -TERM "$AGENT_PID" 2>/dev/null
    wait "$AGENT_PID" 2>/dev/null
}
