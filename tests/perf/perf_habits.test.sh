#!/bin/sh
# perf's habits pick the host target (issue 37, item 10): `socmon stat -a -e cache-misses -d 1s`
# used to count on the default ESP model. -a or -C without -t, and -e naming events the default
# target has no counter for but the host takes, select the target that counts this machine's CPUs
# (found by its capability, SOCMON_TARGET_RUNS_COMMAND); an event the machine cannot count is
# <not supported> with exit 0, as perf prints it, unless nothing at all could be counted. A
# device's counter patterns still pick the default model, and a name neither knows is an error
# naming -t host. Skips where perf_event_open does not work at all.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"

if ! "$BIN" stat -e task-clock -- true 2>"$TMP/probe"; then
    if grep -q "not available here" "$TMP/probe"; then echo "skip: perf_event_open unavailable"; exit 0; fi
fi
# whole CPUs need perf_event_paranoid <= 0 or CAP_PERFMON; without them the host's own refusal
# (naming perf_event_paranoid) is the right answer, never a run on the model
whole=0
"$BIN" stat -t host -a -e task-clock -d 1ms >/dev/null 2>&1 && whole=1
nopmu=0
[ -e /sys/bus/event_source/devices/cpu ] || nopmu=1

# host_run WHAT ARGS...: the run is the host's: its table (exit 0), or, without the right to count
# whole CPUs, the host's refusal; never the ESP model
host_run() {
    what=$1
    shift
    "$@" >"$TMP/out" 2>&1
    rc=$?
    if grep -q "target 'esp'\|device 'esp'" "$TMP/out"; then
        bad "$what: ran on the ESP model: $(head -3 "$TMP/out")"
    elif [ $whole = 1 ] && [ $rc = 0 ] && grep -q "target 'host'" "$TMP/out"; then ok
    elif [ $whole = 0 ] && [ $rc = 1 ] && grep -q "perf_event_paranoid" "$TMP/out"; then ok
    else bad "$what: exit $rc: $(head -5 "$TMP/out")"; fi
}

host_run "-a" "$BIN" stat -a -d 50ms
host_run "-C 0" "$BIN" stat -C 0 -d 50ms
host_run "-a -e cache-misses,task-clock" "$BIN" stat -a -e cache-misses,task-clock -d 50ms
if [ $whole = 1 ] && [ $nopmu = 1 ]; then
    # no hardware PMU here: the hardware event is <not supported>, the software one counts, exit 0
    grep -q "cache-misses *<not supported>" "$TMP/out" && ok || bad "cache-misses not <not supported>: $(cat "$TMP/out")"
    grep -q "task_clock" "$TMP/out" && ok || bad "task-clock not counted: $(cat "$TMP/out")"
    # ... and nothing countable at all is an error, as perf's
    expect 1 "none of the events can be counted here (cache-misses: not supported" -- \
        "$BIN" stat -a -e cache-misses -d 50ms
    expect 0 "cache-misses,,<not supported>" -- "$BIN" stat -a -e cache-misses,task-clock -x, -d 50ms
    # read shows it too (it left it out without a word)
    expect 0 "cache-misses *<not supported>" -- "$BIN" read -e cache-misses,task-clock
fi
# host event names alone, without -a, are the host's too (every CPU, as -t host without a command)
host_run "-e cache-misses,task-clock" "$BIN" stat -e cache-misses,task-clock -d 50ms
host_run "-e cache-misses,task-clock (record)" "$BIN" record -e cache-misses,task-clock -d 50ms -o "$TMP/h.rec"
if [ $whole = 1 ]; then
    expect 0 "target 'host'" -- "$BIN" report -i "$TMP/h.rec" --summary
    # record says what it could not count instead of leaving it out in silence
    [ $nopmu = 1 ] && { grep -q "<not supported> here, so not in the recording: cache-misses" "$TMP/out" && ok ||
        bad "record: cache-misses left out without a word: $(cat "$TMP/out")"; }
fi
# with a command they always were
expect 0 "stats for target 'host'" -- "$BIN" stat -e cache-misses,task-clock -- true

# the model's own vocabulary keeps the model: -e over its counters, -a with -t
expect 0 "stats for target 'esp'" -- "$BIN" stat -e 'tile0.l2_*' -d 1ms
expect 0 "stats for target 'esp'" -- "$BIN" stat -t esp -a -d 1ms
# a name neither knows: the default target's error, and where else to look
expect 1 "counter pattern 'instrutions' matches no counter of device 'esp'.*nor is it an event -t host counts" -- \
    "$BIN" stat -e instrutions -d 1ms
finish perf_habits
