#!/bin/sh
# socmon report --html: the page of an ESP, a Zynq and a Tensix recording loads in Debian's
# chromium (headless) with no console or page errors, every chart has drawn data points, the ESP
# heat map paints tiles from data (all planes and one plane); screenshots go to
# $SOCMON_BUILD/artifacts/report-*.png. A program's recording (Ibex) adds a flame graph: its
# frames are DOM text, a click zooms, search highlights and sums, its data equals the profile's
# views; any other page has none. The data in the page equals the recording (rows add up
# to the summary's totals and elapsed time; every metric of the page's "Metrics over the run", read
# from the DOM, is report --summary --json's, on every page: check_page.js --summary), a long recording is merged to at most 4,000 rows with
# metrics over the merged time, gaps in a recording are drawn as gaps, and text that could end the page's
# script is escaped. Bad uses are clear errors.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/web/web_env.sh"
web_require report_html
DATA=$SOCMON_SRC/tests/web/report_data.py
# the pages to load, all in one chromium at the end (starting it is the slow part)
PAGES=""
page() {
    for a; do PAGES="$PAGES '$a'"; done
    PAGES="$PAGES +"
}

# rec NAME SPEC ARGS...: records TMP/NAME.rec, writes TMP/NAME.html and TMP/NAME.sum.json
rec() {
    name=$1 spec=$2
    shift 2
    "$BIN" record -t "$spec" -q -o "$TMP/$name.rec" "$@" >"$TMP/$name.log" 2>&1 &&
        "$BIN" report -i "$TMP/$name.rec" --summary --json >"$TMP/$name.sum.json" &&
        "$BIN" report -i "$TMP/$name.rec" --html "$TMP/$name.html" 2>>"$TMP/$name.log" ||
        { cat "$TMP/$name.log"; return 1; }
}

# ESP 4x4: every counter's deltas fit, so any plane can be shown
rec esp esp:soc=esp_4x4 -w multifft -I 100us && ok || bad "ESP recording and report --html"
python3 "$DATA" "$TMP/esp.html" "$TMP/esp.sum.json" --all-deltas && ok || bad "ESP page data"
page "file://$TMP/esp.html" "$ART/report-esp.png" --summary "$TMP/esp.sum.json" --heat --plane 2 --min-charts 6 --add-counter tile3.ddr_accesses --phases 4

# ESP 8x8 at 20 us: 5,164 counters x 6,075 intervals is past the page's budget, so the rows carry
# the heat map's counters only and are merged to keep them (the page says both)
rec esp8 esp:soc=esp_8x8 -w multifft -I 20us && ok || bad "ESP 8x8 recording and report --html"
python3 "$DATA" "$TMP/esp8.html" "$TMP/esp8.sum.json" --merged && ok || bad "ESP 8x8 page data"
grep -q "only the NoC heat map's 2304 of 5164 counters" "$TMP/esp8.html" && ok || bad "ESP 8x8 page: no note on its counters"
page "file://$TMP/esp8.html" "$ART/report-esp8x8.png" --summary "$TMP/esp8.sum.json" --heat --plane 3 --min-charts 6 --phases 4

# Zynq: the Vitis dashboard, eight charts
rec zynq zynq -d 2s && ok || bad "Zynq recording and report --html"
python3 "$DATA" "$TMP/zynq.html" "$TMP/zynq.sum.json" --all-deltas && ok || bad "Zynq page data"
page "file://$TMP/zynq.html" "$ART/report-zynq.png" --summary "$TMP/zynq.sum.json" --min-charts 8

# Tensix: bank utilisation and the bound over time
rec tensix tensix -I 2us && ok || bad "Tensix recording and report --html"
page "file://$TMP/tensix.html" "$ART/report-tensix.png" --summary "$TMP/tensix.sum.json" --min-charts 4

# Ibex: the generic dashboard, and the flame graph of the program's profile: its data as
# --children and --folded say (flame_data.py), its frames DOM text, a click zooms, search
# highlights (check_page.js --flame). The committed cprog.elf always; callgraph.elf (recursion,
# mutual recursion, a trap) and a program of tests/ibex/programs when the RISC-V compiler is there.
flame_data() {
    "$BIN" report -i "$TMP/$1.rec" --children --json >"$TMP/$1.children.json" &&
        "$BIN" report -i "$TMP/$1.rec" --folded >"$TMP/$1.folded" &&
        python3 "$SOCMON_SRC/tests/web/flame_data.py" "$TMP/$1.html" "$TMP/$1.children.json" "$TMP/$1.folded"
}
rec cprog ibex -I 1us -- "$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf" && ok || bad "Ibex cprog.elf recording and report --html"
flame_data cprog && ok || bad "cprog's flame graph data"
page "file://$TMP/cprog.html" "$ART/report-ibex-cprog.png" --summary "$TMP/cprog.sum.json" --min-charts 3 --flame mix
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/programs" O="$TMP/ibex" >"$TMP/ibex.make.log" 2>&1 || cat "$TMP/ibex.make.log"
    rec ibex ibex -I 20us -- "$TMP/ibex/cprog.elf" && ok || bad "Ibex recording and report --html"
    page "file://$TMP/ibex.html" "$ART/report-ibex.png" --summary "$TMP/ibex.sum.json" --min-charts 3 --flame mix
    make -s -C "$SOCMON_SRC/tests/ibex/profile" O="$TMP/cg" >"$TMP/cg.make.log" 2>&1 || cat "$TMP/cg.make.log"
    rec callgraph ibex -I 5us -- "$TMP/cg/callgraph.elf" && ok || bad "Ibex callgraph.elf recording and report --html"
    flame_data callgraph && ok || bad "callgraph's flame graph data"
    page "file://$TMP/callgraph.html" "$ART/report-ibex-callgraph.png" --min-charts 3 --flame fib
else
    echo "report_html: no riscv64-unknown-elf-gcc: only the committed cprog.elf's page is checked"
fi
# a recording without a profile: no flame graph (check_page.js without --flame checks the DOM)
! grep -q "SOCMON_PROFILE\|socmonFlame" "$TMP/zynq.html" && ok || bad "a page without a profile has flame graph code"

# a long recording: 10,000 intervals merged into at most 4,000 rows, metrics over the merged time
rec long zynq -d 10s -I 1ms && ok || bad "long Zynq recording"
python3 "$DATA" "$TMP/long.html" "$TMP/long.sum.json" --merged --all-deltas --max-rows 4000 && ok || bad "long page merged"
page "file://$TMP/long.html" "$ART/report-zynq-long.png" --summary "$TMP/long.sum.json" --min-charts 8

# gaps: a recording with two gaps (tools/rec_gap drops rows as declared gaps, as a collector
# that lost samples writes them): two breaks in every chart's lines
"$SOCMON_BUILD/rec_gap" "$TMP/zynq.rec" "$TMP/gaps.rec" 10:3 25:2 >/dev/null &&
    "$BIN" report -i "$TMP/gaps.rec" --html "$TMP/gaps.html" 2>/dev/null && ok || bad "report --html of a recording with gaps"
"$BIN" report -i "$TMP/gaps.rec" --summary --json >"$TMP/gaps.sum.json" 2>/dev/null &&
    python3 "$DATA" "$TMP/gaps.html" "$TMP/gaps.sum.json" --all-deltas && ok || bad "gaps page data"
page "file://$TMP/gaps.html" "$ART/report-gaps.png" --summary "$TMP/gaps.sum.json" --gaps 2 --min-charts 8

# a metric description that would end the script: escaped, and the page still works
cat >"$TMP/evil.json" <<'JSON'
{"metrics": [{"name": "wr_throughput", "unit": "MB/s", "per": "instance", "expr": "wr_bytes / interval_s / 1e6",
  "desc": "</script><script>window.PWNED = 1</script><!-- <b>"}]}
JSON
"$BIN" report -i "$TMP/zynq.rec" --metric-file "$TMP/evil.json" --html "$TMP/evil.html" 2>/dev/null && ok || bad "report with a metric file"
python3 - "$TMP/evil.html" <<'PY' && ok || bad "escaped script text"
import json, sys
text = open(sys.argv[1]).read()
assert "window.PWNED = 1</script>" not in text, "the description is in the page unescaped"
lead = "window.SOCMON_DATA = "
a = text.index(lead) + len(lead)
data = json.loads(text[a:text.index(";\n</script>", a)])
desc = data["info"]["metrics"][0]["desc"]
assert desc == "</script><script>window.PWNED = 1</script><!-- <b>", desc
PY
page "file://$TMP/evil.html" "$TMP/evil.png" --min-charts 1

eval "$CHECK $PAGES" && ok || bad "the pages in chromium (check_page.js above says which)"

# '-' is standard output: the same page
"$BIN" report -i "$TMP/zynq.rec" --html - >"$TMP/stdout.html" 2>"$TMP/stdout.err" && cmp -s "$TMP/stdout.html" "$TMP/zynq.html" &&
    ! [ -s "$TMP/stdout.err" ] && ok || bad "report --html - writes the page to stdout"

# bad uses
expect 2 "cannot be combined with --summary" -- "$BIN" report -i "$TMP/zynq.rec" --summary --html "$TMP/x.html"
expect 2 "cannot be combined with --json" -- "$BIN" report -i "$TMP/zynq.rec" --json --html "$TMP/x.html"
expect 1 "$TMP/no/such/dir/x.html" -- "$BIN" report -i "$TMP/zynq.rec" --html "$TMP/no/such/dir/x.html"
expect 1 "no-such.rec" -- "$BIN" report -i "$TMP/no-such.rec" --html "$TMP/x.html"
expect 2 "needs a value" -- "$BIN" report -i "$TMP/zynq.rec" --html
finish report_html
