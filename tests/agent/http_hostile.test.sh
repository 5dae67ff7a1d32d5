#!/bin/sh
# The HTTP server against hostile peers (issue 23, http_hostile.py): /metrics answers 200 while 32
# half-open requests are held, from another address and from the same one; a page's stream is
# never cut for them; busy connections at the per-address limit mean 503 for the next one; the
# Host check against DNS rebinding, on serve and agent --http. Loopback only; every process the
# script starts is killed at its end.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
python3 "$SOCMON_SRC/tests/agent/http_hostile.py" "$BIN" "$TMP" hold && ok || bad "http_hostile.py hold"
python3 "$SOCMON_SRC/tests/agent/http_hostile.py" "$BIN" "$TMP" host && ok || bad "http_hostile.py host"
expect 0 "http-host NAMES" -- "$BIN" serve --help
expect 0 "http-host NAMES" -- "$BIN" agent --help
expect 1 "host name 'bad name'" -- "$BIN" serve -t esp --http 127.0.0.1:0 --http-host 'ok.example,bad name'
expect 2 "more than 8 --http-host" -- "$BIN" serve -t esp --http-host a --http-host a --http-host a \
    --http-host a --http-host a --http-host a --http-host a --http-host a --http-host a
expect 2 "which was not given" -- "$BIN" agent -t esp --http-host board.example
finish http_hostile
