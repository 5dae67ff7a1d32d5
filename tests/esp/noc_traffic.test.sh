#!/bin/sh
# Traffic you choose (docs/esp-model.md): a NoC trace replayed and the synthetic patterns, as
# `stat --json` reports them: the trace's packets and flits all delivered, the tiles'
# injection monitors adding up to what the model counts, an uncontended packet's latency equal
# to the model's zero-load hops + flits, the drain after the last offer; and bad traces and
# patterns refused with exit 2, naming the line and the field.
. "${SOCMON_SRC:?SOCMON_SRC must point at the source tree}/tests/support/expect.sh"
SRC=$SOCMON_SRC
TR=$SRC/tests/esp/traces

# check.py TRACE JSON: the run's results against the trace file itself.
cat >"$TMP/check.py" <<'PY'
import json, sys
trace, doc = sys.argv[1], json.load(open(sys.argv[2]))
rows = cols = None
plane, pkts = 0, []
for line in open(trace):
    w = line.split('#')[0].split()
    if not w:
        continue
    if w[0] == 'mesh':
        rows, cols = int(w[1]), int(w[2])
    elif w[0] == 'plane':
        plane = int(w[1])
    elif w[0][0].isdigit():
        pkts.append(tuple(int(x) for x in w))
res = {r['name']: r['value'] for r in doc['results']}
counters = {c['name']: c for c in doc['counters']}
fails = []
def want(cond, what):
    if not cond:
        fails.append(what)
want(res['packets'] == len(pkts), 'packets %s, the trace has %d' % (res['packets'], len(pkts)))
want(res['flits'] == sum(p[3] for p in pkts), 'flits %s, the trace has %d' % (res['flits'], sum(p[3] for p in pkts)))
inj = [c for n, c in counters.items() if n.endswith('.noc_inj_p%d' % plane)]
want(len(inj) == rows * cols, '%d injection counters for %d tiles' % (len(inj), rows * cols))
unit = inj[0]['unit']   # what the model counts per injection: packets, or flits
want(unit in res, 'the injection unit %r is no result' % unit)
want(sum(c['value'] for c in inj) == res.get(unit), 'injections on plane %d sum to %d, the model counts %s %s'
     % (plane, sum(c['value'] for c in inj), res.get(unit), unit))
for p in range(6):   # only the trace's plane carries anything
    if p != plane:
        want(sum(c['value'] for n, c in counters.items() if n.endswith('.noc_inj_p%d' % p)) == 0, 'plane %d moved' % p)
want(res['cycles'] > pkts[-1][0], 'drained at %s, before the last offer in cycle %d' % (res['cycles'], pkts[-1][0]))
want(res['latency_min'] <= res['latency_mean'] <= res['latency_p99'] <= res['latency_max'], 'latency order')
hop = lambda s, d: abs(s // cols - d // cols) + abs(s % cols - d % cols)
zero = min(hop(p[1], p[2]) + p[3] for p in pkts)
want(res['latency_min'] >= zero, 'latency_min %s below the zero-load %d' % (res['latency_min'], zero))
if len(pkts) == 1:   # alone in the network: the model's zero-load latency exactly
    want(res['latency_max'] == zero, 'lone packet: latency %s, hops + flits = %d' % (res['latency_max'], zero))
for f in fails:
    print('FAIL:', f)
sys.exit(1 if fails else 0)
PY

for t in one_2x3 small_2x3; do
    "$BIN" stat -t esp -w "noc-trace:$TR/$t.trace" --json >"$TMP/$t.json" 2>"$TMP/err" && ok ||
        { bad "noc-trace $t exited $?"; cat "$TMP/err"; }
    python3 "$TMP/check.py" "$TR/$t.trace" "$TMP/$t.json" && ok || bad "noc-trace $t: results do not match the trace"
done
# The CPU and the accelerators are idle: no L2 access, no DMA, no invocation.
python3 -c "
import json, sys
d = json.load(open('$TMP/small_2x3.json'))
busy = [c['name'] for c in d['counters'] if c['value'] and c['name'].split('.')[1].startswith(('l2_', 'acc_', 'ddr', 'coh', 'llc', 'dma'))]
sys.exit(1 if busy else 0)" && ok || bad "a trace moved CPU, memory or accelerator monitors"
# The stall holds tile 2's sink: the 6-flit packet to it in cycle 200 leaves after cycle 230.
python3 -c "
import json, sys
r = {x['name']: x['value'] for x in json.load(open('$TMP/small_2x3.json'))['results']}
sys.exit(0 if r['cycles'] > 230 and r['latency_max'] >= 30 else 1)" && ok || bad "the stall held nothing"
# The table shows the results too.
expect 0 "latency_p99" -- "$BIN" stat -t esp -w "noc-trace:$TR/small_2x3.trace"

# Patterns on the 4x4 and the 8x8: traffic flows and drains; one seed gives one run.
for soc in esp_4x4 esp_8x8; do
    for p in uniform transpose bitcomp hotspot neighbor tornado; do
        "$BIN" stat -t "esp:soc=$soc" -w "noc:pattern=$p,rate=0.05,len=mix,seed=5,cycles=300" --json \
            >"$TMP/p.json" 2>"$TMP/err" && ok || { bad "pattern $p on $soc exited $?"; cat "$TMP/err"; }
        python3 -c "
import json, sys
d = json.load(open('$TMP/p.json'))
r = {x['name']: x['value'] for x in d['results']}
inj = sum(c['value'] for c in d['counters'] if c['name'].endswith('.noc_inj_p0'))
sys.exit(0 if r['packets'] > 0 and r['flits'] >= r['packets'] and r['cycles'] >= 300 and inj > 0 else 1)" &&
            ok || bad "pattern $p on $soc: no traffic, or no drain"
    done
done
run() { "$BIN" stat -t esp:soc=esp_4x4 -w "noc:pattern=uniform,rate=0.2,len=4,plane=3,cycles=500,seed=$1" --json; }
run 9 >"$TMP/a.json" && run 9 >"$TMP/b.json" && run 10 >"$TMP/c.json" && ok || bad "seeded runs failed"
cmp -s "$TMP/a.json" "$TMP/b.json" && ok || bad "one seed gave two runs"
cmp -s "$TMP/a.json" "$TMP/c.json" && bad "seeds 9 and 10 gave the same run" || ok
grep -q '"tile0.noc_inj_p3"' "$TMP/a.json" && python3 -c "
import json, sys
d = json.load(open('$TMP/a.json'))
sys.exit(0 if sum(c['value'] for c in d['counters'] if c['name'].endswith('.noc_inj_p3')) > 0 else 1)" &&
    ok || bad "plane=3 put nothing on plane 3"

# Bad input: exit 2, naming the line and the field.
t() { printf "$1" >"$TMP/bad.trace"; expect 2 "$2" -- "$BIN" stat -t "${3:-esp}" -w "noc-trace:$TMP/bad.trace"; }
t 'mesh 2 3\n5 0 1 1\n4 1 0 1\n' "bad.trace:3: field 'cycle': '4' comes before cycle 5"
t 'mesh 2 3\n0 2 2 1\n' "bad.trace:2: field 'dst': '2' equals src"
t 'mesh 2 3\n0 6 1 1\n' "bad.trace:2: field 'src': 6 out of range 0..5"
t 'mesh 2 3\n0 1 2 0\n' "bad.trace:2: field 'flits': 0 out of range 1..256"
t 'mesh 2 3\n0 1 2 257\n' "bad.trace:2: field 'flits': 257 out of range 1..256"
t '# c\nmesh 2 3\nburst 1\n' "bad.trace:3: field 'directive': 'burst' unknown"
t 'mesh 2 3\n0 0 1 1\n' "bad.trace:1: field 'mesh': 2x3 differs from the SoC's 4x4" esp:soc=esp_4x4
expect 1 "no-such.trace" -- "$BIN" stat -t esp -w "noc-trace:$TMP/no-such.trace"
expect 2 "field 'rate': '2' is not a number in (0, 1]" -- "$BIN" stat -t esp -w noc:pattern=uniform,rate=2
expect 2 "field 'pattern': 'zigzag' unknown" -- "$BIN" stat -t esp -w noc:pattern=zigzag
expect 2 "field 'key': 'colour' unknown" -- "$BIN" stat -t esp -w noc:pattern=uniform,colour=1

# Far above saturation the source queues would grow without bound: the run stops, saying so.
expect 1 "1048576 packets wait at their sources" -- "$BIN" stat -t esp -w noc:pattern=hotspot,rate=1,len=1,cycles=1000000

# socmon list esp names both workloads.
expect 0 "noc-trace:FILE" -- "$BIN" list esp
expect 0 "noc:pattern=" -- "$BIN" list workloads -t esp

finish "esp noc traffic"
