"""Checks of socmon sweep's tables for tests/sweep/sweep.test.sh.

  equal_runs BIN TABLE.json   every ok point's counters and metrics equal a separate
                              `socmon stat --json` of that point (run here, one by one)
  same TABLE_A TABLE_B        the two JSON tables hold the same sweep and the same points
  count TABLE STATUS N        the table holds N points of STATUS (ok, failed)
"""

import json
import math
import subprocess
import sys
import tempfile


def load(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def stat_of(binary, p, tmp):
    out = tmp + "/point.json"
    cmd = [binary, "stat", "-t", p["target"], "--json", "-o", out]
    if p["workload"]:
        cmd += ["-w", p["workload"]]
    if p["program"]:
        cmd += ["--", p["program"]]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    doc = load(out)
    counters = {c["name"]: c["value"] for c in doc["counters"]}
    metrics = {("%s.%s" % (m["instance"], m["name"]) if m.get("instance") else m["name"]): m["value"]
               for m in doc["metrics"]}
    return counters, metrics


def same_number(a, b):
    if a is None or b is None:
        return a is b
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b and type(a) is type(b)


def equal_runs(binary, table):
    t = load(table)
    checked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for p in t["points"]:
            if p["status"] != "ok":
                continue
            counters, metrics = stat_of(binary, p, tmp)
            for kind, mine, theirs in (("counters", p["counters"], counters), ("metrics", p["metrics"], metrics)):
                if set(mine) != set(theirs):
                    sys.exit("point %d: %s differ in names: %s" % (p["point"], kind, sorted(set(mine) ^ set(theirs))[:5]))
                for k in mine:
                    if not same_number(mine[k], theirs[k]):
                        sys.exit("point %d (%s): %s %s is %r in the sweep, %r in stat" %
                                 (p["point"], p["target"], kind, k, mine[k], theirs[k]))
                checked += len(mine)
    if checked == 0:
        sys.exit("no value checked")
    print("equal_runs: %d values of %d points equal stat's" % (checked, len(t["points"])))


def same(a, b):
    ta, tb = load(a), load(b)
    if ta["sweep"] != tb["sweep"]:
        sys.exit("sweep %r != %r" % (ta["sweep"], tb["sweep"]))
    if ta["points"] != tb["points"]:
        ia = [p["point"] for p in ta["points"]]
        ib = [p["point"] for p in tb["points"]]
        sys.exit("the points differ (%s vs %s)" % (ia, ib))
    print("same: %d points" % len(ta["points"]))


def count(table, status, n):
    got = sum(1 for p in load(table)["points"] if p["status"] == status)
    if got != int(n):
        sys.exit("%s: %d points %s, expected %s" % (table, got, status, n))


if __name__ == "__main__":
    {"equal_runs": equal_runs, "same": same, "count": count}[sys.argv[1]](*sys.argv[2:])
