#!/usr/bin/env python3
"""Checks a multifft recording's phases as report shows them (tests/cli/phases.test.sh).

Usage: phases.py DIR  with DIR/x.csv (report -x,), DIR/x.json (--json), DIR/x.txt (table),
DIR/p.json (--perfetto), DIR/p.html (--html). Each row's phase must be the one its last
nanosecond falls in, the four phases must come in order (non-coherent, LLC-coherent, fully
coherent, coherent DMA) in every format, the trace must hold one slice per phase with the
phases' times, and the page's info.phases must be those phases."""
import csv
import json
import re
import sys

ORDER = ["non_coherent", "llc_coherent", "fully_coherent", "coherent_dma"]


def runs(seq):
    out = []
    for x in seq:
        if not out or out[-1] != x:
            out.append(x)
    return out


def main(d):
    errors = []
    page = open(d + "/p.html").read()
    m = re.search(r'"phases":(\[[^\]]*\])', page)
    if not m:
        print("page data has no phases")
        return 1
    phases = json.loads(m.group(1))
    if [p["name"] for p in phases] != ORDER:
        errors.append("page phases %s" % [p["name"] for p in phases])
    for a, b in zip(phases, phases[1:]):
        if a["t1_ns"] > b["t0_ns"] or a["t0_ns"] >= a["t1_ns"]:
            errors.append("phases overlap or are empty: %s %s" % (a, b))

    def want(t_ns):
        for p in phases:
            if p["t0_ns"] <= t_ns - 1 < p["t1_ns"]:
                return p["name"]
        return ""

    rows = json.load(open(d + "/x.json"))["intervals"]
    got = [r.get("phase") for r in rows]
    if got != [want(r["t_ns"]) for r in rows]:
        errors.append("JSON row phases %s" % got)
    if runs(got) != ORDER:
        errors.append("JSON phases not the four in order: %s" % runs(got))
    with open(d + "/x.csv") as f:
        recs = list(csv.DictReader(f))
    if [r["phase"] for r in recs] != got:
        errors.append("CSV phases differ from JSON's")
    table = [l.split()[1] for l in open(d + "/x.txt") if re.match(r"\s+[0-9][0-9,]*\.[0-9]+\s", l)]
    if table != got:
        errors.append("table phases differ from JSON's: %s" % runs(table))

    trace = json.load(open(d + "/p.json"))
    ev = trace["traceEvents"] if isinstance(trace, dict) else trace
    sl = [e for e in ev if e.get("cat") == "phase" and e.get("ph") == "X"]
    if [e["name"] for e in sl] != ORDER:
        errors.append("trace phase slices %s" % [e["name"] for e in sl])
    for e, p in zip(sl, phases):
        if abs(e["ts"] - p["t0_ns"] / 1e3) > 1e-3 or abs(e["ts"] + e["dur"] - p["t1_ns"] / 1e3) > 1e-3:
            errors.append("slice %s at %s+%s us, phase %s..%s ns" % (e["name"], e["ts"], e["dur"], p["t0_ns"], p["t1_ns"]))
    for e in errors:
        print("phases:", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
