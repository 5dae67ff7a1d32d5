#!/bin/sh
# CONFIGs in a loop on an agent that also serves --http: /metrics stays answered, with the counters
# and metrics it described before the CONFIGs, and the agent exits cleanly.
# The live view (and --remote-write) is built on the run's first counter set and metric set and
# keeps them to the close: its schema is fixed, later runs leave it ended. A CONFIG freed the set,
# source, pipeline and metric set it replaced (smn_session_drop_retired), so after the first
# CONFIG every /metrics read freed names and metric definitions on the HTTP thread: garbage help
# lines, then a crash (SIGSEGV in /metrics' label legend within a few hundred CONFIGs, or at exit).
# Since then drop_retired keeps those two generations (the first, and the one the first run began
# on) and frees the rest, so the agent's memory does not grow with the CONFIGs either: checked here
# with --remote-write too (to a port nothing listens on: its pushes fail and are retried, and its
# begin at each run reads what it kept).
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"
GET="python3 $SOCMON_SRC/tests/support/http_get.py"
N=300

start_agent cfghttp -t esp -I 1ms -d 600s --allow-config --http 127.0.0.1:0 --http-port-file "$TMP/http.port" \
    --remote-write http://127.0.0.1:9/api/v1/write
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
# resident memory after the first quarter of the CONFIGs and after all: at most 8 MB more (keeping
# every generation grew it by 47 MB over 300)
python3 - "$TMP/loop.out" <<'PY' && ok || bad "the agent grew with the CONFIGs: $(cat "$TMP/loop.out")"
import re, sys
m = re.search(r"resident after (\d+) CONFIGs: (\d+) KiB, after (\d+): (\d+) KiB", open(sys.argv[1]).read())
assert m, "no resident memory figures"
sys.exit(0 if int(m.group(4)) - int(m.group(2)) <= 8 * 1024 else 1)
PY
kill -TERM "$AGENT_PID" 2>/dev/null
wait "$AGENT_PID"
rc=$?
[ "$rc" = 0 ] && ok || bad "the agent exited $rc after the CONFIGs: $(tail -3 "$TMP/cfghttp.err")"
finish agent_config_http
