#!/bin/sh
# A collector pointed at an HTTP port (issue 28, item 5b): the agent's --http port answers a
# SUBSCRIBE at once, in HTTP, naming the agent's --listen port; the collector recognises an HTTP
# answer and says so (HTTP, --listen) well under its 10 s handshake timeout. A socmon serve port
# answers the same way without an agent's address. HTTP clients are served as before, also one
# whose request comes late.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"

now_ms() { python3 -c 'import time; print(int(time.monotonic() * 1000))'; }

start_agent ag -t esp -w multifft -I 1ms -d 600s --http 127.0.0.1:0 --http-port-file "$TMP/web.port"
wait_for test -s "$TMP/web.port" || bad "the agent's --http did not start: $(cat "$TMP/ag.err")"
HTTP=127.0.0.1:$(cat "$TMP/web.port")

for cmd in "record -o $TMP/x.rec -d 1s" "stat -d 1s"; do
    t0=$(now_ms)
    # shellcheck disable=SC2086
    expect 1 "$HTTP answered in HTTP (\"HTTP/1.1 400 Bad Request\").*--listen.*the agent's HTTP port.*its --listen port, $AGENT" \
        -- "$BIN" $cmd --remote "$HTTP"
    t1=$(now_ms)
    [ $((t1 - t0)) -lt 3000 ] && ok || bad "$cmd --remote at the HTTP port took $((t1 - t0)) ms (expected at once)"
done
[ ! -e "$TMP/x.rec" ] && ok || bad "record at the HTTP port left a file behind"
grep -q "a collector (127.0.0.1:[0-9]*) connected to the HTTP port: told it to use $AGENT" "$TMP/ag.err" && ok ||
    bad "the agent did not log the collector on its HTTP port: $(cat "$TMP/ag.err")"

# HTTP clients: /metrics at once, and a request whose first byte comes after the agent stopped
# looking at new connections (100 ms) is served all the same
python3 - "$(cat "$TMP/web.port")" <<'PY' && ok || bad "the HTTP port no longer serves clients"
import socket, sys, time, urllib.request
port = int(sys.argv[1])
body = urllib.request.urlopen("http://127.0.0.1:%d/metrics" % port, timeout=10).read().decode()
assert "socmon_target_info" in body, body[:200]
s = socket.create_connection(("127.0.0.1", port), timeout=10)
time.sleep(0.4)
s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
got = b""
while True:
    b = s.recv(65536)
    if not b:
        break
    got += b
assert got.startswith(b"HTTP/1.1 200"), got[:100]
PY
# the agent still takes collectors on its --listen port
expect 0 "wrote [0-9]* samples" -- "$BIN" record --remote "$AGENT" -d 20ms -q -o "$TMP/ok.rec"
stop_agent

# socmon serve's port: an HTTP answer too, with no agent to name
"$BIN" serve -t esp -w multifft --http 127.0.0.1:0 --port-file "$TMP/serve.port" 2>"$TMP/serve.err" &
SPID=$!
PIDS="$PIDS $SPID"
wait_for test -s "$TMP/serve.port" || bad "serve did not start: $(cat "$TMP/serve.err")"
expect 1 "answered in HTTP.*this is an HTTP port.*the port of the agent's --listen" -- \
    "$BIN" stat --remote "127.0.0.1:$(cat "$TMP/serve.port")" -d 1s
kill -TERM $SPID
wait $SPID 2>/dev/null

finish remote_http_port
