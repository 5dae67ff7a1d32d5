"""Parsers of what `socmon stat` and `socmon report --summary` print, shared by the CLI tests
(exact_runs.py, numbers_check.py, baseline.py): the totals document in JSON, in CSV, and the
aligned counter and metric tables of the text form."""
import csv
import io
import json
import re


def json_fields(text):
    """elapsed, counters and metrics of a totals document, keyed for comparison."""
    d = json.loads(text)
    out = {"elapsed_ns": d["elapsed_ns"]}
    for c in d["counters"]:
        out["counter " + c["name"]] = c["value"]
    for m in d.get("metrics", []):
        out[f"metric {m['instance']}.{m['name']}"] = m["value"]
    for h in d.get("hotspots") or []:
        out["hotspot " + json.dumps(h, sort_keys=True)] = 1
    return out


def csv_fields(text, sep=","):
    """'type name instance' -> value of a totals CSV (type,name,instance,value,unit,...)."""
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    return {f"{r[0]} {r[1]} {r[2]}": r[3] for r in rows[1:] if len(r) >= 4}


def sections(text):
    """The aligned tables of a totals document: (header line, [row lines]) each."""
    out, cur = [], None
    for line in text.split("\n"):
        if re.match(r"^  (counter|metric) ", line):
            cur = (line, [])
            out.append(cur)
        elif cur is not None and line.startswith("  ") and not line.startswith("  ("):
            cur[1].append(line)
        else:
            cur = None
    return out


def value_end(hdr):
    """The column where a section's values end: they are right-aligned under ' value'."""
    return hdr.index(" value") + len(" value")


def row_cells(hdr, row):
    """(name, value, rest) of one row of a section: name is every cell before the value
    ("tile0.l2_hits", or "wr_throughput slot0" for a metric with an instance), rest what
    follows the value column (unit, spread, description)."""
    end = value_end(hdr)
    cells = row[:end].split()
    return " ".join(cells[:-1]), cells[-1], row[end:]
