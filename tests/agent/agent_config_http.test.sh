#!/bin/sh
# CONFIGs in a loop on an agent that also serves --http: /metrics stays answered, with the counters
# and metrics it described before the CONFIGs, and the agent exits cleanly.
# The live view (and --remote-write) is built on the run's first counter set and metric set and
# keeps them to the close: its schema is fixed, later runs leave it ended. A CONFIG freed the set,
# source, pipeline and metric set it replaced (smn_session_drop_retired), so after the first
# CONFIG every /metrics read freed names and metric definitions on the HTTP thread: garbage help
# lines, then a crash (SIGSEGV in /metrics' label legend within a few hundred CONFIGs, or at exit).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"
GET="python3 $SOCMON_SRC/tests/support/http_get.py"
N=300

start_agent cfghttp -t esp -I 1ms -d 600s --allow-config --http 127.0.0.1:0 --http-port-file "$TMP/http.port"
wait_for test -s "$TMP/http.port" || bad "no --http-port-file: $(cat "$TMP/cfghttp.err")"
URL=http://127.0.0.1:$(cat "$TMP/http.port")/metrics
# what /metrics describes (its HELP and TYPE lines); the values move, these do not
$GET "$URL" --timeout 20 -o "$TMP/before.txt" 2>/dev/null && ok || bad "/metrics before the CONFIGs"
grep '^#' "$TMP/before.txt" >"$TMP/before.desc"
[ -s "$TMP/before.desc" ] && ok || bad "/metrics before the CONFIGs described nothing"

$WC configs "$AGENT" $N "$AGENT_PID" '*' 'tile0.*' 'tile1.*' >"$TMP/loop.out" 2>&1 && ok ||
    bad "$N CONFIGs in a row: $(tail -3 "$TMP/loop.out")"
i=0
while [ $i -lt 20 ]; do
    if ! $GET "$URL" --timeout 20 -o "$TMP/after.txt" 2>/dev/null; then
        bad "/metrics $i after the CONFIGs not answered"
        break
    fi
    grep '^#' "$TMP/after.txt" | cmp -s - "$TMP/before.desc" ||
        { bad "/metrics $i after the CONFIGs describes other series: $(grep '^#' "$TMP/after.txt" |
            diff "$TMP/before.desc" - | head -4)"; break; }
    i=$((i + 1))
done
kill -TERM "$AGENT_PID" 2>/dev/null
wait "$AGENT_PID"
rc=$?
[ "$rc" = 0 ] && ok || bad "the agent exited $rc after the CONFIGs: $(tail -3 "$TMP/cfghttp.err")"
finish agent_config_http
