#!/usr/bin/env python3
"""Exact run lengths through the CLI (issue 11), on every target.

- stat and record + report --summary agree to the last digit on the same run (same target,
  workload, -I/-d): elapsed, every counter and every metric, in JSON and in CSV.
- stat's totals do not depend on -I (the models are step-size invariant): identical counts for
  -I 1us, 10us, 100us, 1ms and none.
- -d is the run's length whatever -I is: -d 10ms -I 3ms records 3, 6, 9, 10 ms, the last
  interval 1 ms long and marked short; a workload run ends where the workload ends.
- --interval-count N stops after N intervals (with -d: whichever ends first).

usage: exact_runs.py SOCMON TMPDIR [IBEX_PROGRAM.elf]
"""
import csv
import io
import json
import subprocess
import sys

from socmon_outputs import csv_fields, json_fields

BIN, TMP = sys.argv[1], sys.argv[2]
PROG = sys.argv[3] if len(sys.argv) > 3 else None
failures = 0
checks = 0


def check(cond, what):
    global failures, checks
    checks += 1
    if not cond:
        failures += 1
        print("FAIL:", what)


def run(args):
    """Runs socmon; returns what the command printed its results on (stderr with a program)."""
    r = subprocess.run([BIN] + args, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"FAIL: socmon {' '.join(args)} exited {r.returncode}: {r.stderr[:800]}")
    return r.stderr if "--" in args else r.stdout


def with_program(target, args):
    return args + ["--", PROG] if target == "ibex" else args


def stat(target, opts, fmt):
    # record gives a program's run its per-function counters (symbols=1): stat the same counters
    spec = "ibex:symbols=1" if target == "ibex" else target
    return run(with_program(target, ["stat", "-t", spec] + opts + fmt))


def record_report(target, opts, fmt, name="run.rec"):
    path = f"{TMP}/{name}"
    run(with_program(target, ["record", "-q", "-t", target, "-o", path] + opts))
    return run(["report", "-i", path, "--summary"] + fmt), path


def same(a, b, what):
    keys = sorted(set(a) | set(b))
    diff = [k for k in keys if a.get(k) != b.get(k)]
    check(not diff and len(a) > 3, f"{what}: {len(diff)} fields differ, e.g. " +
          "; ".join(f"{k}: {a.get(k)!r} vs {b.get(k)!r}" for k in diff[:4]))


# target -> (-I/-d pairs for stat == report, intervals for the invariance check)
TARGETS = {
    "esp": ([["-I", "1ms"], ["-I", "100us"], ["-I", "3ms", "-d", "10ms"], ["-I", "100ms", "-d", "2ms"],
             ["-I", "70us", "-d", "1ms"]], ["1us", "10us", "100us", "1ms", None]),
    "tensix": ([["-I", "1ms"], ["-I", "7us"], ["-I", "3ms", "-d", "10ms"], ["-I", "20us", "-d", "50us"]],
               ["1us", "10us", "100us", "1ms", None]),
    "zynq:duration_ms=7.3": ([["-I", "50ms"], ["-I", "1ms"], ["-I", "3ms", "-d", "10ms"],
                              ["-I", "50ms", "-d", "10ms"]], ["10us", "100us", "1ms", None]),
    "ibex": ([["-I", "1ms"], ["-I", "10us"], ["-I", "3us", "-d", "100us"], ["-I", "30us", "-d", "1ms"]],
             ["1us", "10us", "100us", "1ms", None]),
}

for target, (pairs, intervals) in TARGETS.items():
    name = target.split(":")[0]
    if name == "ibex" and not PROG:
        print("SKIP: ibex (no program built)")
        continue
    for opts in pairs:
        what = f"{target} {' '.join(opts)}"
        rep_json, path = record_report(name if name == "ibex" else target, opts, ["--json"])
        same(json_fields(stat(target, opts, ["--json"])), json_fields(rep_json), what + " stat vs report (JSON)")
        rep_csv = run(["report", "-i", path, "--summary", "-x,"])
        same(csv_fields(stat(target, opts, ["-x,"])), csv_fields(rep_csv), what + " stat vs report (CSV)")
        if "-d" in opts:
            want = {"10ms": 10000000, "2ms": 2000000, "1ms": 1000000, "50us": 50000, "100us": 100000}
            got = json.loads(rep_json)["elapsed_ns"]
            check(got == want[opts[opts.index("-d") + 1]], f"{what}: elapsed {got}, not the duration")
    # Invariance: the counts of stat whatever -I (and without it).
    base = None
    for iv in intervals:
        opts = ["-I", iv] if iv else []
        got = csv_fields(stat(target, opts, ["-x,"]))
        if base is None:
            base = got
        else:
            same(base, got, f"{target}: stat -I {intervals[0]} vs {' '.join(opts) or 'no -I'}")

# -d exact with -I not dividing it: samples at 3, 6, 9, 10 ms, the last 1 ms long and short.
run(["record", "-q", "-t", "zynq", "-d", "10ms", "-I", "3ms", "-o", f"{TMP}/z.rec"])
rows = list(csv.DictReader(io.StringIO(run(["report", "-i", f"{TMP}/z.rec", "-x,"]))))
check([r["t_ns"] for r in rows] == ["3000000", "6000000", "9000000", "10000000"],
      f"-d 10ms -I 3ms: samples at {[r['t_ns'] for r in rows]}")
check([r["interval_ns"] for r in rows][-1] == "1000000", "-d 10ms -I 3ms: last interval not 1 ms")
check([r["flags"] for r in rows] == ["", "", "", "short"], f"-d 10ms -I 3ms: flags {[r['flags'] for r in rows]}")

# A workload run ends at the workload's end (tensix matmul: 65620 cycles at 1 GHz), marked short.
run(["record", "-q", "-t", "tensix", "-I", "20us", "-o", f"{TMP}/t.rec"])
rows = list(csv.DictReader(io.StringIO(run(["report", "-i", f"{TMP}/t.rec", "-x,"]))))
check([r["t_ns"] for r in rows] == ["20000", "40000", "60000", "65620"], f"tensix -I 20us: {[r['t_ns'] for r in rows]}")
check(rows[-1]["flags"] == "short" and all(r["flags"] == "" for r in rows[:-1]), "tensix: the last interval not short")

# --interval-count: N intervals; with -d whichever ends first.
for opts, samples, elapsed in ((["-I", "1ms", "--interval-count", "3"], 4, 3000000),
                               (["-I", "1ms", "--interval-count", "3", "-d", "2500us"], 4, 2500000),
                               (["-I", "1ms", "--interval-count", "9", "-d", "2500us"], 4, 2500000),
                               (["-I", "1ms", "--interval-count", "2"], 3, 2000000)):
    d = json.loads(record_report("esp", opts, ["--json"], "n.rec")[0])
    check(d["samples"] == samples and d["elapsed_ns"] == elapsed,
          f"record {' '.join(opts)}: {d['samples']} samples over {d['elapsed_ns']} ns, want {samples} over {elapsed}")
    s = json.loads(stat("esp", opts, ["--json"]))
    check(s["elapsed_ns"] == elapsed, f"stat {' '.join(opts)}: elapsed {s['elapsed_ns']}, want {elapsed}")

print(f"exact_runs: {checks - failures} passed, {failures} failed")
sys.exit(1 if failures else 0)
