#!/bin/sh
# Every number unchanged (issue 24): stat, record and report on every model target (ESP's workloads on
# the built-in 2x3 and the 4x4 SoC, Tensix's five kernels, Zynq's APM in profile and advanced mode, Ibex
# programs in the small and maxperf configurations), in every output format, give the values captured
# on main before the analysis layer replaced the commands' own pipelines: tests/cli/baseline/ (its
# README says how and from which commit). Values are parsed out of each format and compared exactly;
# wording and layout are free to change. The checks are in baseline.py.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
: "${SOCMON_DATADIR:=$SOCMON_SRC}"   # soc=esp_4x4 is found there
export SOCMON_DATADIR
# A sanitizer build (make test-asan) runs every program several times slower: there one case per
# target configuration (the numbers are the same in every build; the plain build checks them all).
subset=
if ldd "$BIN" 2>/dev/null | grep -q -e libasan -e libubsan; then
    subset=--subset
    echo "baseline: a sanitizer build: one case per target configuration"
fi
if python3 "$SOCMON_SRC/tests/cli/baseline.py" check "$BIN" "$SOCMON_SRC/tests/cli/baseline/values.txt.gz" -j 2 $subset
then ok; else bad "a value differs from tests/cli/baseline/values.txt.gz (above)"; fi
finish baseline
