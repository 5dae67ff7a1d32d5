"""Checks the flame graph's data in a `socmon report --html` page against the recording's profile.

Usage: flame_data.py PAGE.html CHILDREN.json FOLDED.txt
CHILDREN.json is `socmon report -i REC --children --json`, FOLDED.txt `socmon report -i REC
--folded` (cycles) of the same recording. Checks:
  - the page holds exactly one window.SOCMON_PROFILE script after window.SOCMON_DATA, whose
    JSON parses and holds no '<';
  - every node's parent comes before it, every index is in range, and the event shown first is
    cycles;
  - per function: the calls of its nodes add up to --children's calls, and its nodes' self
    counts of every event to --children's self count (modulo 2^width: the page's counts are
    signed, and a program that writes its own counters makes one negative);
  - the nodes' self cycles add up to the sum of --folded's values and to the page's total
    (modulo 2^width).
Exit status 1 with the reasons on stderr if a check fails."""
import collections
import json
import sys


def main():
    page, children, folded = sys.argv[1:4]
    text = open(page, encoding="utf-8").read()
    bad = []
    lead = "window.SOCMON_PROFILE = "
    if text.count(lead) != 1:
        print("flame_data: %d SOCMON_PROFILE scripts in %s" % (text.count(lead), page), file=sys.stderr)
        return 1
    a = text.index(lead) + len(lead)
    if text.find("window.SOCMON_DATA = ") > a:
        bad.append("the profile comes before the page's data")
    raw = text[a:text.index(";\n</script>", a)]
    if "<" in raw:
        bad.append("the profile's JSON holds a raw '<'")
    p = json.loads(raw)
    events, funcs, nodes, total = p["events"], p["funcs"], p["nodes"], p["total"]
    mod = [1 << w for w in p["widths"]]
    if events[p["event"]] != "cycles":
        bad.append("the event shown first is %r, not cycles" % events[p["event"]])
    for i, (parent, func, calls, trap, self) in enumerate(nodes):
        if (i and not 0 <= parent < i) or not 0 <= func < len(funcs) or len(self) != len(events):
            bad.append("node %d: parent %d, func %d, %d counts" % (i, parent, func, len(self)))
            break
    ch = {f["function"]: f for f in json.load(open(children))["functions"]}
    calls = collections.Counter()
    self = collections.defaultdict(lambda: [0] * len(events))
    for parent, func, c, trap, v in nodes[1:]:
        calls[funcs[func]] += c
        for k, x in enumerate(v):
            self[funcs[func]][k] += x
    for name, f in ch.items():
        if calls[name] != f["calls"]:
            bad.append("%s: %d calls in the page, %d in --children" % (name, calls[name], f["calls"]))
        for k, e in enumerate(events):
            if e in f and (self[name][k] - f[e]) % mod[k]:
                bad.append("%s: self %s %d in the page, %d in --children" % (name, e, self[name][k], f[e]))
    if set(calls) - set(ch):
        bad.append("functions in the page but not in --children: %r" % sorted(set(calls) - set(ch)))
    k = events.index("cycles")
    page_sum = sum(n[4][k] for n in nodes)
    folded_sum = sum(int(line.rsplit(" ", 1)[1]) for line in open(folded) if line.strip())
    if (page_sum - folded_sum) % mod[k] or (page_sum - total[k]) % mod[k]:
        bad.append("self cycles add up to %d, --folded to %d, the page's total is %d" % (page_sum, folded_sum, total[k]))
    for b in bad:
        print("flame_data: " + b, file=sys.stderr)
    if not bad:
        print("flame_data: %d frames of %d functions, %d cycles, as --children and --folded say"
              % (len(nodes) - 1, len(calls), page_sum))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
