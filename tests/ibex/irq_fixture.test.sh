#!/bin/sh
# The interrupt programs' RTL fixture (tests/ibex/fixtures/README.md, "The interrupt programs") is
# complete and self-consistent: every irq_* program has its .out, .counters and .windows in small
# and maxperf, the files agree with each other, and the programs build to the images whose hashes
# images.sha256 holds (when the cross compiler is installed). Then the model-vs-RTL report runs and
# says "same" for every program in both configurations (test_ibex_programs checks the same
# outputs byte for byte; this checks the report that explains a difference).
set -eu
: "${SOCMON_SRC:?}" "${SOCMON_BIN:?}"
A="$SOCMON_SRC/tests/ibex/irq_agreement.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if command -v riscv64-unknown-elf-gcc >/dev/null 2>&1; then
    make -s -C "$SOCMON_SRC/tests/ibex/programs" O="$tmp/elf" >"$tmp/make.log" 2>&1 || { cat "$tmp/make.log"; exit 1; }
    python3 "$A" check --elf-dir "$tmp/elf"
    python3 "$A" compare --socmon "$SOCMON_BIN" --elf-dir "$tmp/elf" >"$tmp/report" || { cat "$tmp/report"; exit 1; }
    grep -q '^| irq_mret | small |' "$tmp/report" || { echo "irq_fixture: no report line for irq_mret"; exit 1; }
    # every irq_* program matches the RTL in both configurations, and the report says so
    n=0
    for f in "$SOCMON_SRC"/tests/ibex/programs/irq_*.S; do
        p=$(basename "$f" .S)
        n=$((n + 1))
        if [ "$(grep -c "^| $p | [a-z]* | same | none |" "$tmp/report")" != 2 ]; then
            echo "irq_fixture: $p differs from the RTL:"; grep "^| $p |" "$tmp/report"; exit 1
        fi
    done
    [ "$n" -ge 7 ] || { echo "irq_fixture: only $n irq_* programs"; exit 1; }
else
    python3 "$A" check
fi
# a fixture with a file missing fails the check
cp -R "$SOCMON_SRC/tests/ibex/fixtures" "$tmp/fix"
rm "$tmp/fix/maxperf/irq_wfi.windows"
if python3 "$A" check --fixtures "$tmp/fix" >"$tmp/out" 2>&1; then
    echo "irq_fixture: a fixture without maxperf/irq_wfi.windows passed the check"; exit 1
fi
grep -q "maxperf/irq_wfi: missing irq_wfi.windows" "$tmp/out"
echo "irq_fixture: ok"
