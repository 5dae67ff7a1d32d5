#!/bin/sh
# --remote-write's bad input (issue 41): a URL that is not one, or not http(s), an option of
# --remote-write without it, an unreadable token file: a usage error naming the value, before
# anything runs. A receiver that is not there (nothing listening, a host that does not resolve)
# or speaks no TLS on an https URL: the run goes on and is recorded whole, and the log says what
# failed and names the URL; the summary counts the points that never went out.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
REC="record -t zynq -I 100ms -d 500ms -q -o $TMP/r.rec"

expect 2 "remote write URL 'ftp://example.org/x': the scheme is 'ftp', not http or https" -- \
    "$BIN" $REC --remote-write ftp://example.org/x
# a URL refused is named without its password
out=$("$BIN" $REC --remote-write "ftp://board7:s3cret@example.org/x" 2>&1)
case "$out" in *s3cret*) bad "the password shows: $out" ;; *"'ftp://xxxxx@example.org/x'"*) ok ;; *) bad "not named: $out" ;; esac
expect 2 "remote write URL 'not a url': " -- "$BIN" $REC --remote-write "not a url"
expect 2 "remote write URL 'http://': " -- "$BIN" agent -t zynq --remote-write "http://"
expect 2 "--remote-write-token-file goes with --remote-write URL, which was not given" -- \
    "$BIN" serve -t zynq --remote-write-token-file /nonexistent
expect 2 "bad --push-interval '0' (expected a time 1ms..1h" -- \
    "$BIN" $REC --remote-write http://127.0.0.1:9/ --push-interval 0
expect 2 "remote-write-queue takes a number of points 1..1000000, got '0'" -- \
    "$BIN" $REC --remote-write http://127.0.0.1:9/ --remote-write-queue 0
expect 1 "remote-write-token-file: .*/nonexistent" -- \
    "$BIN" $REC --remote-write http://127.0.0.1:9/ --remote-write-token-file "$TMP/nonexistent"
# a control byte in the URL is escaped in the message
out=$("$BIN" $REC --remote-write "$(printf 'htp://\033[2Jx')" 2>&1)
case "$out" in *"$(printf '\033')"*) bad "an escape byte of the URL reached the terminal: $out" ;; *'\x1b[2J'*) ok ;;
*) bad "the URL is not named: $out" ;; esac

# nothing listens: said once, naming the URL; the recording is whole, the points counted
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
out=$("$BIN" $REC --remote-write "http://127.0.0.1:$port/api/v1/write" 2>&1)
rc=$?
[ "$rc" = 0 ] && ok || bad "record exited $rc with no receiver: $out"
echo "$out" | grep -q "wrote 6 samples (0 intervals missed)" && ok || bad "the recording suffered: $out"
n=$(echo "$out" | grep -c "remote write to http://127.0.0.1:$port/api/v1/write: cannot connect")
[ "$n" = 1 ] && ok || bad "no connection said $n times, not once: $out"
echo "$out" | grep -q "0 points sent in [0-9]* requests ([0-9]* retried), 1 dropped (0 with the queue full, 0 refused by the receiver, 1 still queued at the end)" &&
    ok || bad "the summary: $out"

# a name that does not resolve (.invalid never does, RFC 2606)
out=$("$BIN" $REC --remote-write "http://no-such-receiver.invalid/api/v1/write" 2>&1)
echo "$out" | grep -q "remote write to http://no-such-receiver.invalid/api/v1/write: cannot resolve the host" &&
    ok || bad "an unresolvable host: $out"

# https to a plain HTTP port: a TLS failure, named as one
python3 -c '
import http.server, sys
class H(http.server.BaseHTTPRequestHandler):
    def log_message(self, *a): pass
s = http.server.HTTPServer(("127.0.0.1", 0), H)
open(sys.argv[1], "w").write(str(s.server_address[1]))
s.serve_forever()' "$TMP/plain.port" &
plain=$!
trap 'kill $plain 2>/dev/null; rm -rf "$TMP"' EXIT
i=0
while [ ! -s "$TMP/plain.port" ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i + 1)); done
pport=$(cat "$TMP/plain.port")
out=$("$BIN" $REC --remote-write "https://127.0.0.1:$pport/api/v1/write" 2>&1)
echo "$out" | grep -q "remote write to https://127.0.0.1:$pport/api/v1/write: TLS handshake failed" &&
    ok || bad "https to a plain port: $out"
echo "$out" | grep -q "wrote 6 samples (0 intervals missed)" && ok || bad "the recording suffered: $out"
finish remote_write_errors
