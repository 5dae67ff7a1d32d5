#!/bin/sh
# A collector sending CONFIGs in a loop (agent --allow-config): every one is answered with a HELLO
# of the new schema, the agent does not hang, and its memory does not grow with them.
# - The hang: the sampling thread waited until no CONFIG was pending, and a collector's next
#   CONFIG could arrive before it woke from the last one; it then waited on that one forever
#   (every later CONFIG "another is in progress"). Here it came after 400-1,000 CONFIGs.
# - The growth: each CONFIG kept the set, source and pipeline it replaced to the close, about
#   130 KB each for the ESP target's 483 counters (80 MB over 600 CONFIGs). Now each goes at once;
#   resident memory moves by about 2 MB as the sampling goes on.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"
N=2000

# -d 600s: the run cannot end before the CONFIGs however slow the machine; the test stops it
start_agent loop -t esp -I 100us -d 600s --allow-config
$WC configs "$AGENT" $N "$AGENT_PID" '*' 'tile0.*' 'tile1.*' >"$TMP/loop.out" 2>&1 && ok ||
    bad "$N CONFIGs in a row: $(tail -3 "$TMP/loop.out")"
# still answering, and still counting what the last CONFIG chose
expect 0 "HELLO" -- $WC config "$AGENT" 'tile2.*'
stop_agent
applied=$(grep -c "CONFIG applied" "$TMP/loop.err")
[ "$applied" = $((N + 1)) ] && ok || bad "$applied CONFIGs applied, expected $((N + 1))"
grep -q "CONFIG applied: now counting 82 counters ('tile2.\*'), config generation $((N + 1))," "$TMP/loop.err" && ok ||
    bad "the last CONFIG not applied: $(tail -2 "$TMP/loop.err")"

# resident memory after the first quarter of the CONFIGs and after all: at most 8 MB more
python3 - "$TMP/loop.out" <<'PY' && ok || bad "the agent grew with the CONFIGs: $(cat "$TMP/loop.out")"
import re, sys
m = re.search(r"resident after (\d+) CONFIGs: (\d+) KiB, after (\d+): (\d+) KiB", open(sys.argv[1]).read())
assert m, "no resident memory figures"
grew = int(m.group(4)) - int(m.group(2))
print("grew by %d KiB from CONFIG %s to %s" % (grew, m.group(1), m.group(3)))
sys.exit(0 if grew <= 8 * 1024 else 1)
PY
finish agent_config_loop
