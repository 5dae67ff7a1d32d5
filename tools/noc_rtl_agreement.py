#!/usr/bin/env python3
"""How far the virtual ESP SoC's NoC is from ESP's router RTL, in figures (issue 38).

Replays every trace of tests/esp/noc_rtl/traces/ with `socmon stat -w noc-trace:FILE --json` and
compares what the model counts with what the RTL counted (tests/esp/noc_rtl/expected/):

- monitor values: per tile, the plane's tile_inject and its five queue_full registers, read as a
  driver reads them (register 29 + 5P + Q holds what the model puts at index Q) and, separately,
  by meaning (the RTL's North output against the model's `north`);
- the drain (the RTL's last tail-out cycle + 1 against the model's `cycles`) and the latency
  minimum, mean, p99 and maximum.

It prints one line per trace and the totals; it asserts nothing (the RTL-exact NoC is issue 38's
item 1, and its test will require every value to agree). Usage:

    python3 tools/noc_rtl_agreement.py [build/socmon] [TRACE-NAME-REGEX]
"""
import json
import os
import re
import subprocess
import sys

SRC = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = os.path.join(SRC, "tests", "esp", "noc_rtl")
SOCS = {(2, 3): None, (4, 4): "esp_4x4", (8, 8): "esp_8x8"}
RTL_PORTS = ["N", "S", "W", "E", "L"]                            # the RTL's index order (noc_pkg.sv)
MODEL_PORTS = ["local", "east", "west", "south", "north"]        # the guide's, the model's registers
MEANING = {"N": "north", "S": "south", "W": "west", "E": "east", "L": "local"}


def expected(name):
    e = {"tiles": {}}
    with open(os.path.join(FIX, "expected", name + ".txt")) as f:
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


def model(socmon, name, e):
    soc = SOCS.get(e["mesh"])
    target = "esp" + (":soc=" + soc if soc else "")
    trace = os.path.join(FIX, "traces", name + ".txt")
    out = subprocess.run([socmon, "stat", "-t", target, "-w", "noc-trace:" + trace, "--json"],
                         capture_output=True, text=True, check=False)
    if out.returncode != 0:
        return None, out.stderr.strip().splitlines()[-1:] or ["exit %d" % out.returncode]
    d = json.loads(out.stdout)
    counters = {c["name"]: c["value"] for c in d["counters"]}
    results = {r["name"]: r["value"] for r in d.get("results", [])}
    return (counters, results), None


def compare(e, counters, results):
    p = e.get("plane", 0)
    reg = mean = 0
    n = 0
    for t, (inj, *qf) in sorted(e["tiles"].items()):
        got_inj = counters.get("tile%d.noc_inj_p%d" % (t, p))
        n += 6
        reg += got_inj == inj
        mean += got_inj == inj
        for q, rtl in enumerate(qf):
            by_reg = counters.get("tile%d.noc_bp_p%d_%s" % (t, p, MODEL_PORTS[q]))
            by_meaning = counters.get("tile%d.noc_bp_p%d_%s" % (t, p, MEANING[RTL_PORTS[q]]))
            reg += by_reg == rtl
            mean += by_meaning == rtl
    lat = e.get("latency", {})
    timing = [("drain", e["drain"] + 1, results.get("cycles"))]
    timing += [("latency_" + k, v, results.get("latency_" + k)) for k, v in sorted(lat.items())]
    same = sum(1 for _, want, got in timing if got is not None and abs(got - want) < 1e-3)
    return n, reg, mean, len(timing), same, timing


def main():
    socmon = sys.argv[1] if len(sys.argv) > 1 else os.path.join(SRC, "build", "socmon")
    pick = re.compile(sys.argv[2] if len(sys.argv) > 2 else "")
    names = sorted(f[:-4] for f in os.listdir(os.path.join(FIX, "traces")) if f.endswith(".txt"))
    tot = [0] * 5
    failed = 0
    print("%-34s %13s %13s %9s  cycles rtl/model" % ("trace", "by register", "by meaning", "timing"))
    for name in names:
        if not pick.search(name):
            continue
        e = expected(name)
        got, err = model(socmon, name, e)
        if got is None:
            failed += 1
            print("%-34s socmon failed: %s" % (name, err[0]))
            continue
        n, reg, mean, nt, same, timing = compare(e, *got)
        for i, v in enumerate((n, reg, mean, nt, same)):
            tot[i] += v
        print("%-34s %6d/%-6d %6d/%-6d %4d/%-4d  %d/%s" % (name, reg, n, mean, n, same, nt, timing[0][1],
                                                             timing[0][2]))
    n, reg, mean, nt, same = tot
    if n:
        print("monitor values equal to the RTL's: %d of %d as a driver reads them (%.1f %%), %d by meaning "
              "(%.1f %%); drain and latency figures: %d of %d%s" % (reg, n, 100.0 * reg / n, mean,
                                                                    100.0 * mean / n, same, nt,
                                                                    "; %d traces failed" % failed if failed else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
