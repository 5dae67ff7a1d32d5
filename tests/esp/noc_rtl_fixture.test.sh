#!/bin/sh
# The RTL oracle fixture (tests/esp/noc_rtl/README.md) is well-formed and self-consistent, and the
# checker rejects a fixture corrupted in each way it guards against. Needs no RTL and no Verilator.
set -eu
: "${SOCMON_SRC:?}"
FIX="$SOCMON_SRC/tests/esp/noc_rtl"
CHECK="$SOCMON_SRC/tests/esp/noc_rtl_fixture.py"
python3 "$CHECK" check "$FIX"
# The two traces the corruptions below touch pass on their own (else a failure would prove nothing).
python3 "$CHECK" check "$FIX" dir_2x3_stall_sink syn_2x3_uniform_near >/dev/null

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Each corruption must make the checker fail (exit 1, a message naming the trace).
corrupt() {
    rm -rf "$tmp/f"; cp -R "$FIX" "$tmp/f"
    python3 - "$tmp/f" "$1" <<'PY'
import os, sys
d, how = sys.argv[1], sys.argv[2]
e = os.path.join(d, "expected", "dir_2x3_stall_sink.txt")
lines = open(e).read().split("\n")
def edit(prefix, fn):
    i = next(i for i, l in enumerate(lines) if l.startswith(prefix))
    w = lines[i].split(); fn(w); lines[i] = " ".join(w)
if how == "inject":    edit("tile 0 ", lambda w: w.__setitem__(2, str(int(w[2]) + 1)))
if how == "link":      edit("tile 1 ", lambda w: w.__setitem__(6, "0"))
if how == "latency":   edit("pkt 1 ", lambda w: w.__setitem__(7, str(int(w[7]) - 1)))
if how == "mean":      edit("latency", lambda w: w.__setitem__(4, "1.000"))
if how == "drain":     edit("drain", lambda w: w.__setitem__(1, "3"))
if how == "pkt":       lines.remove(next(l for l in lines if l.startswith("pkt 2 ")))
if how == "fast":      edit("pkt 2 ", lambda w: (w.__setitem__(6, str(int(w[5]) + 1)), w.__setitem__(7, "1")))
open(e, "w").write("\n".join(lines))
if how == "missing":   os.remove(e)
if how == "synthetic":
    t = os.path.join(d, "traces", "syn_2x3_uniform_near.txt")
    open(t, "a").write("5000 0 1 1\n")
PY
    if python3 "$CHECK" check "$tmp/f" dir_2x3_stall_sink syn_2x3_uniform_near >"$tmp/out" 2>&1; then
        echo "noc_rtl_fixture: a fixture corrupted ($1) passed the check"; exit 1
    fi
    grep -q -e dir_2x3_stall_sink -e syn_2x3_uniform_near "$tmp/out" || {
        echo "noc_rtl_fixture: corruption $1: the message names no trace:"; cat "$tmp/out"; exit 1; }
}
for how in inject link latency mean drain pkt fast missing synthetic; do corrupt "$how"; done
echo "noc_rtl_fixture: 9 corruptions rejected"
