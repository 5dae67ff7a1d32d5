#!/bin/sh
# socmon serve (issue 12): the live page's HTTP API end to end (serve_http.py: /api/info, the
# event stream live and replayed, the end of a run, 404/405, /metrics, the token rules), and the
# command line's errors. Servers listen on port 0 and report it through --port-file; the python
# script kills whatever it started, even when a check fails.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
python3 "$SOCMON_SRC/tests/agent/serve_http.py" "$BIN" "$TMP" && ok || bad "serve_http.py"

expect 0 "http ADDR:PORT" -- "$BIN" serve --help
expect 0 "serve" -- "$BIN" --help
expect 1 "has no port" -- "$BIN" serve -t esp --http nowhere
expect 1 "port 'x' is not a number" -- "$BIN" serve -t esp --http 127.0.0.1:x
expect 1 "port '70000' is not a number" -- "$BIN" serve -t esp --http 127.0.0.1:70000
expect 1 "not loopback" -- "$BIN" serve -t esp --http 0.0.0.0:0
expect 1 "token file '$TMP/none'" -- "$BIN" serve -t esp --http 127.0.0.1:0 --token-file "$TMP/none"
expect 2 "the agent's to choose" -- "$BIN" serve --remote 127.0.0.1:1 -w multifft
expect 2 "the agent's to choose" -- "$BIN" serve --remote 127.0.0.1:1 -d 1s
expect 1 "unknown target" -- "$BIN" serve -t nosuch --http 127.0.0.1:0
finish serve
