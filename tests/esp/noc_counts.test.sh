#!/bin/sh
# Every counter of every ESP workload on the 2x3, 4x4 and 8x8 SoCs, value by value, equal to the
# fixture taken before issue 29 rewrote the NoC model for speed (tests/esp/noc_counts/README.md).
set -eu
: "${SOCMON_BIN:?}" "${SOCMON_SRC:?}"
exec python3 "$SOCMON_SRC/tests/esp/noc_counts.py" check "$SOCMON_BIN"
