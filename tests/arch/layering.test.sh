#!/bin/sh
# The layering rules hold on the source tree (tests/arch/layering.py, the
# includes) and on the library's objects in the build tree
# (tests/arch/link_layering.py, who calls whom), and both checkers catch what
# they exist for: a driver that includes a model header, a model that includes
# a driver header, core including a target's header, a compat layer reaching
# into a driver, a target including a vendor API (include/compat); a driver
# calling the model, core calling a target, a compat layer calling an internal
# symbol, a target calling a vendor API; the CLI including a target's, driver's or model's
# internal header, or cli/, export/ or agent/ comparing a target's name: each planted in a copy
# must fail the check.
set -u
SRC=${SOCMON_SRC:?SOCMON_SRC must point at the source tree}
BUILD=${SOCMON_BUILD:?SOCMON_BUILD must point at the build tree}
CHECK="$SRC/tests/arch/layering.py"
LINKCHECK="$SRC/tests/arch/link_layering.py"
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
pass=0
fail=0

if python3 "$CHECK" "$SRC"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the tree breaks the layering rules"; fi

# The plants go into one copy of the tree (src/ and include/), each file put back as it was after
# its check: copying the tree for every plant was most of this test's time.
mkdir -p "$TMP/t" && cp -R "$SRC/src" "$SRC/include" "$TMP/t/"
put_back() { # FILE: as the source tree has it
    cp "$SRC/$1" "$TMP/t/$1"
}
plant() { # FILE INCLUDE: the tree with one bad include must fail, naming it
    printf '#include "%s"\n' "$2" >> "$TMP/t/$1"
    if out=$(python3 "$CHECK" "$TMP/t" 2>&1); then
        fail=$((fail + 1)); echo "FAIL: planted '$2' in $1 was not caught"
    elif printf '%s' "$out" | grep -q "$1:.*$2"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: planted '$2' in $1: message does not name it"; echo "$out"
    fi
    put_back "$1"
}
plant src/drivers/esp/esp_driver.c models/esp/esp_soc.h
plant src/models/zynq/apm_model.c drivers/zynq/zynq_drv.h
plant src/recording/timeline.c targets/target_internal.h
plant src/compat/esp/esp_api.c drivers/esp/esp_driver.h
plant src/hw/regfields.h core/error.h
plant include/socmon/bus.h core/error.h
plant src/recording/timeline.c socmon/target.h
plant src/core/device.c socmon/sampler.h
plant src/drivers/zynq/apm_drv.c socmon/socmon.h
plant src/cli/main.c targets/model_target.h
plant src/cli/cmd_list.c drivers/perf/perf_names.h
plant src/cli/program.c models/ibex/ibex_model.h
plant src/targets/tensix.c llk_perf_counters.h

# Targets by capability (issue 24): a compare of a built-in target's name in cli/, export/ or
# agent/ must fail, naming the file and the name; the same text in a comment must not.
plant_cmp() { # FILE NAME LINE: the tree with LINE appended to FILE must fail, naming FILE and NAME
    printf '%s\n' "$3" >> "$TMP/t/$1"
    if out=$(python3 "$CHECK" "$TMP/t" 2>&1); then
        fail=$((fail + 1)); echo "FAIL: planted compare with \"$2\" in $1 was not caught"
    elif printf '%s' "$out" | grep -q "$1:.*compares a target name (\"$2"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: planted compare in $1: message does not name it"; echo "$out"
    fi
    put_back "$1"
}
plant_cmp src/serve/live.c zynq 'static int planted(const char *t) { return strcmp(t, "zynq") == 0; }'
plant_cmp src/export/fmt_csv.c ibex 'static int planted(const char *t) { return !strncmp(t,
    "ibex:", 5); }'
plant_cmp src/cli/opts.c tensix 'static int planted(const char *t) { return memcmp(t, "tensix", 6) == 0; }'
printf '/* strcmp(t, "host") was how this used to be done */\n' >> "$TMP/t/src/cli/opts.c"
if python3 "$CHECK" "$TMP/t" >/dev/null 2>&1; then pass=$((pass + 1)); else
    fail=$((fail + 1)); echo "FAIL: a target name compare inside a comment was reported"; fi

OBJS=CMakeFiles/socmon.dir
if python3 "$LINKCHECK" "$BUILD"; then pass=$((pass + 1)); else fail=$((fail + 1)); echo "FAIL: the library's objects break the layering rules"; fi

# the library's objects, copied once: only those it is made of now (a build tree keeps stale ones
# of moved sources), without build.make, whose list would leave a planted object out
rm -rf "$TMP/b" && mkdir -p "$TMP/b/$OBJS"
if [ -f "$BUILD/$OBJS/build.make" ]; then
    (cd "$BUILD/$OBJS" && grep -o '"CMakeFiles/socmon.dir/[^"]*\.o"' build.make | tr -d '"' |
        sed 's|^CMakeFiles/socmon.dir/||' | xargs cp --parents -t "$TMP/b/$OBJS")
else
    cp -R "$BUILD/$OBJS/." "$TMP/b/$OBJS/"
fi
linkplant() { # OBJECT SYMBOL: the objects plus OBJECT calling SYMBOL must fail, naming both
    printf 'extern int %s(void);\nint planted_call(void) { return %s(); }\n' "$2" "$2" > "$TMP/planted.c"
    mkdir -p "$(dirname "$TMP/b/$OBJS/$1")"
    if ! ${CC:-cc} -c -o "$TMP/b/$OBJS/$1" "$TMP/planted.c"; then
        fail=$((fail + 1)); echo "FAIL: cannot compile the planted object $1"; return
    fi
    if out=$(python3 "$LINKCHECK" "$TMP/b" 2>&1); then
        fail=$((fail + 1)); echo "FAIL: planted call of $2 in $1 was not caught"
    elif printf '%s' "$out" | grep -q "$1: .*$2"; then
        pass=$((pass + 1))
    else
        fail=$((fail + 1)); echo "FAIL: planted call of $2 in $1: message does not name it"; echo "$out"
    fi
    rm -f "$TMP/b/$OBJS/$1"   # the next plant starts from the library's objects alone
}
linkplant src/drivers/esp/planted.c.o smn_esp_soc_new
linkplant src/models/zynq/planted.c.o smn_zynq_device_new
linkplant src/core/planted.c.o socmon_target_open
linkplant src/core/planted.c.o socmon_sampler_run
linkplant src/compat/esp/planted.c.o smn_bus_backend_priv
linkplant src/targets/planted.c.o llk_perf_start
# an empty or wrong build tree is a failure, not a pass
if python3 "$LINKCHECK" "$TMP/nothing" >/dev/null 2>&1; then
    fail=$((fail + 1)); echo "FAIL: the link check passed on a tree without objects"
else
    pass=$((pass + 1))
fi

echo "layering: $pass passed, $fail failed"
[ "$fail" = 0 ]
