#!/bin/sh
# The findings section, "where the time went" (docs/findings.md): stat --json has non-empty
# "findings" on esp, zynq, tensix and ibex, every number a line prints is in its evidence, and
# what they say agrees with the counters (an accelerator's compute/communication split, a PL
# port's throughput, the CPI stack's top, Tensix kernels built math-, unpack- or pack-bound, each
# of the five workloads, lead with that bound); numbers as the tables write them; stat's and
# report's tables end with the section (at most 8 lines); a user's rules are picked up by
# --findings FILE and beside --metric-file; a broken rules file is refused naming file and rule;
# the html page's data carries them.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
CHECK="python3 $SOCMON_SRC/tests/cli/findings_check.py"
ELF=$SOCMON_SRC/tests/cli/baseline/elf/cprog.elf

run_json() {   # NAME KIND stat-args...: stat's JSON in a file (a program owns stdout), then checked
    name=$1 kind=$2
    shift 2
    if "$BIN" stat -o "$TMP/$name.json" --json "$@" >/dev/null 2>"$TMP/$name.err"; then
        $CHECK json "$kind" "$TMP/$name.json" && ok || bad "stat --json $*: findings"
    else
        bad "stat --json $*"; cat "$TMP/$name.err"
    fi
}
run_json esp esp -t esp -w multifft
run_json acc esp -t esp -w acc_full
run_json zynq zynq -t zynq -d 500ms
run_json tensix any -t tensix
# every kernel built for a bound leads with that bound, and tt-llk's summed score is kept as its
# own (issue 37: "risc-bound" first for all of them)
for b in math unpack pack; do
    for w in matmul sfpu reduce topk sync; do
        run_json "t$b$w" "tensix-$b" -t "tensix:bound=$b" -w "$w"
    done
done
run_json ibex ibex -t ibex -- "$ELF"

# tables: the section ends them
for t in "esp -w multifft" "zynq -d 500ms" tensix; do
    # shellcheck disable=SC2086
    "$BIN" stat -o "$TMP/table.txt" -t $t >/dev/null 2>&1 && $CHECK table "$TMP/table.txt" && ok || bad "stat -t $t: table"
done
"$BIN" stat -o "$TMP/ibex.txt" -t ibex -- "$ELF" >/dev/null 2>&1 && $CHECK table "$TMP/ibex.txt" && ok || bad "stat ibex: table"
"$BIN" record -q -t esp -w multifft -o "$TMP/esp.rec" 2>/dev/null && ok || bad "record esp"
"$BIN" report -i "$TMP/esp.rec" >"$TMP/report.txt" 2>&1 && $CHECK table "$TMP/report.txt" && ok || bad "report: table"
"$BIN" report -i "$TMP/esp.rec" --summary >"$TMP/summary.txt" 2>&1 && $CHECK table "$TMP/summary.txt" && ok || bad "report --summary: table"
"$BIN" report -i "$TMP/esp.rec" --json --summary >"$TMP/summary.json" 2>/dev/null && $CHECK json esp "$TMP/summary.json" \
    && ok || bad "report --summary --json: findings"
# a program's recording: the hottest function (its counts per function)
"$BIN" record -q -t ibex -o "$TMP/ibex.rec" -- "$ELF" >/dev/null 2>&1 && ok || bad "record ibex"
expect 0 "hottest function mix: 76.91% of the cycles (5,376), CPI 10.500" -- "$BIN" report -i "$TMP/ibex.rec" --summary
# the html page's data: the same array
"$BIN" report -i "$TMP/esp.rec" --html "$TMP/esp.html" 2>/dev/null && grep -q '"findings": \[{"target":"esp"' "$TMP/esp.html" \
    && ok || bad "report --html: findings in the page's data"

# a user's rules: --findings FILE, and NAME.findings.json beside --metric-file NAME.json
cat >"$TMP/mine.json" <<'J'
{"target": "esp", "findings": [{"name": "l2", "evidence": {"hits": "l2_hits"}, "text": "user rule: {hits} L2 hits"}]}
J
expect 0 "user rule: 30,720 L2 hits" -- "$BIN" stat -t esp -w multifft --findings "$TMP/mine.json"
cp "$SOCMON_SRC/metrics/ibex.json" "$TMP/my.json"
cat >"$TMP/my.findings.json" <<'J'
{"findings": [{"name": "mine", "evidence": {"ipc": "ipc"}, "text": "beside the metric file: IPC {ipc}"}]}
J
expect 0 "beside the metric file: IPC 0.222" -- "$BIN" stat -t ibex --metric-file "$TMP/my.json" -- "$ELF"
printf '{"findings": [{"name": "oops", "evidence": {"x": "1"}, "text": "{y}"}]}' >"$TMP/bad.json"
expect 1 "$TMP/bad.json: finding 'oops' (findings\[0\]): \"text\" names '{y}'" -- \
    "$BIN" stat -t esp --findings "$TMP/bad.json"
expect 2 "" -- "$BIN" record -t esp --findings "$TMP/mine.json" -o "$TMP/x.rec"
finish findings
