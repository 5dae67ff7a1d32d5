#!/bin/sh
# Wire protocol v2 on the 8x8 ESP SoC (issue 29): every counter (2,840), multifft for 1 s at 50 us,
# unpaced, streamed agent -> a relay that counts the bytes on the socket -> record --remote. At most
# 500 bytes per sample reach the collector, none is lost, and the remote recording reports exactly
# as a local one (every counter's delta in every interval). The same run in version 1
# (agent --wire-version 1, which the collector still reads) is measured next to it.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
. "$SOCMON_SRC/tests/agent/agent_lib.sh"
: "${SOCMON_DATADIR:=$SOCMON_SRC}"
export SOCMON_DATADIR
RUN="-t esp:soc=esp_8x8 -w multifft -d 1s -I 50us"   # socs/esp_8x8.soc, found in SOCMON_DATADIR

# relayed VERSION: one remote recording through the byte-counting relay; sets BYTES (to the
# collector) and SAMPLES
relayed() {
    start_agent "v$1" $RUN --no-pace --wait-collector --exit-when-drained --wire-version "$1" || return
    rm -f "$TMP/relay$1.port"
    python3 "$SOCMON_SRC/tests/agent/byte_relay.py" "$TMP/relay$1.port" "$AGENT" "$TMP/count$1" &
    RELAY=$!
    PIDS="$PIDS $RELAY"
    wait_for test -s "$TMP/relay$1.port" || bad "relay did not start"
    "$BIN" record --remote "127.0.0.1:$(cat "$TMP/relay$1.port")" -o "$TMP/remote$1.rec" -q >"$TMP/rec$1.out" 2>&1 &&
        ok || bad "record --remote (version $1) failed: $(cat "$TMP/rec$1.out")"
    wait "$RELAY"
    wait "$AGENT_PID" && ok || bad "agent (version $1) did not exit 0: $(cat "$TMP/v$1.err")"
    grep -q "wrote 20,001 samples (0 lost at the agent)" "$TMP/rec$1.out" && ok ||
        bad "version $1: not all 20001 samples arrived: $(cat "$TMP/rec$1.out")"
    BYTES=$(awk '/^to_collector/ {print $2}' "$TMP/count$1")
    SAMPLES=20001
}

relayed 2
V2=$BYTES
relayed 1
V1=$BYTES
echo "wire bytes per sample to the collector: version 2 $((V2 / SAMPLES)), version 1 $((V1 / SAMPLES))"
[ -n "$V2" ] && [ "$V2" -le $((500 * SAMPLES)) ] && ok ||
    bad "version 2 sent $V2 bytes for $SAMPLES samples: more than 500 per sample"
[ -n "$V1" ] && [ "$V2" -lt "$V1" ] && ok || bad "version 2 ($V2 bytes) is not smaller than version 1 ($V1)"

# remote == local, every counter's delta in every interval (the local recording's phase column,
# which a stream does not carry, left out)
"$BIN" record $RUN -q -o "$TMP/local.rec" >/dev/null
digest() {
    "$BIN" report -i "$1" --deltas -x, | python3 -c '
import hashlib, sys
h, phase = hashlib.sha256(), None
for line in sys.stdin:
    f = line.rstrip("\n").split(",")
    if phase is None:
        phase = f.index("phase") if "phase" in f else -1
    if phase >= 0:
        del f[phase]
    h.update((",".join(f) + "\n").encode())
print(h.hexdigest())'
}
L=$(digest "$TMP/local.rec")
for v in 2 1; do
    R=$(digest "$TMP/remote$v.rec")
    [ -n "$L" ] && [ "$R" = "$L" ] && ok || bad "version $v: report --deltas of the remote recording differs from the local one"
done
finish wire_bytes
