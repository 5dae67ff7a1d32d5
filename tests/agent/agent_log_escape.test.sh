#!/bin/sh
# A peer's strings cannot forge or garble the agent's log (issue 23, item 8): a CONFIG whose events
# string holds a newline and a terminal escape reaches the log escaped, on its own line.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"
EVIL=$(printf 'x\n[forged] socmon agent: collector 10.0.0.1:1 connected\033[2J')
ESC=$(printf '\033')

check_log() {   # FILE: the CONFIG logged escaped, no raw ESC, no line of its own for the forgery
    grep -qF 'x\x0a[forged] socmon agent: collector 10.0.0.1:1 connected\x1b[2J' "$1" && ok ||
        bad "$1 lacks the escaped events string: $(cat -v "$1")"
    grep -q "$ESC" "$1" && bad "$1 holds a raw ESC byte: $(cat -v "$1")" || ok
    grep -q '^\[forged\]' "$1" && bad "$1 has a forged line: $(cat -v "$1")" || ok
}

# with --allow-config: logged when received, and again in the failure it causes (no such counter)
start_agent rw -t esp -I 100us -d 20ms --no-pace --wait-collector --allow-config
expect 0 "matches no counter" -- $WC config "$AGENT" "$EVIL"
stop_agent
grep -q "CONFIG from 127.0.0.1:[0-9]*: events 'x" "$TMP/rw.err" && ok || bad "CONFIG not logged: $(cat -v "$TMP/rw.err")"
check_log "$TMP/rw.err"
# without it: the refusal is logged with the same escaping
start_agent ro -t esp -I 100us -d 20ms --no-pace --wait-collector
expect 0 "ERROR 5: CONFIG refused" -- $WC config "$AGENT" "$EVIL"
stop_agent
check_log "$TMP/ro.err"
finish agent_log_escape
