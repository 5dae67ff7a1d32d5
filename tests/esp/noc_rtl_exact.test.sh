#!/bin/sh
# The virtual ESP SoC's NoC is RTL-exact (issue 38): every trace of the RTL fixture
# (tests/esp/noc_rtl/), replayed by socmon (noc-trace:FILE), gives every monitor value a driver
# reads (each tile's tile_inject and five queue_full registers of the trace's plane), the cycles to
# the drain and the latency minimum, mean, p99 and maximum that ESP's router RTL gave in Verilator.
# tools/noc_rtl_agreement.py --require-all does the comparing; the test also feeds it a fixture
# with one value of each kind changed, to see it fail and name them.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
TOOL="$SOCMON_SRC/tools/noc_rtl_agreement.py"
FIX="$SOCMON_SRC/tests/esp/noc_rtl"
python3 "$TOOL" --require-all "$BIN" >"$TMP/out" 2>&1 && ok || bad "the model differs from the RTL: $(tail -22 "$TMP/out")"
ntraces=$(ls "$FIX/traces" | grep -c '\.txt$')
[ "$ntraces" -ge 30 ] && ok || bad "only $ntraces fixture traces"
nlines=$(grep -c '^[a-z0-9_]* *[0-9]*/[0-9]* ' "$TMP/out")
[ "$nlines" = "$ntraces" ] && ok || bad "$nlines trace lines for $ntraces traces: $(cat "$TMP/out")"
# 6 values a tile: its injections and its five queue_full registers, over every trace
want=$(python3 -c "
import os
d = '$FIX/expected'
print(sum(6 * sum(1 for l in open(os.path.join(d, f)) if l.startswith('tile ')) for f in os.listdir(d)))")
grep -Eq "^monitor values equal to the RTL's, as a driver reads them: $want of $want \(100.0 %\); drain and latency figures: ([0-9]+) of \1$" "$TMP/out" && ok ||
    bad "the totals line is not $want of $want: $(tail -1 "$TMP/out")"
# all three mesh sizes are in it
for m in 2x3 4x4 8x8; do
    grep -Eq "^(dir|syn)_${m}_" "$TMP/out" && ok || bad "no $m trace was compared"
done

# A corrupted fixture: one queue_full value, one drain, one latency mean changed. The tool must fail
# and name each.
mkdir -p "$TMP/fix/expected"
cp -r "$FIX/traces" "$TMP/fix/"
cp "$FIX/expected/"*.txt "$TMP/fix/expected/"
python3 - "$TMP/fix/expected/dir_2x3_256flit.txt" <<'PY'
import sys
p = sys.argv[1]
out = []
for line in open(p):
    w = line.split()
    if w[:2] == ["tile", "1"]:
        w[7] = str(int(w[7]) + 1)          # queue_full(4), the local port
        line = " ".join(w) + "\n"
    elif w[:1] == ["drain"]:
        line = "drain %d\n" % (int(w[1]) + 1)
    elif w[:1] == ["latency"]:
        w[4] = "%.3f" % (float(w[4]) + 0.5)  # the mean
        line = " ".join(w) + "\n"
    out.append(line)
open(p, "w").writelines(out)
PY
python3 "$TOOL" --require-all --fixture "$TMP/fix" "$BIN" 'dir_2x3_256flit' >"$TMP/bad" 2>&1 &&
    bad "a corrupted fixture passed: $(tail -5 "$TMP/bad")" || ok
grep -q 'dir_2x3_256flit: tile1.noc_out_p0_local: RTL' "$TMP/bad" && ok || bad "the changed register is not named: $(tail -6 "$TMP/bad")"
grep -q 'dir_2x3_256flit: drain: RTL' "$TMP/bad" && ok || bad "the changed drain is not named: $(tail -6 "$TMP/bad")"
grep -q 'dir_2x3_256flit: latency_mean: RTL' "$TMP/bad" && ok || bad "the changed latency is not named: $(tail -6 "$TMP/bad")"
finish noc_rtl_exact
