#!/bin/sh
# How the page writes numbers, times and count units (web/src/units.js), in node: the cases of
# tests/web/units_check.js.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
command -v node >/dev/null 2>&1 || { echo "units: SKIPPED: node is not installed (sh scripts/install-deps.sh)"; exit 77; }
node "$SOCMON_SRC/tests/web/units_check.js" && ok || bad "units_check.js (above says which case)"
finish units
