#!/usr/bin/env python3
"""socmon's exact profile against the RTL's per-function fixture (tests/ibex/fixtures/*/NAME.functions).

  functions_check.py [--socmon BIN] [--elf-dir DIR] [--fixtures DIR] [--need N] [PROGRAM...]

For each configuration (small, maxperf) and each NAME.functions of the fixture (or only the PROGRAMs
named), records the program with `socmon record -t ibex[:config=maxperf]` and compares every
function's self counts of the 12 counters (`socmon report --children --json`, and the 10 of them
`--by-symbol --json` has) with the fixture's line for it, both ways: a function the fixture lists must have its 12 values, and one it does not
list must count nothing. The fixture is what tools/ibex_rtl/ibex_rtl.py `functions` wrote from the
RTL (tools/ibex_rtl/functions.py says the attribution convention); tests/ibex/fixtures/README.md
says how it was made.

The ELF of NAME is ELF_DIR/NAME.elf (the programs' build: make -C tests/ibex/programs O=ELF_DIR),
except for the committed ones (COMMITTED: tests/ibex/profile/elf/trapframes.elf, bench/ibex's
coremark_i10.elf and embench_sglib.elf). A program's image must hash to images.sha256 (a committed
ELF, to the hash below), so a difference is never a different build. A program without an ELF is skipped and said so; --need N fails unless at least N
(program, configuration) pairs were compared. Prints one line per differing value and a summary;
exit 1 on any difference, a missing ELF of a named PROGRAM, a bad hash or too few comparisons.
"""
import argparse
import glob
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
CONFIGS = ("small", "maxperf")
# the fixture's columns, as --children names them
EVENTS = ["cycles", "instret", "lsu_wait", "fetch_wait", "loads", "stores", "jumps", "branches",
          "branches_taken", "compressed", "mul_wait", "div_wait"]
COLUMNS = ["mcycle", "minstret"] + ["mhpmcounter%d" % i for i in range(3, 13)]
# programs whose ELF is committed, and that ELF's SHA-256 (what the fixture's RTL run loaded)
COMMITTED = {
    "trapframes": (os.path.join(HERE, "profile", "elf", "trapframes.elf"),
                   "ea3c8d18158a4f6969a31f7c559fa52595ed0ae249797bd3310b83da6c7ada87"),
    "coremark_i10": (os.path.join(SRC_ROOT, "bench", "ibex", "coremark_i10.elf"),
                     "40295a00ebabd407eed67a0e97bf3c5403d8bda8f6994abd3b4486d56aa1cade"),
    "embench_sglib": (os.path.join(SRC_ROOT, "bench", "ibex", "embench_sglib.elf"),
                      "2568a195fd1cd958f713d45ef6c22e306a42ec1f44eb54680e4223b82b13ce52"),
}


def instance_names(names):
    """Symbol names as socmon's report gives them (src/targets/ibex.c instance_name): characters
    other than [A-Za-z0-9_-] become '_', a name already taken gets -2, -3, ...; code outside every
    symbol is _unknown."""
    out, taken = {}, {"_unknown"}
    for n in names:
        if n == "[unknown]":
            out[n] = "_unknown"
            continue
        base = re.sub(r"[^A-Za-z0-9_-]", "_", n)
        m, k = base, 2
        while m in taken:
            m, k = "%s-%d" % (base, k), k + 1
        taken.add(m)
        out[n] = m
    return out


def read_fixture(path):
    rows = {}
    with open(path) as f:
        head = f.readline().split()
        if head != ["#", "function"] + COLUMNS:
            raise ValueError("%s: first line is not '# function %s'" % (path, " ".join(COLUMNS)))
        for n, line in enumerate(f, 2):
            p = line.split()
            if len(p) != 1 + len(COLUMNS):
                raise ValueError("%s:%d: not a function and %d counts" % (path, n, len(COLUMNS)))
            rows[p[0]] = [int(x) for x in p[1:]]
    return rows


def image_hash(elf, tmp):
    b = os.path.join(tmp, "image.bin")
    subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", elf, b], check=True)
    return hashlib.sha256(open(b, "rb").read()).hexdigest()


def model_rows(socmon, cfg, elf, tmp):
    rec = os.path.join(tmp, "run.rec")
    target = "ibex" if cfg == "small" else "ibex:config=maxperf"
    r = subprocess.run([socmon, "record", "-t", target, "-o", rec, "--", elf],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("functions_check.py: socmon record failed on %s (%s):\n%s" % (elf, cfg, r.stdout))
    views = {}
    for view in ("--children", "--by-symbol"):
        r = subprocess.run([socmon, "report", "-i", rec, view, "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:   # (a profile that does not add up, say)
            print("functions_check.py: socmon report %s failed on %s (%s):\n%s" % (view, elf, cfg, r.stderr))
            return None
        # --by-symbol has no jumps and compressed columns: None, not compared
        views[view] = {f["function"]: [f.get(e) for e in EVENTS] for f in json.loads(r.stdout)["functions"]}
    return views


def compare(fixture, views):
    """-> list of (view, function, column, rtl, model): --children's self counts (all 12) and
    --by-symbol's (10: it has no jumps and compressed columns)."""
    names = instance_names(list(fixture))
    rtl = {names[n]: v for n, v in fixture.items()}
    diffs = []
    for view, model in views.items():
        for fn in sorted(set(rtl) | set(model)):
            a = rtl.get(fn, [0] * len(COLUMNS))
            b = model.get(fn, [0 if view == "--children" or e not in ("jumps", "compressed") else None
                               for e in EVENTS])
            for col, (x, y) in enumerate(zip(a, b)):
                if y is not None and x != y:
                    diffs.append((view, fn, COLUMNS[col], x, y))
    return diffs


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--socmon", default=os.environ.get("SOCMON_BIN", "socmon"))
    ap.add_argument("--elf-dir", default=os.path.join(SRC_ROOT, "build", "ibex_programs_build"))
    ap.add_argument("--fixtures", default=os.path.join(HERE, "fixtures"))
    ap.add_argument("--need", type=int, default=0)
    args = ap.parse_args()
    sums = {}
    for line in open(os.path.join(args.fixtures, "images.sha256")):
        h, name = line.split()
        sums[name] = h
    bad, compared, skipped, hashed = 0, 0, [], {}
    with tempfile.TemporaryDirectory(prefix="functions_check_") as tmp:
        for cfg in CONFIGS:
            files = sorted(glob.glob(os.path.join(args.fixtures, cfg, "*.functions")))
            names = [os.path.basename(f)[:-len(".functions")] for f in files]
            if args.programs:
                for p in args.programs:
                    if p not in names:
                        print("functions_check.py: %s/%s.functions: no such fixture" % (cfg, p))
                        bad += 1
                names = [n for n in names if n in args.programs]
            for name in names:
                elf, want = COMMITTED.get(name, (os.path.join(args.elf_dir, name + ".elf"), sums.get(name)))
                if not os.path.exists(elf):
                    if args.programs:
                        print("functions_check.py: %s: no ELF %s" % (name, elf))
                        bad += 1
                    skipped.append("%s/%s" % (cfg, name))
                    continue
                if name not in hashed:   # a committed ELF's own hash (no objcopy needed), or the image's
                    hashed[name] = (hashlib.sha256(open(elf, "rb").read()).hexdigest() if name in COMMITTED
                                    else image_hash(elf, tmp))
                    if hashed[name] != want:
                        print("functions_check.py: %s: image sha256 %s, the fixture's is %s: not the "
                              "build the RTL ran" % (name, hashed[name], want))
                        bad += 1
                try:
                    fixture = read_fixture(os.path.join(args.fixtures, cfg, name + ".functions"))
                except ValueError as e:
                    print("functions_check.py: %s" % e)
                    bad += 1
                    continue
                views = model_rows(args.socmon, cfg, elf, tmp)
                compared += 1
                if views is None:
                    print("DIFFERS  %s/%s: no profile to compare" % (cfg, name))
                    bad += 1
                    continue
                diffs = compare(fixture, views)
                for view, fn, col, x, y in diffs:
                    print("DIFFERS %s/%s %s %s: rtl %d, socmon %s %d" % (cfg, name, fn, col, x, view, y))
                print("%-8s %s/%s (%d functions)" % ("DIFFERS" if diffs else "same", cfg, name, len(fixture)))
                bad += bool(diffs)
    if skipped:
        print("functions_check.py: no ELF, skipped: " + " ".join(skipped))
    print("functions_check.py: %d program/config pair(s) compared, %d failure(s)" % (compared, bad))
    if compared < args.need:
        print("functions_check.py: fewer than %d compared" % args.need)
        return 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
