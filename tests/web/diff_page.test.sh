#!/bin/sh
# socmon diff --html: the comparison page of an ESP 2x3 and a 4x4 recording loads in Debian's
# chromium with no error; each chart overlays the two runs (baseline dashed, new solid, drawn
# points), there are as many charts as changed values with a timeline (at most 12), the table has
# a row per diff row, those of one run only marked; the legend names the files; a page from stat's JSON has the table and says why it has no charts; a
# hostile name stays text. Screenshot: $SOCMON_BUILD/artifacts/diff-esp.png.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/web/web_env.sh"
web_require diff_page
CHECKD="node $SOCMON_SRC/tests/web/check_diff_page.js"
"$BIN" record -q -t esp -w multifft -I 100us -o "$TMP/a.rec" >/dev/null 2>&1 || bad "record 2x3"
"$BIN" record -q -t esp:soc=esp_4x4 -w multifft -I 100us -o "$TMP/b.rec" >/dev/null 2>&1 || bad "record 4x4"
"$BIN" diff "$TMP/a.rec" "$TMP/b.rec" --html "$TMP/d.html" --json >"$TMP/d.json" 2>/dev/null && ok || bad "diff --html"
# the expected counts from the diff's JSON: changed paired values (recordings: every one has a timeline)
n=$(python3 -c "
import json, sys; r = json.load(open(sys.argv[1]))['rows']
print(min(12, sum(1 for x in r if x['delta'] not in (None, 0, 0.0))), len(r))" "$TMP/d.json")
# rows of one run only: the table's "only in the baseline (N)" and "only in the new run (M)"
one=$("$BIN" diff "$TMP/a.rec" "$TMP/b.rec" 2>/dev/null | sed -n 's/^ *only in the .*(\([0-9]*\)):$/\1/p' | awk '{s += $1} END {print s + 0}')
set -- $n $one
[ "$3" -gt 0 ] && ok || bad "the 2x3 and the 4x4 share every value? ($3 of one run only)"
$CHECKD "$TMP/d.html" "$ART/diff-esp.png" "$1" "$2" "$3" && ok || bad "the ESP diff page"
grep -q "window.SOCMON_DIFF = " "$TMP/d.html" && ! grep -q '<script src=' "$TMP/d.html" && ok || bad "the page is not self-contained"

# stat's JSON: no timeline; a name that would inject markup or end the script stays text
printf '{"counters": [{"name": "<b id=\\"pwned\\">x</b></script><!--", "value": 1}, {"name": "c", "value": 2}]}' >"$TMP/x.json"
printf '{"counters": [{"name": "<b id=\\"pwned\\">x</b></script><!--", "value": 3}, {"name": "c", "value": 2}]}' >"$TMP/y.json"
"$BIN" diff "$TMP/x.json" "$TMP/y.json" --html "$TMP/j.html" >/dev/null 2>&1 && ok || bad "diff --html of JSON"
$CHECKD "$TMP/j.html" "$ART/diff-json.png" 0 2 && ok || bad "the JSON diff page"
grep -q "No charts: a timeline comes only with recordings" "$TMP/j.html" && ok || bad "no note on the missing charts"
# a file name that is not UTF-8 (no JSON string can hold it) is shown as the terminal shows it,
# \xNN, in the heading and the legend; the page does not fail
cp "$TMP/y.json" "$TMP/$(printf 'y\377.json')"
"$BIN" diff "$TMP/x.json" "$TMP/$(printf 'y\377.json')" --html "$TMP/u.html" >/dev/null 2>&1 && ok || bad "diff --html of a file name that is not UTF-8"
$CHECKD "$TMP/u.html" "$ART/diff-utf8.png" 0 2 0 'new (solid): '"$TMP"'/y\xff.json' && ok || bad "the page of a file name that is not UTF-8"
finish diff_page
