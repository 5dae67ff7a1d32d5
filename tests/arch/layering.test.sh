#!/bin/sh
# The layering rules (tests/arch/layering.py) hold on the source tree, and the
# checker itself catches a driver that includes a model header, a model that
# includes a driver header, core calling a target and a compat layer reaching
# into a driver: each planted in a copy of the tree must fail the check.
set -u
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
CHECK="$SRC/tests/arch/layering.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

if python3 "$CHECK" "$SRC"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the tree breaks the layering rules"; fi

plant() { # FILE INCLUDE: a copy of the tree with one bad include must fail, naming it
    rm -rf "$TMP/t" && mkdir -p "$TMP/t" && cp -R "$SRC/src" "$SRC/include" "$TMP/t/"
    mkdir -p "$(dirname "$TMP/t/$1")"
    printf '#include "%s"\n' "$2" >> "$TMP/t/$1"
    if out=$(python3 "$CHECK" "$TMP/t" 2>&1); then
        fail=$((fail + 1)); echo "FAIL: planted '$2' in $1 was not caught"
    elif printf '%s' "$out" | grep -q "$1:.*$2"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: planted '$2' in $1: message does not name it"; echo "$out"
    fi
}
plant src/drivers/esp/esp_driver.c models/esp/esp_soc.h
plant src/models/zynq/apm_model.c drivers/zynq/zynq_drv.h
plant src/core/timeline.c targets/target_internal.h
plant src/compat/esp/esp_api.c drivers/esp/esp_driver.h
plant src/hw/regfields.h core/error.h
plant include/socmon/bus.h core/error.h

echo "layering: $pass passed, $fail failed"
[ "$fail" = 0 ]
