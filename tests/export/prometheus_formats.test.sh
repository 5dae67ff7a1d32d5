#!/bin/sh
# The Prometheus expositions of every target, checked by the tools that consume them:
# `promtool check metrics` (parser and linter) on the 0.0.4 text; Debian's Prometheus scraping
# both formats (its OpenMetrics parser is strict: UNIT a suffix of the name, # EOF, no
# repeated family), finding one known counter total per target with the value in the file.
# Also: the two formats carry the same series; stat -o replaces a textfile in one rename
# (mode kept, no temporary left); --append and timelines are refused with a clear error.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
command -v promtool >/dev/null && command -v prometheus >/dev/null ||
    { echo "FAIL: promtool/prometheus missing (sh scripts/install-deps.sh installs them)"; exit 1; }

ELF=$SOCMON_SRC/fuzz/corpus/fuzz_ibex_elf/halt_k.elf
serve=""
expects=""
for t in esp zynq tensix ibex; do
    args="-t $t"
    [ "$t" = zynq ] && args="-t zynq:duration_ms=20"
    [ "$t" = ibex ] && args="-t ibex:program=$ELF"
    # shellcheck disable=SC2086
    "$BIN" stat $args --prometheus -o "$TMP/$t.prom" >/dev/null 2>&1 || bad "stat $args --prometheus exited $?"
    # shellcheck disable=SC2086
    "$BIN" stat $args --openmetrics -o "$TMP/$t.om" >/dev/null 2>&1 || bad "stat $args --openmetrics exited $?"
    if out=$(promtool check metrics <"$TMP/$t.prom" 2>&1) && [ -z "$out" ]; then ok; else
        bad "promtool check metrics on $t: $out"; fi
    [ "$(tail -n 1 "$TMP/$t.om")" = "# EOF" ] && ok || bad "$t: OpenMetrics does not end with # EOF"
    grep -q '^# UNIT ' "$TMP/$t.om" && ok || bad "$t: no UNIT line"
    grep -q "^socmon_target_info{target=\"$t\"," "$TMP/$t.prom" && ok || bad "$t: no socmon_target_info"
    # the same series and values in both formats: only metadata differs
    if grep -v '^#' "$TMP/$t.prom" >"$TMP/a" && grep -v '^#' "$TMP/$t.om" >"$TMP/b" && cmp -s "$TMP/a" "$TMP/b"; then
        ok; else bad "$t: the two formats' samples differ"; fi
    # the family's name says which counter: no counter label, so rate(a)/rate(b) of one instance
    # matches without ignoring(counter) (issue 28, item 13)
    ! grep -q 'counter="' "$TMP/$t.prom" && ok || bad "$t: a series carries a counter label: $(grep -m1 'counter="' "$TMP/$t.prom")"
    # a counter that counted: the first nonzero _total series of a socmon counter
    line=$(grep -E '^socmon_[a-z0-9_]+_total\{' "$TMP/$t.prom" | grep -Ev '^socmon_(samples|missed_intervals)_total' |
        grep -v ' 0$' | head -n 1)
    [ -n "$line" ] || { bad "$t: no nonzero counter"; continue; }
    series=${line% *}
    value=${line##* }
    serve="$serve --serve ${t}_text=$TMP/$t.prom --serve ${t}_om=$TMP/$t.om:openmetrics"
    sel=${series#*\{}
    expects="$expects ${series%%\{*}{job=\"${t}_text\",$sel=$value ${series%%\{*}{job=\"${t}_om\",$sel=$value"
done

# Prometheus scrapes all eight files; each known counter has the file's value in both formats.
mkdir "$TMP/prom"
set -f
set --
for e in $expects; do set -- "$@" --expect "$e"; done
# shellcheck disable=SC2086
if python3 "$SOCMON_SRC/tests/support/prom_scrape.py" --dir "$TMP/prom" $serve "$@"; then ok; else
    bad "Prometheus did not scrape the expositions as written"; fi
set +f

# -o: a textfile collector's file is replaced in one step, keeping its mode; nothing left over.
mkdir "$TMP/tf"
echo old >"$TMP/tf/socmon.prom"
chmod 640 "$TMP/tf/socmon.prom"
ino=$(ls -i "$TMP/tf/socmon.prom" | cut -d' ' -f1)
"$BIN" stat -t tensix --prometheus -o "$TMP/tf/socmon.prom" || bad "stat --prometheus -o exited $?"
grep -q '^socmon_cycles_total' "$TMP/tf/socmon.prom" && ok || bad "-o did not write the exposition"
[ "$(stat -c %a "$TMP/tf/socmon.prom")" = 640 ] && ok || bad "-o lost the file's mode 640"
[ "$(ls -i "$TMP/tf/socmon.prom" | cut -d' ' -f1)" != "$ino" ] && ok || bad "-o rewrote the file in place"
[ "$(ls -A "$TMP/tf")" = socmon.prom ] && ok || bad "-o left files behind: $(ls -A "$TMP/tf")"
expect 2 "append.*one document" -- "$BIN" stat -t tensix --prometheus --append -o "$TMP/tf/socmon.prom"
expect 1 "socmon: stat: directory '$TMP/nodir' of '$TMP/nodir/x.prom' does not exist" -- \
    "$BIN" stat -t tensix --prometheus -o "$TMP/nodir/x.prom"

# report: totals of a recording expose; a timeline has no Prometheus form.
"$BIN" record -t tensix -q -o "$TMP/t.rec" >/dev/null 2>&1 || bad "record exited $?"
expect 0 "^socmon_samples_total{target=\"tensix\"} [1-9]" -- "$BIN" report -i "$TMP/t.rec" --summary --prometheus
expect 0 "^socmon_missed_intervals_total{target=\"tensix\"} 0" -- "$BIN" report -i "$TMP/t.rec" --summary --openmetrics
expect 1 "timeline has no Prometheus form" -- "$BIN" report -i "$TMP/t.rec" --prometheus

finish prometheus_formats
