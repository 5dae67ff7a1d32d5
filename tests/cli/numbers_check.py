"""Checks the outputs numbers.test.sh saved for one target (argv: the directory, the target).

Parses what `socmon` printed, as a person reads it:
- stat's counter and metric tables: every value of a section ends at the same column (however
  long the names), counts of 1000 or more are grouped ("1,234"), the --no-big-num run prints
  the same values ungrouped, and the elapsed time says "simulated";
- CSV and JSON hold no grouped number;
- each metric shows the same number of decimals in every live line (record), every row of
  report's table and in report --summary; report's headers carry the units; the report
  heading and the summary say "simulated".
Prints what is wrong and exits 1.
"""
import json
import re
import sys

from socmon_outputs import row_cells, sections, value_end

d, target = sys.argv[1], sys.argv[2]
errors = []
GROUPED = re.compile(r"\d,\d{3}(?!\d)")
NUMBER = re.compile(r"^-?[\d,]*\.?\d+$")


def read(name):
    with open(f"{d}/{name}") as f:
        return f.read()


def fail(msg):
    errors.append(f"{target}: {msg}")


def decimals(v):
    return len(v.split(".")[1]) if "." in v else 0


def check_totals(name, plain_name=None):
    text = read(name)
    tables = sections(text)
    if len(tables) < 1:
        fail(f"{name}: no counter table")
    values = {}
    for hdr, rows in tables:
        end = value_end(hdr)
        for r in rows:
            if r[end - 1] == " " or (len(r) > end and r[end] != " "):
                fail(f"{name}: value not ending at column {end}: '{r}'")
            key, v, _ = row_cells(hdr, r)
            if NUMBER.match(v):
                values[(hdr.split()[0], key)] = v
                whole = v.split(".")[0].lstrip("-")
                if len(whole.replace(",", "")) > 3 and "," not in whole:
                    fail(f"{name}: {key} = {v} is not grouped")
    if "seconds simulated time elapsed" not in text:
        fail(f"{name}: no 'seconds simulated time elapsed'")
    if plain_name:
        plain = read(plain_name)
        if GROUPED.search(plain):
            fail(f"{plain_name}: --no-big-num still groups: {GROUPED.search(plain).group(0)}")
        pv = {}
        for hdr, rows in sections(plain):
            for r in rows:
                key, v, _ = row_cells(hdr, r)
                pv[(hdr.split()[0], key)] = v
        for k, v in values.items():
            if pv.get(k) != v.replace(",", ""):
                fail(f"{plain_name}: {k} = {pv.get(k)}, grouped run had {v}")
    return values


def check_machine(name):
    text = read(name)
    if name.endswith(".json"):
        json.loads(text)
        if GROUPED.search(re.sub(r'"[^"]*"', '""', text)):
            fail(f"{name}: a grouped number in JSON")
    else:
        for line in text.split("\n")[1:]:
            f = line.split(";")
            if len(f) >= 4 and f[3] and re.match(r"^[\d,]+$", f[3]) and "," in f[3]:
                fail(f"{name}: a grouped value in CSV: {line}")


def live_decimals(name):
    per = {}
    for line in read(name).split("\n"):
        for m in re.finditer(r"  ([\w.]+)=(-?[\d,]*\.?\d+)", line):
            per.setdefault(m.group(1), set()).add(decimals(m.group(2)))
    return per


def report_decimals(name):
    """Decimals per column of report's table, and its headers."""
    lines = read(name).split("\n")
    if "simulated time elapsed" not in lines[0]:
        fail(f"{name}: heading lacks 'simulated time elapsed': {lines[0]}")
    hdr = next(line for line in lines if line.lstrip().startswith("time "))
    cols = re.split(r"  +", hdr.strip())
    per = {}
    for line in lines[lines.index(hdr) + 1:]:
        if not line.strip():
            break
        cells = re.split(r"  +", line.strip())
        for c, v in zip(cols[1:], cells[1:]):
            if NUMBER.match(v):
                per.setdefault(c.split(" [")[0], set()).add(decimals(v))
    return cols, per


stat = check_totals(f"stat-{target}", f"stat-plain-{target}")
summary = check_totals(f"summary-{target}")
for n in (f"stat-{target}.csv", f"stat-{target}.json", f"summary-{target}.csv", f"report-{target}.json"):
    check_machine(n)
live = live_decimals(f"live-{target}")
if GROUPED.search(read(f"live-plain-{target}")):
    fail("record --no-big-num: a grouped number in the live lines")
if GROUPED.search(read(f"report-plain-{target}")):
    fail("report --no-big-num: a grouped number in the table")
cols, rep = report_decimals(f"report-{target}")
if not any(" [" in c for c in cols):
    fail(f"report headers carry no unit: {cols}")
for m, ds in list(live.items()) + list(rep.items()):
    if len(ds) != 1:
        fail(f"metric {m} shows {sorted(ds)} decimals in different rows")
for m, ds in rep.items():
    if m in live and live[m] != ds:
        fail(f"metric {m}: {live[m]} decimals live, {ds} in report")
    # summary rows are "name instance value" or "name value": device-wide ones match by name
    s = summary.get(("metric", m))
    if s is not None and {decimals(s)} != ds:
        fail(f"metric {m}: {decimals(s)} decimals in the summary, {ds} in report")
if not live or not rep:
    fail(f"no metric values parsed (live {len(live)}, report {len(rep)})")

for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
