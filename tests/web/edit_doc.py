"""Writes a copy of a `socmon report --html` page with its data document edited, for the browser
tests of what the page does with data a recording does not give on demand.

Usage: edit_doc.py PAGE.html OUT.html [--findings FILE.json] [--same METRIC_A METRIC_B]
  --findings: sets the document's top-level "findings" array to FILE.json's (the shape the
    analysis writes: [{"target", "finding", "evidence": {name: number}}]);
  --same: metric B (a name of info.metrics, e.g. slot1.wr_throughput) takes metric A's value in
    every row, so a chart holds two identical series.
The JSON goes back as the report writes it: one line, no raw '<' (it sits in a <script>)."""
import json
import sys

def main():
    page, out = sys.argv[1], sys.argv[2]
    args = sys.argv[3:]
    text = open(page, encoding="utf-8").read()
    lead = "window.SOCMON_DATA = "
    a = text.index(lead) + len(lead)
    b = text.index(";\n</script>", a)
    data = json.loads(text[a:b])
    if "--findings" in args:
        data["findings"] = json.load(open(args[args.index("--findings") + 1]))
    if "--same" in args:
        i = args.index("--same")
        names = [m["name"] for m in data["info"]["metrics"]]
        src, dst = names.index(args[i + 1]), names.index(args[i + 2])
        for r in data["rows"]:
            r["m"][dst] = r["m"][src]
    raw = json.dumps(data, separators=(",", ":")).replace("<", "\\u003c")
    open(out, "w", encoding="utf-8").write(text[:a] + raw + text[b:])
    return 0

sys.exit(main())
