#!/usr/bin/env python3
"""How far the virtual ESP SoC's NoC is from ESP's router RTL, in figures (issue 38).

Replays every trace of tests/esp/noc_rtl/traces/ with `socmon stat -w noc-trace:FILE --json` and
compares what the model counts with what the RTL counted (tests/esp/noc_rtl/expected/):

- monitor values: per tile, the plane's tile_inject and its five queue_full registers, read as a
  driver reads them: counter `noc_inj_pP` is monitor 23 + P, `noc_out_pP_<port>` monitor
  29 + 5P + Q with Q in the RTL's port order (north, south, west, east, local);
- the drain (the RTL's last tail-out cycle + 1 against the model's `cycles`) and the latency
  minimum, mean, p99 and maximum.

It prints one line per trace and the totals. With --require-all it exits 1 unless every value of
every trace agrees, and prints the first values that differ (sh_noc_rtl_exact). Usage:

    python3 tools/noc_rtl_agreement.py [--require-all] [--fixture DIR] [build/socmon] [TRACE-NAME-REGEX]
"""
import json
import os
import re
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(SRC, "tests", "esp", "noc_rtl")
SOCS = {(2, 3): None, (4, 4): "esp_4x4", (8, 8): "esp_8x8"}
PORTS = ["north", "south", "west", "east", "local"]               # the RTL's index order (noc_pkg.sv)


def expected(fix, name):
    e = {"tiles": {}}
    with open(os.path.join(fix, "expected", name + ".txt")) as f:
        for line in f:
            w = line.split()
            if not w or w[0].startswith("#"):
                continue
            if w[0] == "mesh":
                e["mesh"] = (int(w[1]), int(w[2]))
            elif w[0] == "plane":
                e["plane"] = int(w[1])
            elif w[0] == "drain":
                e["drain"] = int(w[1])
            elif w[0] == "latency":
                e["latency"] = {w[i]: float(w[i + 1]) for i in range(1, len(w) - 1, 2)}
            elif w[0] == "tile":
                e["tiles"][int(w[1])] = [int(x) for x in w[2:8]]
    return e


def model(socmon, fix, name, e):
    soc = SOCS.get(e["mesh"])
    target = "esp" + (":soc=" + soc if soc else "")
    trace = os.path.join(fix, "traces", name + ".txt")
    out = subprocess.run([socmon, "stat", "-t", target, "-w", "noc-trace:" + trace, "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:] or ["exit %d" % out.returncode]
    d = json.loads(out.stdout)
    counters = {c["name"]: c["value"] for c in d["counters"]}
    results = {r["name"]: r["value"] for r in d.get("results", [])}
    return (counters, results), None


def compare(e, counters, results):
    """(values, equal, timing figures, equal, timing, differences)"""
    p = e.get("plane", 0)
    reg = n = 0
    diffs = []
    for t, (inj, *qf) in sorted(e["tiles"].items()):
        pairs = [("tile%d.noc_inj_p%d" % (t, p), inj)]
        pairs += [("tile%d.noc_out_p%d_%s" % (t, p, PORTS[q]), rtl) for q, rtl in enumerate(qf)]
        for name, rtl in pairs:
            got = counters.get(name)
            n += 1
            reg += got == rtl
            if got != rtl:
                diffs.append("%s: RTL %d, model %s" % (name, rtl, got))
    lat = e.get("latency", {})
    timing = [("drain", e["drain"] + 1, results.get("cycles"))]
    timing += [("latency_" + k, v, results.get("latency_" + k)) for k, v in sorted(lat.items())]
    same = 0
    for what, want, got in timing:
        if got is not None and abs(got - want) < 1e-3:
            same += 1
        else:
            diffs.append("%s: RTL %s, model %s" % (what, want, got))
    return n, reg, len(timing), same, timing, diffs


def main():
    args = sys.argv[1:]
    strict = "--require-all" in args
    args = [a for a in args if a != "--require-all"]
    fix = FIX
    if "--fixture" in args:
        k = args.index("--fixture")
        fix = args[k + 1]
        del args[k:k + 2]
    socmon = args[0] if args else os.path.join(SRC, "build", "socmon")
    pick = re.compile(args[1] if len(args) > 1 else "")
    names = sorted(f[:-4] for f in os.listdir(os.path.join(fix, "traces")) if f.endswith(".txt"))
    tot = [0] * 4
    failed = 0
    bad = []
    print("%-34s %13s %9s  cycles rtl/model" % ("trace", "monitors", "timing"))
    for name in names:
        if not pick.search(name):
            continue
        e = expected(fix, name)
        got, err = model(socmon, fix, name, e)
        if got is None:
            failed += 1
            print("%-34s socmon failed: %s" % (name, err[0]))
            bad.append("%s: socmon failed: %s" % (name, err[0]))
            continue
        n, reg, nt, same, timing, diffs = compare(e, *got)
        for i, v in enumerate((n, reg, nt, same)):
            tot[i] += v
        bad += ["%s: %s" % (name, d) for d in diffs]
        print("%-34s %6d/%-6d %4d/%-4d  %d/%s" % (name, reg, n, same, nt, timing[0][1], timing[0][2]))
    n, reg, nt, same = tot
    if n:
        print("monitor values equal to the RTL's, as a driver reads them: %d of %d (%.1f %%); drain and "
              "latency figures: %d of %d%s" % (reg, n, 100.0 * reg / n, same, nt,
                                               "; %d traces failed" % failed if failed else ""))
    if strict and (bad or not n):
        print("FAIL: %d values differ from the RTL's%s" % (len(bad), ", the first:" if bad else
                                                           " (no trace was compared)"))
        for d in bad[:20]:
            print("  " + d)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
