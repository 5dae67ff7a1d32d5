#!/usr/bin/env python3
"""report --perfetto of a program's recording: the profile's function slices (docs/perfetto.md).

Usage: perfetto_slices.py TRACE.json CHILDREN.json [--min-depth N] [--expect-dropped]

TRACE.json is `socmon report -i REC --perfetto`, CHILDREN.json `socmon report -i REC --children
--json` of the same recording. Fails (exit 1, the reason on stderr) unless:
  - process 1 has a thread "hart 0" and every function slice ("X", cat "function") is on it;
  - there are as many slices as otherData.slices says, at least one, and (when nothing was
    dropped) per function exactly as many as --children counts calls, so the slices are the
    profile's frames;
  - the slices nest: walked in order of start (longer first at equal starts), each lies inside
    [ts, ts + dur] of the slice open around it, and its args.depth is the number of slices open
    around it; the deepest nesting reaches --min-depth (recursion shows as nesting);
  - every slice lies inside the counter tracks' time range: from the first counter event (the
    first interval's start, the first sample) to the "end" instant (the last sample);
  - times keep nanoseconds (some ts or dur has a fraction of a microsecond);
  - otherData.slices_dropped > 0 iff there is one "slices dropped" instant on the hart's thread,
    its args.dropped equal to it (--expect-dropped: it must be > 0).
Times are compared in integer nanoseconds (the trace writes microseconds with three decimals).
"""
import collections
import json
import sys


def ns(us):
    return round(float(us) * 1000)


def main():
    args = sys.argv[1:]
    min_depth = 0
    if "--min-depth" in args:
        i = args.index("--min-depth")
        min_depth = int(args[i + 1])
        del args[i:i + 2]
    expect_dropped = "--expect-dropped" in args
    args = [a for a in args if a != "--expect-dropped"]
    trace = json.load(open(args[0]))
    children = json.load(open(args[1]))
    ev = trace["traceEvents"]
    other = trace["otherData"]
    errors = []

    harts = [e for e in ev if e["ph"] == "M" and e["name"] == "thread_name" and e["args"]["name"] == "hart 0"]
    if len(harts) != 1 or harts[0]["pid"] != 1:
        errors.append("no single thread 'hart 0' in process 1: %r" % harts)
        tid = None
    else:
        tid = harts[0]["tid"]
    sl = [e for e in ev if e["ph"] == "X" and e.get("cat") == "function"]
    if not sl:
        errors.append("no function slices")
    if other.get("slices") != len(sl):
        errors.append("otherData.slices %r, %d slices in the trace" % (other.get("slices"), len(sl)))
    for e in sl:
        if e.get("pid") != 1 or e.get("tid") != tid:
            errors.append("a slice off the hart's thread: %r" % e)
            break

    # the counter tracks' range: first counter event .. the "end" instant
    cts = [ns(e["ts"]) for e in ev if e["ph"] == "C"]
    ends = [ns(e["ts"]) for e in ev if e["ph"] == "i" and e["name"] == "end"]
    if not cts or len(ends) != 1:
        errors.append("no counter events or not one 'end' instant")
        lo = hi = 0
    else:
        lo, hi = min(cts), ends[0]
        if max(cts) >= hi:
            errors.append("a counter event at or after the end instant")

    # nesting
    items = sorted(((ns(e["ts"]), ns(e["ts"]) + ns(e["dur"]), e["args"]["depth"], e["name"]) for e in sl),
                   key=lambda s: (s[0], -(s[1] - s[0]), s[2]))
    stack, deepest, bad = [], 0, 0
    for t0, t1, depth, name in items:
        if t1 < t0:
            errors.append("%s: negative duration" % name)
        if t0 < lo or t1 > hi:
            errors.append("%s [%d, %d] ns lies outside the counter tracks' [%d, %d] ns" % (name, t0, t1, lo, hi))
        while stack and stack[-1][1] <= t0:
            stack.pop()
        if stack and not (stack[-1][0] <= t0 and t1 <= stack[-1][1]):
            bad += 1
            if bad <= 5:
                errors.append("%s [%d, %d] ns overlaps its parent %s [%d, %d] ns without lying inside it"
                              % (name, t0, t1, stack[-1][3], stack[-1][0], stack[-1][1]))
        if depth != len(stack):
            bad += 1
            if bad <= 5:
                errors.append("%s at %d ns: depth %d, but %d slices are open around it (%s)"
                              % (name, t0, depth, len(stack), ";".join(s[3] for s in stack)))
        stack.append((t0, t1, depth, name))
        deepest = max(deepest, len(stack))
    if deepest < min_depth:
        errors.append("the deepest nesting is %d slices, expected at least %d" % (deepest, min_depth))
    if sl and not any(ns(e["ts"]) % 1000 or ns(e["dur"]) % 1000 for e in sl):
        errors.append("no slice time has a fraction of a microsecond: nanoseconds lost?")

    dropped = other.get("slices_dropped", 0)
    marks = [e for e in ev if e["ph"] == "i" and e["name"] == "slices dropped"]
    if expect_dropped and not dropped:
        errors.append("expected dropped slices, otherData.slices_dropped is %r" % dropped)
    if dropped:
        if len(marks) != 1 or marks[0]["args"].get("dropped") != dropped or marks[0].get("tid") != tid:
            errors.append("slices_dropped %d but the instants say %r" % (dropped, marks))
    elif marks:
        errors.append("a 'slices dropped' instant while nothing was dropped")
    if not dropped:
        calls = {f["function"]: f["calls"] for f in children["functions"] if f["calls"]}
        got = collections.Counter(e["name"] for e in sl)
        if dict(got) != calls:
            diff = {k: (got.get(k, 0), calls.get(k, 0)) for k in set(got) | set(calls) if got.get(k, 0) != calls.get(k, 0)}
            errors.append("slices per function differ from --children's calls (slices, calls): %r" % diff)

    for e in errors:
        print("perfetto_slices: " + e, file=sys.stderr)
    if not errors:
        print("perfetto_slices: %d slices, nesting %d deep, inside [%d, %d] ns%s"
              % (len(sl), deepest, lo, hi, ", %d dropped" % dropped if dropped else ""))
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
