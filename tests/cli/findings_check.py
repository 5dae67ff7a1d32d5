#!/usr/bin/env python3
"""Checks the findings ("where the time went", docs/findings.md) of stat's JSON and tables.

  findings_check.py json KIND FILE   KIND: esp, zynq, tensix-math, tensix-unpack, ibex, any
      the document has non-empty "findings"; every number a finding's line prints is one of its
      evidence values, written as the tables write numbers (thousands separators, no rounding
      of a count); and the content of KIND's findings agrees with the document's counters (a
      Tensix kernel's first line names the bound it was built for, tensix-math etc.).
  findings_check.py table FILE [MAX]
      the text ends with a "Where the time went:" section of 1..MAX (8) finding lines.
"""
import json
import re
import sys

# a number as the tables print it ("150,910", "73.68") or not ("150910", "1.5e+05")
NUM = re.compile(r"(?<![\w.,])-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?(?:e[+-]?\d+)?(?![\w]|,\d)")


def fail(msg):
    print("findings_check: " + msg)
    sys.exit(1)


def close(a, b, rel=0.005):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def numbers_are_evidence(f):
    text = f["finding"]
    # words that are names, not numbers: the instance and the labels
    for word in [f.get("instance") or ""] + [v for v in f["evidence"].values() if isinstance(v, str)] + \
            [f.get("choice") or ""]:
        if word:
            text = text.replace(word, " ")
    values = [v for v in f["evidence"].values() if isinstance(v, (int, float))]
    for tok in NUM.findall(text):
        whole = tok.lstrip("-").split(".")[0].split("e")[0]
        if "e" in tok or ("," not in whole and len(whole) > 3):
            fail("%r prints %s, not as the tables do (1,234,567: thousands separators)" % (f["finding"], tok))
        x = float(tok.replace(",", ""))
        if not any(abs(x - v) <= 1e-9 * max(1.0, abs(v)) for v in values):
            fail("%r prints %s, which is not among its evidence %r" % (f["finding"], tok, f["evidence"]))


def counters(doc):
    return {c["name"]: c["value"] for c in doc["counters"]}


def check_esp(doc, fs):
    c = counters(doc)
    acc = [f for f in fs if f["rule"] == "acc_split"]
    if not acc:
        fail("esp: no accelerator line")
    for f in acc:
        t = f["instance"]
        tot, mem = c[t + ".acc_tot_cycles"], c[t + ".acc_mem_cycles"]
        e = f["evidence"]
        if not close(e["compute"] / e["communication"], (tot - mem) / mem, 0.02):
            fail("esp: %s compute/communication %s/%s, counters say %d/%d" % (t, e["compute"], e["communication"],
                                                                             tot - mem, mem))
        if abs(e["compute"] + e["communication"] + e["idle"] - 100) > 0.2:
            fail("esp: %s shares do not add up to 100: %r" % (t, e))
        big = max(("compute", "communication", "idle"), key=lambda k: e[k])
        if f["choice"] != big:
            fail("esp: %s says mostly %s, the largest share is %s" % (t, f["choice"], big))
    mem = [f for f in fs if f["rule"] == "memory_vs_noc"]
    for f in mem:   # counts exactly as the table has them, not rounded (issue 37: 151000 for 150,910)
        want = sum(v for k, v in c.items() if k.endswith(".acc_mem_cycles"))
        if f["evidence"]["mem_wait"] != want:
            fail("esp: accelerators' memory cycles %s, counters say %d" % (f["evidence"]["mem_wait"], want))
        ddr = sum(v for k, v in c.items() if k.endswith(".ddr_accesses") or k == "ddr_accesses")
        if ddr and f["evidence"]["ddr"] != ddr:
            fail("esp: DDR accesses %s, counters say %d" % (f["evidence"]["ddr"], ddr))
    plane = [f for f in fs if f["rule"] == "noc_plane"]
    if plane:
        per = [sum(v for k, v in c.items() if ".noc_stop_p%d_" % p in k) for p in range(6)]
        want = "plane%d" % per.index(max(per))
        if plane[0]["evidence"]["plane"] != want:
            fail("esp: backpressure named on %s, the counters say %s" % (plane[0]["evidence"]["plane"], want))


def check_zynq(doc, fs):
    c = counters(doc)
    s = doc["elapsed_ns"] / 1e9
    ports = [f for f in fs if f["rule"] == "pl_port"]
    if not ports:
        fail("zynq: no PL port line")
    for f in ports:
        want = c[f["instance"] + ".rd_bytes"] / s / 1e6
        if not close(f["evidence"]["rd"], want):
            fail("zynq: %s read %s MB/s, counters say %.4g" % (f["instance"], f["evidence"]["rd"], want))
    if not [f for f in fs if f["rule"] == "ps_core"]:
        fail("zynq: no PS core line")


def check_ibex(doc, fs):
    c = counters(doc)
    top = [f for f in fs if f["rule"] == "cpi_top"]
    if not top:
        fail("ibex: no CPI stack line")
    e = top[0]["evidence"]
    if not close(e["cpi"], c["cycles"] / c["instret"]):
        fail("ibex: CPI %s, counters say %.4g" % (e["cpi"], c["cycles"] / c["instret"]))
    waits = {"lsu": c["lsu_wait"], "fetch": c["fetch_wait"], "mul": c["mul_wait"], "div": c["div_wait"]}
    waits["other"] = c["cycles"] - sum(waits.values())
    big = max(waits, key=waits.get)
    if max(("lsu", "fetch", "mul", "div", "other"), key=lambda k: e[k]) != big:
        fail("ibex: the top of the CPI stack is not %s: %r" % (big, e))


def check_tensix(doc, fs, want):
    """The first line names the bound the kernel was built for, as the JSON's bound metric does;
    tt-llk's dominant_bound stays tt-llk's: the argmax of its four scores, the summed risc one."""
    m = {x["name"]: x.get("label", x.get("value")) for x in doc["metrics"]}
    if fs[0]["rule"] != "bound" or fs[0].get("choice") != want:
        fail("tensix: the first finding is not '%s': %r" % (want, [f["finding"] for f in fs]))
    if m.get("bound") != want:
        fail("tensix: the bound metric says %r, not %s" % (m.get("bound"), want))
    names = ["math-bound", "unpack-bound", "pack-bound", "risc-bound"]
    scores = [m[k] for k in ("math_bound_score", "unpack_bound_score", "pack_bound_score", "risc_bound_score")]
    tt = names[max(range(4), key=lambda i: (scores[i], -i))]
    if m.get("dominant_bound") != tt:
        fail("tensix: dominant_bound %r is not tt-llk's argmax %s of %r" % (m.get("dominant_bound"), tt, scores))
    said = [f for f in fs if f["rule"] == "tt_llk_bound"]
    if (tt != want) != bool(said) or (said and said[0]["evidence"]["tt_llk"] != tt):
        fail("tensix: tt-llk's %s is %s: %r" % (tt, "not said" if tt != want else "said though it agrees",
                                                 [f["finding"] for f in fs]))


def main():
    if sys.argv[1] == "table":
        lines = open(sys.argv[2]).read().rstrip("\n").split("\n")
        most = int(sys.argv[3]) if len(sys.argv) > 3 else 8
        heads = [i for i, l in enumerate(lines) if l.strip() == "Where the time went:"]
        if not heads:
            fail("%s: no 'Where the time went:' section" % sys.argv[2])
        rest = [l for l in lines[heads[-1] + 1:] if l.strip()]
        if not 1 <= len(rest) <= most:
            fail("%s: %d finding lines (1..%d): %r" % (sys.argv[2], len(rest), most, rest))
        if any(not l.startswith("  ") for l in rest):
            fail("%s: the section is not the end of the table: %r" % (sys.argv[2], rest))
        return
    kind, path = sys.argv[2], sys.argv[3]
    doc = json.load(open(path))
    fs = doc.get("findings")
    if not fs:
        fail("%s: no findings" % path)
    for f in fs:
        for k in ("target", "finding", "evidence"):
            if k not in f:
                fail("%s: a finding lacks %r: %r" % (path, k, f))
        numbers_are_evidence(f)
    if kind == "esp":
        check_esp(doc, fs)
    elif kind == "zynq":
        check_zynq(doc, fs)
    elif kind == "ibex":
        check_ibex(doc, fs)
    elif kind.startswith("tensix-"):
        check_tensix(doc, fs, kind[len("tensix-"):] + "-bound")


main()
