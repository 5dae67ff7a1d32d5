#!/bin/sh
# Numbers a person can scan, on every target as `socmon` prints them: thousands separators in
# tables and live lines (none with --no-big-num, never in CSV or JSON); one precision per metric
# in every row of record's live lines, report's table and report --summary; units in report's
# headers; value columns that end together however long a name is; "simulated" beside every
# elapsed time of a model run. The outputs are parsed (tests/cli/numbers_check.py), not grepped.
# Findings, --by-symbol, check and the diff page's titles write numbers as the tables do.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
CHECK="python3 $SOCMON_SRC/tests/cli/numbers_check.py"

run() { # run NAME command...: output to $TMP/NAME, a failure reported
    n=$1
    shift
    "$@" >"$TMP/$n" 2>&1 || bad "$* exited $?: $(tail -3 "$TMP/$n")"
}

targets="esp tensix zynq"
# ibex runs a program: the smallest one, if the cross compiler is here (tests/ibex builds the rest).
if riscv64-unknown-elf-gcc --version >/dev/null 2>&1; then
    P=$SOCMON_SRC/tests/ibex/programs
    riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -nostdlib -ffreestanding \
        -static -T "$P/link.ld" -Wl,--no-relax -Wl,--no-warn-rwx-segments -o "$TMP/spin.elf" \
        "$SOCMON_SRC/tests/ibex/cli/spin.S" && targets="$targets ibex" || bad "building tests/ibex/cli/spin.S"
fi

for t in $targets; do
    args="-t $t"
    [ "$t" = ibex ] && args="-t ibex:program=$TMP/spin.elf,max_cycles=20000"
    [ "$t" = zynq ] && args="-t zynq:duration_ms=300"
    [ "$t" = tensix ] && args="-t tensix -I 100us"
    # shellcheck disable=SC2086
    {
        # -o: the counts alone, whatever a program prints or how it ends (ibex's spin never halts).
        "$BIN" stat $args -o "$TMP/stat-$t" >/dev/null 2>&1
        "$BIN" stat $args --no-big-num -o "$TMP/stat-plain-$t" >/dev/null 2>&1
        "$BIN" stat $args -x';' -o "$TMP/stat-$t.csv" >/dev/null 2>&1
        "$BIN" stat $args --json -o "$TMP/stat-$t.json" >/dev/null 2>&1
        "$BIN" record $args -o "$TMP/$t.rec" -M '*' >"$TMP/live-$t" 2>&1
        "$BIN" record $args -o "$TMP/$t-plain.rec" --no-big-num >"$TMP/live-plain-$t" 2>&1
    }
    run "report-$t" "$BIN" report -i "$TMP/$t.rec" -M '*'
    run "report-plain-$t" "$BIN" report -i "$TMP/$t.rec" --no-big-num
    run "summary-$t" "$BIN" report -i "$TMP/$t.rec" --summary
    run "summary-$t.csv" "$BIN" report -i "$TMP/$t.rec" --summary -x';'
    run "report-$t.json" "$BIN" report -i "$TMP/$t.rec" --json --deltas
    if $CHECK "$TMP" "$t"; then ok; else bad "numbers of target $t (outputs above)"; fi
done

# The big numbers of the multifft run are grouped; --no-big-num prints the very same digits.
expect 0 "tile0.l2_hits  *28,672  events" -- "$BIN" stat -t esp
expect 0 "tile0.l2_hits  *28672  events" -- "$BIN" stat -t esp --no-big-num
expect 0 "ddr_accesses_total=[0-9,]* beats" -- "$BIN" record -t esp -o "$TMP/u.rec"
expect 0 "l2_hit_rate_all \[%\]" -- "$BIN" report -i "$TMP/u.rec"
expect 0 "seconds simulated time elapsed" -- "$BIN" read -t esp -d 1ms

# One way to write a number (issue 37): what findings, --by-symbol, check, the diff page's titles
# and the "wrote FILE (N bytes)" lines print is what the tables print, grouped, never rounded.
ungrouped() {   # FILE: the lines of FILE that print a number of 4 or more digits without separators
    grep -E '(^|[^0-9A-Za-z_.,/x-])-?[0-9]{4,}([^0-9A-Za-z_,]|$)' "$1"
}
"$BIN" stat -t esp -o "$TMP/esp-find" >/dev/null 2>&1 || bad "stat -t esp"
sed -n '/Where the time went/,$p' "$TMP/esp-find" >"$TMP/esp-find-lines"
if ungrouped "$TMP/esp-find-lines"; then bad "findings print numbers ungrouped (above)"; else ok; fi
# the finding's LLC hit rate is the table's, digit for digit; an accelerator's one run is not "1 runs"
hit=$(awk '$1 == "llc_hit_rate_all" {print $2}' "$TMP/esp-find")
grep -q "LLC hit rate $hit%" "$TMP/esp-find-lines" && ok || bad "findings' LLC hit rate is not the table's $hit"
grep -q " 1 runs" "$TMP/esp-find" && bad "findings say '1 runs'" || ok
ELF=$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf
"$BIN" record -q -t ibex -o "$TMP/prog.rec" -- "$ELF" >/dev/null 2>&1 || bad "record ibex $ELF"
"$BIN" report -i "$TMP/prog.rec" --by-symbol >"$TMP/by-symbol" 2>&1 || bad "report --by-symbol"
sed -n '/Cycles by function/,$p' "$TMP/by-symbol" >"$TMP/by-symbol-rows"
grep -Eq '^  mix +5,376 ' "$TMP/by-symbol-rows" && ok || bad "--by-symbol: mix's cycles not 5,376: $(cat "$TMP/by-symbol-rows")"
if ungrouped "$TMP/by-symbol-rows"; then bad "--by-symbol prints numbers ungrouped (above)"; else ok; fi
"$BIN" report -i "$TMP/prog.rec" --by-symbol --no-big-num 2>/dev/null | grep -Eq '^  mix +5376 ' && ok || bad "--by-symbol --no-big-num"
"$BIN" stat -t esp -w multifft --json -o "$TMP/ca.json" >/dev/null 2>&1 || bad "stat multifft"
"$BIN" stat -t esp -w acc_sweep --json -o "$TMP/cb.json" >/dev/null 2>&1 || bad "stat acc_sweep"
printf 'tile*.l2_hits  -0\n' >"$TMP/fall.rules"
"$BIN" check "$TMP/ca.json" "$TMP/cb.json" --rules "$TMP/fall.rules" --markdown "$TMP/check.md" >"$TMP/check" 2>&1
grep -q "tile0.l2_hits    28,672  10,240  -18,432 (-64.29%) beyond the limit -0" "$TMP/check" && ok || bad "check: $(cat "$TMP/check")"
grep -q "| 28,672 | 10,240 | -18,432 (-64.29%) beyond" "$TMP/check.md" && ok || bad "check --markdown: $(cat "$TMP/check.md")"
if ungrouped "$TMP/check" | grep -v "Checking new"; then bad "check prints numbers ungrouped (above)"; else ok; fi
grep -Eq "wrote $TMP/check.md \([0-9]{1,3} bytes\)" "$TMP/check" && ok || bad "check: wrote line: $(cat "$TMP/check")"
"$BIN" record -q -t esp -w multifft -o "$TMP/da.rec" 2>/dev/null && "$BIN" record -q -t esp -w acc_sweep -o "$TMP/db.rec" 2>/dev/null \
    || bad "record the diff's runs"
"$BIN" diff "$TMP/da.rec" "$TMP/db.rec" --html "$TMP/diff.html" >"$TMP/diff-out" 2>&1 || bad "diff --html: $(cat "$TMP/diff-out")"
grep -Eq "wrote $TMP/diff.html \([0-9]{1,3}(,[0-9]{3})+ bytes\)" "$TMP/diff-out" && ok || bad "diff --html: wrote line: $(cat "$TMP/diff-out")"
python3 - "$TMP/diff.html" <<'PY' && ok || bad "the diff page's chart titles"
import json, re, sys
page = open(sys.argv[1]).read()
doc = json.loads(re.search(r"window\.SOCMON_DIFF\s*=\s*(\{.*?\});?\s*</script>", page, re.S).group(1))
titles = [c["delta_text"] for c in doc["charts"]]
assert titles, "no charts"
big = [t for t in titles if re.search(r"(?<![\d,.])\d{4,}", t)]
assert not big, "ungrouped: %r" % big
assert any(re.search(r"\d,\d{3}", t) for t in titles), titles
PY

finish "numbers"
