#!/bin/sh
# The live page (socmon serve) in Debian's chromium, headless: `serve -t esp` and `serve -t zynq`
# on loopback port 0 (the port read from --port-file once the server wrote it), the page loads
# with no console or page errors, every chart has drawn points, a drag zooms them all; Zynq (an
# endless workload): the latest point advances, Pause freezes the charts while rows keep coming and
# Resume catches up; ESP (a run over in milliseconds): the page says the run ended, the heat map
# paints tiles (all planes and plane 2); a counter added with the picker arrives through a new
# ?counters= subscription (the server replays its history with it); before the first sample (the
# page's stream held unanswered by the browser) the page says it is waiting for it, not "no data
# in view". Screenshots: $SOCMON_BUILD/artifacts/live-esp.png, live-zynq.png. The servers are
# killed on every way out.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/web/web_env.sh"
web_require live_page

PIDS=""
trap 'for p in $PIDS; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$TMP"' EXIT

# serve NAME SPEC [OPTIONS]: starts `socmon serve -t SPEC OPTIONS` and sets PORT once its port file
# holds the port
serve() {
    name=$1 spec=$2
    shift 2
    "$BIN" serve -t "$spec" "$@" --http 127.0.0.1:0 --port-file "$TMP/$name.port" >"$TMP/$name.log" 2>&1 &
    PIDS="$PIDS $!"
    pid=$!
    i=0
    # waits on the condition (the file has a port), polling; 30 s is a hung server, not a slow one
    while ! grep -qE '^[0-9]+$' "$TMP/$name.port" 2>/dev/null; do
        kill -0 "$pid" 2>/dev/null || { cat "$TMP/$name.log"; return 1; }
        i=$((i + 1))
        [ "$i" -lt 300 ] || { echo "live_page: serve wrote no port in 30 s"; cat "$TMP/$name.log"; return 1; }
        sleep 0.1
    done
    PORT=$(cat "$TMP/$name.port")
}

# ESP's workloads last milliseconds: the run is over at once and the server keeps it all (its
# history holds 30 s), so the page shows every chart and the heat map whenever it loads
serve esp esp -w multifft -I 100us && ok || bad "socmon serve -t esp"
ESP=$PORT
# a Zynq workload without end, so the PL and PS charts keep moving
serve zynq zynq:duration_ms=0 -d 600s && ok || bad "socmon serve -t zynq"
ZYNQ=$PORT
[ "$fail" = 0 ] || finish live_page

$CHECK "http://127.0.0.1:$ESP/" "$ART/live-esp.png" --ended --heat --plane 2 --min-charts 6 --add-counter tile1.ddr_accesses \
    + "http://127.0.0.1:$ZYNQ/" "$ART/live-zynq.png" --live --min-charts 8 --add-counter slot0.wr_bytes \
    + "http://127.0.0.1:$ZYNQ/" "$ART/live-waiting.png" --waiting --min-charts 8 &&
    ok || bad "the live pages in chromium (check_page.js above says which)"
finish live_page
