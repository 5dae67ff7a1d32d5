"""Checks the data of a `socmon report --html` page against the recording it came from.

Usage: report_data.py PAGE.html SUMMARY.json [--max-rows N] [--merged] [--all-deltas]
SUMMARY.json is `socmon report -i REC --summary --json` of the same recording. Checks:
  - the page holds exactly one window.SOCMON_DATA script, whose JSON parses (no '<' in it);
  - info has the /api/info shape (version 1, target, counters, metrics, layout);
  - rows: at most N; their intervals add up to the recording's elapsed time; each row's
    "m" has one value per info.metrics and "d" one per "counters";
  - the deltas of each carried counter add up to the summary's total of that counter;
  - --merged: rows were merged (merge > 1, a note says so) and a merged row's device-wide
    throughput/rate metric equals its deltas over its time (metrics over the merged interval);
  - --all-deltas: every counter's deltas are carried;
  - "run", the run's totals the page's summary shows, is the summary's: its elapsed time, each
    counter's total and each metric's value, exactly (null where the summary's is null).
Exit status 1 with the reasons on stderr if a check fails."""
import json
import sys

def main():
    page, summary = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    max_rows = int(args[args.index("--max-rows") + 1]) if "--max-rows" in args else 4000
    text = open(page, encoding="utf-8").read()
    bad = []
    lead = "window.SOCMON_DATA = "
    if text.count(lead) != 1:
        print("report_data: %d SOCMON_DATA scripts in %s" % (text.count(lead), page), file=sys.stderr)
        return 1
    start = text.index(lead) + len(lead)
    end = text.index(";\n</script>", start)
    raw = text[start:end]
    if "<" in raw:
        bad.append("the embedded JSON holds a raw '<'")
    data = json.loads(raw)
    info, rows, names = data["info"], data["rows"], data["counters"]
    if info.get("version") != 1 or not info.get("target") or not isinstance(info.get("layout"), dict):
        bad.append("info lacks version 1, a target or a layout: %r" % {k: info.get(k) for k in ("version", "target")})
    cnames = [c["name"] for c in info["counters"]]
    for c in info["counters"]:
        for key in ("name", "instance", "counter", "unit", "width"):
            if key not in c:
                bad.append("counter %r lacks %r" % (c.get("name"), key))
                break
    for m in info["metrics"]:
        for key in ("name", "instance", "metric", "unit", "precision", "desc"):
            if key not in m:
                bad.append("metric %r lacks %r" % (m.get("name"), key))
                break
    if len(rows) > max_rows:
        bad.append("%d rows, more than %d" % (len(rows), max_rows))
    if not rows:
        bad.append("no rows")
    summ = json.load(open(summary))
    elapsed = sum(r["dt_ns"] for r in rows)
    if elapsed != summ["elapsed_ns"]:
        bad.append("rows span %d ns, the recording %d ns" % (elapsed, summ["elapsed_ns"]))
    totals = {c["name"]: c["value"] for c in summ["counters"]}
    nm = len(info["metrics"])
    for r in rows:
        if len(r["m"]) != nm or len(r["d"]) != len(names):
            bad.append("row %r has %d metrics and %d deltas, expected %d and %d" % (r["seq"], len(r["m"]), len(r["d"]), nm, len(names)))
            break
    for k, name in enumerate(names):
        if name not in cnames:
            bad.append("carried counter %s is not in info.counters" % name)
        s = sum(r["d"][k] for r in rows)
        if s != totals.get(name):
            bad.append("counter %s: the rows' deltas add up to %d, the summary says %r" % (name, s, totals.get(name)))
    run = data.get("run") or {}
    if run.get("elapsed_ns") != summ["elapsed_ns"]:
        bad.append("run.elapsed_ns %r, the summary %r" % (run.get("elapsed_ns"), summ["elapsed_ns"]))
    if [totals.get(n) for n in cnames] != run.get("counters"):
        bad.append("run.counters differ from the summary's counters")
    want = {(m["instance"] + "." if m["instance"] else "") + m["name"]: m["value"] for m in summ["metrics"]}
    got = dict(zip([m["name"] for m in info["metrics"]], run.get("metrics") or []))
    if len(run.get("metrics") or []) != nm or got != want:
        diff = sorted(k for k in set(want) | set(got) if want.get(k, "absent") != got.get(k, "absent"))
        bad.append("run.metrics differ from the summary's at %d metrics: %s" % (len(diff), diff[:5]))
    if "--all-deltas" in args and names != cnames:
        bad.append("the page carries %d of %d counters' deltas" % (len(names), len(cnames)))
    if "--merged" in args:
        if data.get("merge", 1) <= 1 or not any("merged" in n for n in data.get("notes", [])):
            bad.append("expected merged rows and a note saying so (merge %r, notes %r)" % (data.get("merge"), data.get("notes")))
        # zynq's pl_wr_throughput = wr_bytes / interval_s / 1e6 summed over the slots
        if "pl_wr_throughput" in [m["name"] for m in info["metrics"]]:
            mi = [m["name"] for m in info["metrics"]].index("pl_wr_throughput")
            idx = [k for k, n in enumerate(names) if n.endswith(".wr_bytes")]
            checked = 0
            for r in rows:
                want = sum(r["d"][k] for k in idx) / (r["dt_ns"] / 1e9) / 1e6
                got = r["m"][mi]
                if got is None or abs(got - want) > 1e-6 * max(1.0, abs(want)):
                    bad.append("row %d: pl_wr_throughput %r, its merged deltas give %r" % (r["seq"], got, want))
                    break
                checked += 1
            print("report_data: pl_wr_throughput checked on %d merged rows" % checked)
    for b in bad:
        print("report_data: " + b, file=sys.stderr)
    print("report_data: %s: %d rows (merge %s), %d counters carried, %d metrics" % (page, len(rows), data.get("merge"), len(names), nm))
    return 1 if bad else 0

sys.exit(main())
