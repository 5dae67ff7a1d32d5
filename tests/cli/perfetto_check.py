"""Checks a trace written by `socmon report --perfetto` against `report --json --deltas` of
the same recording (tests/cli/perfetto.test.sh). Usage: perfetto_check.py TRACE REPORT [GAPS]

What Perfetto's JSON importer (trace_processor, json_trace_parser) reads: "C" events with an
object of numeric args (one counter track per arg, named "<name> <key>", in the event's
process), "M" process_name / thread_name / process_sort_index, "X" slices with a numeric dur,
"i" instants with a scope and a tid; ts in microseconds. The trace's documented meaning
(docs/perfetto.md): each interval's value sits at the interval's START and holds until the
next event on the track; a row flagged missed is a "gap" slice over its interval with every
track at 0 there and the interval's counts in the slice's args."""
import bisect
import json
import math
import sys
from collections import defaultdict

trace = json.load(open(sys.argv[1]))
rep = json.load(open(sys.argv[2]))
want_gaps = int(sys.argv[3]) if len(sys.argv) > 3 else 0
rows = rep["intervals"]
assert trace["displayTimeUnit"] == "ns", trace.keys()
assert trace["otherData"]["target"] == rep["target"], trace["otherData"]
ev = trace["traceEvents"]
assert isinstance(ev, list) and ev, "no events"

procs, threads, tracks, gaps, ends = {}, {}, defaultdict(list), [], []
for e in ev:
    ph = e["ph"]
    assert isinstance(e["pid"], int), e
    if ph == "M":
        assert e["name"] in ("process_name", "thread_name", "process_sort_index", "process_labels"), e
        if e["name"] == "process_name":
            procs[e["pid"]] = e["args"]["name"]
        if e["name"] == "thread_name":
            threads[(e["pid"], e["tid"])] = e["args"]["name"]
        continue
    ts = e["ts"]
    assert isinstance(ts, (int, float)) and ts >= 0, e
    if ph == "C":
        assert isinstance(e["args"], dict) and len(e["args"]) == 1, e
        (key, val), = e["args"].items()
        assert isinstance(val, (int, float)) and not isinstance(val, bool), e
        tracks[(e["pid"], e["name"], key)].append((ts, val))
    elif ph == "X" and e.get("cat") == "phase":
        # a workload phase (multifft's coherence modes) on the thread "phases": phases.py checks them
        assert e["tid"] == 3 and isinstance(e["dur"], (int, float)) and e["dur"] > 0, e
    elif ph == "X":
        assert e["name"] == "gap" and isinstance(e["dur"], (int, float)) and e["dur"] > 0, e
        assert (e["pid"], e["tid"]) in threads, e
        gaps.append(e)
    elif ph == "i":
        assert e["s"] == "t" and (e["pid"], e["tid"]) in threads, e
        ends.append(e)
    else:
        raise AssertionError("unexpected event %r" % e)
assert len(ends) == 1, ends

# every track's process is named; per track, time moves forward
by_name = {}
for (pid, name, key), pts in tracks.items():
    assert pid in procs, (pid, name)
    assert name not in by_name, "two tracks named %s" % name
    by_name[name] = pts
    assert all(a[0] < b[0] for a, b in zip(pts, pts[1:])), "ts not increasing on %s" % name
    assert key.startswith("[") or key == "value", key

counters = list(rows[0]["deltas"]) if rows else []
metrics = list(rows[0]["metrics"]) if rows else []
assert set(by_name) == set(counters) | set(metrics), set(by_name) ^ (set(counters) | set(metrics))
for c in counters:
    assert "[" in [k for (p, n, k) in tracks if n == c][0] and "/interval]" in [k for (p, n, k) in tracks if n == c][0]

def value_at(pts, t):
    """The track's value at t: the last event at or before t (a Perfetto counter holds its value)."""
    k = bisect.bisect_right(pts, (t + 1e-6, math.inf))
    return pts[k - 1][1] if k else None

# the trace's clock: microseconds since the first sample
t0 = rows[0]["t_ns"] - rows[0]["interval_ns"] if rows else 0
flagged = [r for r in rows if "missed=" in r["flags"]]
assert len(flagged) == want_gaps == len(gaps), (len(flagged), want_gaps, len(gaps))
gi = 0
for r in rows:
    start = (r["t_ns"] - r["interval_ns"] - t0) / 1000.0
    if "missed=" in r["flags"]:
        g = gaps[gi]
        gi += 1
        assert abs(g["ts"] - start) < 1e-3 and abs(g["dur"] - r["interval_ns"] / 1000.0) < 1e-3, (g, r)
        assert "missed=%d" % g["args"]["missed_intervals"] in r["flags"], (g["args"], r["flags"])
        assert g["args"]["deltas"] == r["deltas"], "gap slice's deltas differ from report's"
        for name, pts in by_name.items():
            assert value_at(pts, start) == 0, "%s not 0 over the gap at %s" % (name, start)
            # no event inside the gap: nothing measured spans it
            k = bisect.bisect_right(pts, (start + 1e-6, math.inf))
            assert k == len(pts) or pts[k][0] >= start + g["dur"] - 1e-3, name
        continue
    for c in counters:
        assert value_at(by_name[c], start) == r["deltas"][c], (c, start, value_at(by_name[c], start), r["deltas"][c])
    for m in metrics:
        want = r["metrics"][m]
        want = 0.0 if want is None else want
        got = value_at(by_name[m], start)
        assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (m, start, got, want)
if rows:
    assert abs(ends[0]["ts"] - (rows[-1]["t_ns"] - t0) / 1000.0) < 1e-3, ends
print("ok: %d events, %d tracks, %d processes, %d gaps" % (len(ev), len(tracks), len(procs), len(gaps)))
