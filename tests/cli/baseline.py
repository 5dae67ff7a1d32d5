#!/usr/bin/env python3
"""Every number unchanged (issue 24): the values `socmon stat`, `record` and `report` print on every
model target, in every output format, against the fixture tests/cli/baseline/values.txt.gz captured
on main before the analysis layer replaced the commands' own pipelines (tests/cli/baseline/README.md).

Each output is parsed as a reader of that format would (the aligned tables, the live lines, CSV,
JSON, Prometheus/OpenMetrics, the Perfetto trace, the HTML report's data) into names and values:
counter and metric names with their values, per-interval columns as one vector per column. Text,
units, descriptions and layout are not compared, so wording may change; a value may not, nor may a
name, a row or a column come or go. Numbers compare as numbers (28,672 == 28672, 20000.0 == 20000,
0.0311 != 0.0312): the precision a format prints is part of its value.

usage: baseline.py check   SOCMON FIXTURE [-j N] [--only GLOB] [--subset]
       baseline.py capture SOCMON FIXTURE [-j N]
SOCMON_SRC must name the source tree (the Ibex programs are tests/cli/baseline/elf/*.elf) and
SOCMON_DATADIR the data (soc=esp_4x4); ctest sets both.
"""
import concurrent.futures
import csv
import fnmatch
import gzip
import io
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile

from socmon_outputs import csv_fields, row_cells, sections

SRC = os.environ.get("SOCMON_SRC") or os.path.normpath(os.path.join(os.path.dirname(__file__), "../.."))
ELF = os.path.join(SRC, "tests/cli/baseline/elf")

# ---- the runs: (case, target spec, extra stat/record options, program or None) ----
CASES = []
for soc, spec in (("esp", "esp"), ("esp4x4", "esp:soc=esp_4x4")):
    for w in ("multifft", "cpu_stream", "acc_sweep", "noc_stress"):
        CASES.append((f"{soc}.{w}", spec, ["-w", w], None))
for k in ("matmul", "sfpu", "reduce", "topk", "sync"):
    CASES.append((f"tensix.{k}", "tensix", ["-w", k, "-I", "10us"], None))
for mode in ("profile", "advanced"):
    for w in ("mixed", "steady"):
        CASES.append((f"zynq.{mode}.{w}", f"zynq:apm_mode={mode}", ["-w", w], None))
for cfg in ("small", "maxperf"):
    for prog in ("whole", "cprog", "riscv_phases"):
        CASES.append((f"ibex.{cfg}.{prog}", f"ibex:config={cfg}", ["-I", "20us"], f"{prog}.elf"))
# stat -r (repeat statistics and spread) on one case of each target
REPEAT = {"esp.multifft", "esp4x4.acc_sweep", "tensix.matmul", "zynq.profile.mixed", "zynq.advanced.steady",
          "ibex.small.cprog", "ibex.maxperf.whole"}


def commands(case, spec, opts, prog, tmp):
    """(output id, argv, how to read it) of one case: stat in every format, record, report in every
    format on that recording. A program's counts go to -o FILE (its own output is stdout). Paths are
    relative to the run's directory: a recording holds its target's spec, with the program's path."""
    rec = f"{case}.rec"
    tail = ["--", prog] if prog else []
    out = []

    def stat(oid, fmt, parse, extra=()):
        f = f"{case}.{oid}"
        out.append((oid, ["stat", "-t", spec] + opts + list(extra) + fmt + ["-o", f] + tail, parse, f"{tmp}/{f}"))

    stat("stat", [], "totals")
    stat("stat-csv", ["-x,"], "csv")
    stat("stat-json", ["--json"], "json")
    stat("stat-prom", ["--prometheus"], "prom")
    stat("stat-om", ["--openmetrics"], "prom")
    if case in REPEAT:
        stat("stat-r3", [], "totals", ["-r", "3"])
        stat("stat-r3-csv", ["-x;"], "csv;", ["-r", "3"])
        stat("stat-r3-json", ["--json"], "json", ["-r", "3"])
    # the live lines: stderr with a program, stdout without; --flush: the recording's blocks (which
    # report --stats counts) cut by the wall clock's flush period would depend on the machine's speed
    out.append(("record", ["record", "-t", spec] + opts + ["-M", "*", "--flush", "3600s", "-o", rec] + tail,
                "live-stderr" if prog else "live", None))
    rep = ["report", "-i", rec]
    out += [
        ("report", rep, "rows", None),
        ("report-M", rep + ["-M", "*"], "rows", None),
        ("report-csv", rep + ["-x,", "--deltas"], "csv", None),
        ("report-json", rep + ["--json", "--deltas"], "json", None),
        ("summary", rep + ["--summary"], "totals", None),
        ("summary-csv", rep + ["--summary", "-x,"], "csv", None),
        ("summary-json", rep + ["--summary", "--json"], "json", None),
        ("summary-prom", rep + ["--summary", "--prometheus"], "prom", None),
        ("summary-om", rep + ["--summary", "--openmetrics"], "prom", None),
        ("stats", rep + ["--stats"], "keyvalue", None),
        ("stats-json", rep + ["--stats", "--json"], "json", None),
        ("perfetto", rep + ["--perfetto", f"{case}.trace.json"], "perfetto", f"{tmp}/{case}.trace.json"),
        ("html", rep + ["--html", f"{case}.html"], "html", f"{tmp}/{case}.html"),
    ]
    if prog:
        out += [("by-symbol", rep + ["--by-symbol"], "rows", None),
                ("by-symbol-csv", rep + ["--by-symbol", "-x,"], "csv", None),
                ("by-symbol-json", rep + ["--by-symbol", "--json"], "json", None)]
    return out


# ---- values ----
GROUPED = re.compile(r"^-?\d{1,3}(,\d{3})+(\.\d+)?$")


def canon(v):
    """A value as text that compares equal when the number is equal: thousands separators and a
    trailing % dropped, integral floats as integers, others as Python's shortest round-trip
    repr. Anything not a number (absent '-', null, a bound's name) stays as it is."""
    if v is None:
        return "null"
    if isinstance(v, bool):
        return str(v).lower()
    s = str(v).strip()
    if GROUPED.match(s):
        s = s.replace(",", "")
    if s.endswith("%") and len(s) > 1:
        s = s[:-1]
    try:
        return str(int(s))
    except ValueError:
        pass
    try:
        f = float(s)
    except ValueError:
        return s
    if math.isnan(f):
        return "nan"
    if f.is_integer() and abs(f) < 2 ** 53:
        return str(int(f))
    return repr(f)


def vector(values):
    return " ".join(canon(v) if v != "" else "''" for v in values)


class Values(dict):
    """name -> canonical value; a name seen twice gets #2, #3 (a row must not silently vanish)."""

    def put(self, name, value, raw=False):
        key, n = name, 1
        while key in self:
            n += 1
            key = f"{name}#{n}"
        self[key] = value if raw else canon(value)


# ---- parsers, one per kind of output ----
# a number of a finding's line, grouped as the tables write it ("150,910") or not
FINDING_NUM = re.compile(r"(?<![\w.,])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?(?![\w]|,\d)")


def put_findings(v, text):
    """The "Where the time went:" section that ends a table (docs/findings.md): each line's numbers
    as a vector, by the line's rank (the words around them may change, the numbers may not)."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if line.strip() == "Where the time went:"), None)
    n = 0
    for line in lines[at + 1:] if at is not None else []:
        if not line.strip():
            if n:
                break
            continue
        if not line.startswith("  "):
            break
        n += 1
        v.put(f"finding {n}", vector(FINDING_NUM.findall(line)), raw=True)


def parse_totals(text):
    """stat's and report --summary's text: the counter and metric tables (socmon_outputs.sections),
    each row's spread with -r, the hot spots, the elapsed time."""
    v = Values()
    for hdr, rows in sections(text):
        kind = hdr.split()[0]
        for r in rows:
            name, value, rest = row_cells(hdr, r)
            v.put(f"{kind} {name}", value)
            spread = re.search(r"\(\s*\+-\s*([-\d.,]+%?)\s*\)", rest)
            if spread:
                v.put(f"{kind} {name} spread", spread.group(1))
    hot, rank = False, 0
    for line in text.split("\n"):
        if re.match(r"^ \S", line) and re.search("hot spots", line, re.I):
            hot = True
        elif hot and line.startswith("  "):     # ranked: the rank is part of the name
            cells = re.split(r"\s{2,}", line.strip())
            rank += 1
            if len(cells) >= 2:                  # not "none: every such counter read 0"
                v.put(f"hotspot {rank} {cells[0]}", cells[1])
        elif hot and rank and not line.strip():
            hot = False
        m = re.match(r"^\s+([\d.,]+) seconds .*elapsed", line)
        if m:
            v.put("elapsed s", m.group(1))
    put_findings(v, text)
    return v


def parse_rows(text):
    """report's interval table and --by-symbol's function table: one vector per column (the header's
    names without their [unit]); '-' is an absent value, '' an empty flags cell."""
    lines = text.split("\n")
    at = next((i for i, line in enumerate(lines) if re.match(r"^\s+(time|function)\b", line)), None)
    if at is None:
        raise ValueError("no table header (time ... / function ...)")
    # a header name never holds a space; its unit ("[M inst/s]") may, and no value holds one
    cols = [re.sub(r" \[.*\]$", "", c) for c in re.findall(r"\S+(?: \[[^\]]*\])?", lines[at])]
    rows = []
    for line in lines[at + 1:]:
        if not line.strip():
            break
        cells = line.split()
        if len(cells) == len(cols) - 1 and cols[-1] == "flags":
            cells.append("")
        if len(cells) != len(cols):
            raise ValueError(f"{len(cells)} cells under {len(cols)} columns: {line!r}")
        rows.append(cells)
    v = Values()
    for i, c in enumerate(cols):
        v.put(f"col {c}", vector(r[i] for r in rows), raw=True)
    for line in lines[at + 1 + len(rows):]:     # by-symbol: the check under the table
        if "total equals" in line:
            v.put("total equals the whole-program counters", 1)
    put_findings(v, text)
    return v


def parse_live(text):
    """record's live lines ('  20.000 us  name=value unit  name=value%  ...'): a vector per name."""
    cols = {}
    n = 0
    for line in text.split("\n"):
        m = re.match(r"^\s+([\d.,]+) (\S+)\s{2}(.*)$", line)
        if not m or "=" not in m.group(3):
            continue
        cols.setdefault("time", []).append(m.group(1))
        for name, value in re.findall(r"([\w.\[\]]+)=(\S+)", m.group(3)):
            cols.setdefault(name, []).extend([""] * (n - len(cols[name])) + [value])
        n += 1
    v = Values()
    for name, vals in cols.items():
        v.put(f"col {name}", vector(vals + [""] * (n - len(vals))), raw=True)
    if not n:
        raise ValueError("no live lines")
    return v


def parse_csv(text, sep=","):
    """A totals CSV (type,name,instance,value,...): each row's value (socmon_outputs.csv_fields) and
    its other number columns (spread, pcnt-running); an interval or function CSV: a vector per column."""
    rows = list(csv.reader(io.StringIO(text), delimiter=sep))
    hdr = rows[0]
    v = Values()
    if hdr[:4] == ["type", "name", "instance", "value"]:
        fields = csv_fields(text, sep)
        if len(fields) != sum(1 for r in rows[1:] if r):
            raise ValueError("two rows of a totals CSV with one type, name and instance")
        for k, val in fields.items():
            v.put(k, val)
        for r in rows[1:]:
            for c, cell in list(zip(hdr, r))[5:]:
                v.put(f"{r[0]} {r[1]} {r[2]} {c}", cell)
        return v
    for i, c in enumerate(hdr):
        v.put(f"col {c}", vector(r[i] if i < len(r) else "~" for r in rows[1:]), raw=True)
    return v


class Num(str):
    """A JSON number kept as its text (parse_float/parse_int), told apart from a JSON string."""


SKIP_STRINGS = {"unit", "desc", "description", "kind", "target", "spec", "device", "workload", "file",
                "generator", "clock", "ts", "lost", "version_string", "instance", "counter", "metric"}


def flatten(o, path, v):
    """Every number of a JSON document under its path. A list of objects with a "name" is keyed by
    name (and instance); any other list of objects (intervals, rows, functions) becomes one vector
    per leaf path; a list of numbers one vector. Strings are skipped (names, units, wording), except
    inside row vectors (flags, function names)."""
    if isinstance(o, dict):
        for k, x in o.items():
            flatten(x, f"{path}.{k}" if path else k, v)
    elif isinstance(o, list):
        if o and all(isinstance(x, dict) and isinstance(x.get("name"), str) for x in o):
            for x in o:
                key = x["name"]
                inst = x.get("instance")
                if isinstance(inst, str) and inst and not key.startswith(inst + "."):
                    key = f"{inst}.{key}"
                flatten({k: y for k, y in x.items() if k != "name"}, f"{path}[{key}]", v)
        elif o and all(isinstance(x, dict) for x in o):
            leaves = {}
            for i, x in enumerate(o):
                sub = {}
                leaf_paths(x, "", sub)
                for k, y in sub.items():
                    leaves.setdefault(k, [None] * len(o))[i] = y
            for k, ys in leaves.items():
                if k.split(".")[-1] in SKIP_STRINGS and all(isinstance(y, str) and not isinstance(y, Num)
                                                             for y in ys if y is not None):
                    continue
                v.put(f"{path}[].{k}", " ".join("~" if y is None else jcanon(y) for y in ys), raw=True)
        else:
            v.put(f"{path}[]", " ".join(jcanon(y) for y in o), raw=True)
    elif isinstance(o, Num) or o is None:
        v.put(path, o)
    elif isinstance(o, str) and path.split(".")[-1] == "flags":
        v.put(path, o or "''", raw=True)


def leaf_paths(o, path, out):
    if isinstance(o, dict):
        for k, x in o.items():
            leaf_paths(x, f"{path}.{k}" if path else k, out)
    elif isinstance(o, list):
        out[path] = "[" + " ".join(jcanon(y) for y in o) + "]"
    else:
        out[path] = o


def jcanon(y):
    if isinstance(y, Num) or y is None or isinstance(y, bool):
        return canon(y)
    if isinstance(y, str) and y.startswith("[") and y.endswith("]"):
        return y
    return repr(y) if isinstance(y, str) and (y == "" or " " in y) else str(y)


def jload(text):
    return json.loads(text, parse_float=Num, parse_int=Num, parse_constant=Num)


def parse_json(text):
    v = Values()
    flatten(jload(text), "", v)
    return v


def parse_prom(text):
    """Prometheus / OpenMetrics samples: name{labels} -> value."""
    v = Values()
    for line in text.split("\n"):
        if line and not line.startswith("#"):
            name, value = line.rsplit(" ", 1)
            v.put(name, value)
    return v


def parse_keyvalue(text):
    """report --stats: '  name:  value' lines whose value is a number."""
    v = Values()
    for m in re.finditer(r"^\s+([\w ]+):\s+(\S+)\s*$", text, re.M):
        if re.match(r"^-?[\d,]*\.?\d+$", m.group(2)):
            v.put(m.group(1), m.group(2))
    return v


def parse_perfetto(path):
    """The trace: per counter track ('C' events), 'ts:value ...'; gap slices; the end instant; the
    numbers of otherData (not a program's function slices)."""
    d = jload(open(path).read())
    v = Values()
    # a program's function slices came after the fixture (issue 27): tests/cli/perfetto_slices.py
    # checks them against the profile; the baseline keeps to the counters' values
    other = {k: x for k, x in d.get("otherData", {}).items() if k not in ("slices", "slices_dropped")}
    flatten(other, "otherData", v)
    tracks = {}
    for e in d["traceEvents"]:
        if e.get("cat") == "function" or e.get("name") == "slices dropped":
            continue
        if e["ph"] == "C":
            for k, y in e["args"].items():
                tracks.setdefault(f"track {e['name']} {k}", []).append(f"{canon(e['ts'])}:{canon(y)}")
        elif e["ph"] in ("X", "i"):
            args = ",".join(f"{k}={canon(y)}" for k, y in sorted((e.get("args") or {}).items()))
            v.put(f"{e['ph']} {e['name']}", f"{canon(e['ts'])}:{canon(e.get('dur', 0))}:{args}", raw=True)
    for k, pts in tracks.items():
        v.put(k, " ".join(pts), raw=True)
    return v


def parse_html(path):
    """The report page's data (window.SOCMON_DATA): info's numbers, and the rows with each metric
    and counter named from info's lists (the page's rows hold them by position)."""
    text = open(path).read()
    m = re.search(r"window\.SOCMON_DATA = (\{.*?\});?\s*</script>", text, re.S)
    if not m:
        raise ValueError("no window.SOCMON_DATA in the page")
    d = jload(m.group(1))
    info = d["info"]
    mnames = [x["name"] for x in info.get("metrics", [])]
    cnames = [x["name"] for x in info.get("counters", [])]
    rows = []
    for r in d.get("rows", []):
        r = dict(r)
        if "m" in r:
            r["m"] = dict(zip(mnames, r["m"]))
        if "d" in r:
            r["d"] = dict(zip(cnames, r["d"]))
        rows.append(r)
    d["rows"] = rows
    v = Values()
    flatten(d, "", v)
    return v


PARSE = {"totals": parse_totals, "rows": parse_rows, "live": parse_live, "live-stderr": parse_live,
         "csv": parse_csv, "csv;": lambda t: parse_csv(t, ";"), "json": parse_json, "prom": parse_prom,
         "keyvalue": parse_keyvalue}


def run_case(binary, case, tmp):
    """Runs one case's commands in order; returns [(output id, argv as shown, Values)]."""
    _, spec, opts, prog = next(c for c in CASES if c[0] == case)
    results = []
    for oid, args, kind, path in commands(case, spec, opts, prog, tmp):
        shown = " ".join(args)
        r = subprocess.run([binary] + args, capture_output=True, text=True, cwd=tmp)
        if r.returncode != 0:
            raise RuntimeError(f"{case}: socmon {shown} exited {r.returncode}: {r.stderr[-600:]}")
        try:
            if kind in ("perfetto", "html"):
                vals = parse_perfetto(path) if kind == "perfetto" else parse_html(path)
            elif path:
                vals = PARSE[kind](open(path).read())
            else:
                vals = PARSE[kind](r.stderr if kind == "live-stderr" else r.stdout)
        except (ValueError, KeyError, IndexError) as e:
            raise RuntimeError(f"{case}: socmon {shown}: output not parsed ({kind}): {e!r}")
        if not vals:
            raise RuntimeError(f"{case}: socmon {shown}: no values parsed ({kind})")
        results.append((oid, shown, vals))
    return results


def run_all(binary, cases, jobs):
    tmp = tempfile.mkdtemp(prefix="socmon-baseline-")
    for elf in os.listdir(ELF):
        shutil.copy(os.path.join(ELF, elf), tmp)
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=jobs) as ex:
            futs = {c: ex.submit(run_case, binary, c, tmp) for c in cases}
            return {c: f.result() for c, f in futs.items()}
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---- the fixture: '# case|output|command' lines, then 'case|output|name|value' lines ----
def write_fixture(path, results):
    lines = []
    for case, outs in results.items():
        for oid, shown, vals in outs:
            lines.append(f"# {case}|{oid}|socmon {shown}")
            lines += [f"{case}|{oid}|{k}|{x}" for k, x in vals.items()]
    data = ("\n".join(lines) + "\n").encode()
    with (gzip.GzipFile(path, "wb", mtime=0) if path.endswith(".gz") else open(path, "wb")) as f:
        f.write(data)
    return len(lines)


def read_fixture(path):
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        cmds, vals = {}, {}
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("# "):
                case, oid, shown = line[2:].split("|", 2)
                cmds[(case, oid)] = shown
                vals[(case, oid)] = {}
            elif line:
                case, oid, name, value = line.split("|", 3)
                vals[(case, oid)][name] = value
    return cmds, vals


def main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("mode", choices=("check", "capture"))
    ap.add_argument("socmon")
    ap.add_argument("fixture")
    ap.add_argument("-j", type=int, default=2, help="cases run at once (default 2)")
    ap.add_argument("--only", default="*", help="check only the cases matching this glob")
    ap.add_argument("--subset", action="store_true",
                    help="check only one case per target configuration (those with stat -r)")
    a = ap.parse_args()
    a.socmon = os.path.abspath(a.socmon)
    cases = [c[0] for c in CASES if fnmatch.fnmatch(c[0], a.only) and (not a.subset or c[0] in REPEAT)]
    if a.mode == "capture":
        results = run_all(a.socmon, cases, a.j)
        n = write_fixture(a.fixture, results)
        print(f"baseline: {len(cases)} cases, {n} lines -> {a.fixture} ({os.path.getsize(a.fixture)} bytes)")
        return 0
    want_cmds, want = read_fixture(a.fixture)
    results = run_all(a.socmon, cases, a.j)
    errors, compared = [], 0
    seen = set()
    for case, outs in results.items():
        for oid, shown, got in outs:
            key = (case, oid)
            seen.add(key)
            if key not in want:
                errors.append(f"{case} {oid}: not in the fixture (socmon {shown})")
                continue
            if want_cmds[key] != f"socmon {shown}":
                errors.append(f"{case} {oid}: the fixture ran '{want_cmds[key]}', this test 'socmon {shown}'")
            exp = want[key]
            for name in sorted(set(exp) | set(got)):
                compared += 1
                if exp.get(name) != got.get(name):
                    errors.append(f"{case} {oid} ({shown}): {name}: fixture {exp.get(name, '(absent)')!r}, "
                                  f"now {got.get(name, '(absent)')!r}")
    for key in want:
        if key[0] in cases and key not in seen:
            errors.append(f"{key[0]} {key[1]}: in the fixture, not run ({want_cmds[key]})")
    for e in errors[:60]:
        print("FAIL:", e if len(e) < 600 else e[:600] + "...")
    if len(errors) > 60:
        print(f"FAIL: ... and {len(errors) - 60} more")
    print(f"baseline: {len(cases)} cases, {sum(len(o) for o in results.values())} outputs, "
          f"{compared} values compared, {len(errors)} differ")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
