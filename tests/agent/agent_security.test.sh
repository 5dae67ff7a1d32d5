#!/bin/sh
# The agent is safe by default: loopback unless a token is given; the token is checked (refusals
# logged with the peer's address); a client speaking garbage or another protocol version gets an
# ERROR and is dropped while other collectors go on; a stuck client holds nobody up; --max-clients;
# read-only unless --allow-config; root dropped.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
WC="python3 $SOCMON_SRC/tests/agent/wire_client.py"

# binding: anything but loopback needs a token
expect 1 "refusing to listen on 0.0.0.0:.* (not a loopback address) without a token" -- \
    "$BIN" agent --listen 0.0.0.0:0 -d 1ms
expect 1 "address 'nohost' has no port" -- "$BIN" agent --listen nohost
# the agent's options come from the shared table (src/cli/opts.c): its own checks and messages
expect 2 "agent: --ring takes a number 2..4294967296, got '1'" -- "$BIN" agent --ring 1
expect 2 "agent: --max-clients takes a number 1..1024, got '0'" -- "$BIN" agent --max-clients 0
expect 2 "agent: option --listen needs a value" -- "$BIN" agent --listen
expect 2 "agent: bad interval '0'" -- "$BIN" agent -I 0
expect 2 "agent: unexpected argument 'extra'" -- "$BIN" agent extra
expect 0 "Options of target 'esp'" -- "$BIN" agent --help -t esp
printf 's3cret\n' >"$TMP/token"
chmod 644 "$TMP/token"
expect 1 "token file '$TMP/token' is readable by others (mode 644): chmod 600 it" -- \
    "$BIN" agent --listen 0.0.0.0:0 --token-file "$TMP/token"
chmod 600 "$TMP/token"
printf 'wrong\n' >"$TMP/wrong"
chmod 600 "$TMP/wrong"

# a token on any address; wrong and missing tokens refused and logged with the peer's address
rm -f "$TMP/tok.port"
"$BIN" agent -t esp -I 100us -d 20ms --no-pace --listen 0.0.0.0:0 --token-file "$TMP/token" \
    --port-file "$TMP/tok.port" 2>"$TMP/tok.err" &
AGENT_PID=$!
PIDS="$PIDS $AGENT_PID"
wait_for test -s "$TMP/tok.port" || bad "token agent did not start: $(cat "$TMP/tok.err")"
AGENT=127.0.0.1:$(cat "$TMP/tok.port")
expect 1 "agent refused the token (wrong token)" -- "$BIN" record --remote "$AGENT" --token-file "$TMP/wrong" -o "$TMP/t.rec"
expect 1 "agent refused the token (none given" -- "$BIN" record --remote "$AGENT" -o "$TMP/t.rec"
[ ! -e "$TMP/t.rec" ] && ok || bad "a refused collector left a file"
expect 0 "wrote 201 samples" -- "$BIN" record --remote "$AGENT" --token-file "$TMP/token" -o "$TMP/t.rec"
grep -q "refused 127.0.0.1:[0-9]*: agent refused the token (wrong token)" "$TMP/tok.err" && ok ||
    bad "the wrong token was not logged with the peer: $(cat "$TMP/tok.err")"
grep -q "listening on 0.0.0.0:.*token required" "$TMP/tok.err" && ok || bad "agent did not say it needs a token"
stop_agent

# garbage and a protocol version it does not speak: ERROR, logged, dropped; a collector at the
# same time gets all its samples. The agent is paced, so it also never waits for anyone.
start_agent mix -t esp -w multifft -I 1ms -d 400ms
"$BIN" record --remote "$AGENT" -o "$TMP/mix.rec" -q >"$TMP/mix.out" 2>&1 &
CPID=$!
PIDS="$PIDS $CPID"
expect 0 "ERROR 1: not a socmon agent frame (bad magic 47 at byte 0" -- $WC garbage "$AGENT"
expect 0 "closed" -- $WC garbage "$AGENT"
expect 0 "ERROR 2: protocol version 1 not supported: this agent speaks version 2" -- $WC version "$AGENT"
expect 0 "ERROR 2: protocol version 3 not supported: this agent speaks version 2" -- $WC version "$AGENT" 3
# a stuck client (subscribed, never reading) holds up neither the sampler nor the collector
$WC stuck "$AGENT" "$TMP/stuck.ready" &
SPID=$!
PIDS="$PIDS $SPID"
wait_for test -e "$TMP/stuck.ready" || bad "stuck client did not connect"
wait "$CPID" && ok || bad "the collector failed next to garbage clients: $(cat "$TMP/mix.out")"
grep -q "wrote 401 samples (0 lost" "$TMP/mix.out" && ok || bad "the collector lost samples: $(cat "$TMP/mix.out")"
grep -q "dropped 127.0.0.1:[0-9]*: not a socmon agent frame" "$TMP/mix.err" && ok || bad "garbage client not logged"
grep -q "refused 127.0.0.1:[0-9]*: protocol version 1 not supported" "$TMP/mix.err" && ok || bad "version not logged"
kill -9 "$SPID"
stop_agent

# --max-clients: one more is refused with a reason, and logged
start_agent max -t esp -I 1ms -d 10s --max-clients 1
$WC stuck "$AGENT" "$TMP/one.ready" &
SPID=$!
PIDS="$PIDS $SPID"
wait_for test -e "$TMP/one.ready" || bad "first client did not connect"
expect 1 "too many collectors (--max-clients 1)" -- "$BIN" record --remote "$AGENT" -o "$TMP/m.rec"
kill -9 "$SPID"
stop_agent
grep -q "refused 127.0.0.1:[0-9]*: too many collectors" "$TMP/max.err" && ok || bad "max-clients refusal not logged"

# read-only by default: CONFIG refused (and logged); allowed with --allow-config
start_agent ro -t esp -I 100us -d 20ms --no-pace --wait-collector
expect 0 "ERROR 5: CONFIG refused: the agent runs without --allow-config" -- $WC config "$AGENT" "tile0.*"
expect 1 "CONFIG refused: the agent runs without --allow-config" -- \
    "$BIN" record --remote "$AGENT" -e "tile0.*" -o "$TMP/c.rec"
stop_agent
grep -q "refused CONFIG from 127.0.0.1:[0-9]* (events 'tile0.\*')" "$TMP/ro.err" && ok || bad "refused CONFIG not logged"
start_agent rw -t esp -I 100us -d 20ms --no-pace --wait-collector --allow-config
expect 0 "ERROR 5: CONFIG 'nosuch\*' failed: .*matches no counter" -- $WC config "$AGENT" "nosuch*"
expect 0 "wrote 201 samples" -- "$BIN" record --remote "$AGENT" -e "tile0.*" -o "$TMP/c.rec" -q
stop_agent
expect 0 "counters: *78" -- "$BIN" report -i "$TMP/c.rec" --stats
grep -q "CONFIG applied: now counting 78 counters ('tile0.\*')" "$TMP/rw.err" && ok || bad "CONFIG not logged"

# a CONFIG mid-run: every collector gets the new schema; a recording (one schema per file) ends
# there with an error saying why, its file complete up to the change (-d 600s: a run that cannot end
# before the CONFIG however slow the machine; the test stops it)
start_agent cfg -t esp -w multifft -I 1ms -d 600s --allow-config
"$BIN" record --remote "$AGENT" -o "$TMP/cfg.rec" -q --flush 20ms >"$TMP/cfg.out" 2>&1 &
CPID=$!
PIDS="$PIDS $CPID"
has_samples() { "$BIN" report -i "$TMP/cfg.rec" --stats 2>/dev/null | grep -Eq "samples: +[1-9]"; }
wait_for has_samples || bad "the collector wrote nothing"
expect 0 "^HELLO" -- $WC config "$AGENT" "tile1.*"
wait "$CPID"
rc=$?
[ $rc = 1 ] && ok || bad "recording collector exited $rc at a CONFIG, expected 1"
grep -q "its counters changed mid-run (a CONFIG, config generation 1" "$TMP/cfg.out" && ok ||
    bad "collector did not say why it stopped: $(cat "$TMP/cfg.out")"
expect 0 "lost: *nothing" -- "$BIN" report -i "$TMP/cfg.rec" --stats
stop_agent

# a collector refuses an agent of another protocol version, and says so
rm -f "$TMP/fake.port"
$WC fake_agent "$TMP/fake.port" 3 &
PIDS="$PIDS $!"
wait_for test -s "$TMP/fake.port" || bad "fake agent did not start"
expect 1 "speaks protocol version 3, this socmon speaks versions 1 and 2" -- \
    "$BIN" record --remote "127.0.0.1:$(cat "$TMP/fake.port")" -o "$TMP/f.rec"

# root: dropped to nobody (or --user) once the target is open and the socket bound
if [ "$(id -u)" = 0 ]; then
    start_agent root -t esp -I 1ms -d 10s
    # The port file is written while still root (its directory may be one only root can write,
    # e.g. /run), so it says "bound", not "dropped": wait for the agent's own word that it dropped.
    wait_for grep -q "running as user" "$TMP/root.err" || bad "agent did not log its privilege drop"
    uid=$(awk '/^Uid:/ {print $2 $3 $4 $5}' "/proc/$AGENT_PID/status")
    [ "$uid" = "$(id -u nobody)$(id -u nobody)$(id -u nobody)$(id -u nobody)" ] && ok ||
        bad "agent still runs as uid $uid after start"
    grep -q "running as user 'nobody'" "$TMP/root.err" && ok || bad "agent did not say it dropped root"
    stop_agent
    expect 1 "--user 'nosuchuser': no such user" -- "$BIN" agent --user nosuchuser -d 1ms
else
    expect 1 "only root can switch users" -- "$BIN" agent --user root -d 1ms
fi
finish agent_security
