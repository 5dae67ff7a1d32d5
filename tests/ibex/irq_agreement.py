#!/usr/bin/env python3
"""The interrupt programs (tests/ibex/programs/irq_*.S) on socmon's Ibex model against the RTL.

  irq_agreement.py compare [--socmon BIN] [--elf-dir DIR] [PROGRAM...]
  irq_agreement.py check   [--elf-dir DIR] [--fixtures DIR]

`compare` runs each program (default: every irq_* program) with `socmon stat -t ibex:config=C`
for C = small and maxperf and compares it with the RTL's fixture (tests/ibex/fixtures/C/): for
every window ("== title" section) of the output, each counter the program printed and each mid-run
read ("r" records: mcycle, minstret, mhpmcounter4 and the handler's mepc), then the final
counters (.counters). It prints one line per difference (model - RTL) and a summary table
(program, config, which counters differ and by how much), and exits 0 even when they differ:
it is a report, not a test. Exit 1 if socmon fails to run a program.

`check` says whether the fixture is complete and self-consistent: every irq_* program has its
.out, .counters and .windows in both configurations; each .out has, per window, the 12 counter
lines, a "traps" line and its records, and as many windows as the .windows file; the .counters
names are the 12 counters; and the programs' images (built into --elf-dir by the programs'
Makefile, when the cross compiler is there) hash to images.sha256. Exit 1 on any failure.

--elf-dir defaults to a temporary directory into which the programs are built
(make -C tests/ibex/programs O=DIR).
"""
import argparse
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
SRC_ROOT = os.path.dirname(os.path.dirname(HERE))
PROGRAMS = os.path.join(HERE, "programs")
FIXTURES = os.path.join(HERE, "fixtures")
CONFIGS = ("small", "maxperf")
COUNTERS = ["mcycle", "minstret"] + ["mhpmcounter%d" % i for i in range(3, 13)]
RECORD = ["r.mcycle", "r.minstret", "r.mhpmcounter4", "r.mepc"]


def irq_programs():
    return sorted(os.path.basename(p)[:-2] for p in glob.glob(os.path.join(PROGRAMS, "irq_*.S")))


def build(elf_dir):
    r = subprocess.run(["make", "-s", "-C", PROGRAMS, "O=" + elf_dir],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if r.returncode != 0:
        sys.exit("irq_agreement.py: building the programs failed:\n" + r.stdout)


def parse_out(text):
    """-> list of (title, {name: value}, [records]) per window."""
    wins = []
    for line in text.splitlines():
        if line.startswith("== "):
            wins.append((line[3:], {}, []))
        elif not wins:
            continue
        elif line.startswith("r "):
            wins[-1][2].append([int(x, 16) for x in line.split()[1:]])
        else:
            parts = line.split()
            if len(parts) == 2 and re.fullmatch(r"[0-9a-f]{8}", parts[1]):
                wins[-1][1][parts[0]] = int(parts[1], 16)
    return wins


def parse_counters(text):
    return {l.split()[0]: int(l.split()[1]) for l in text.splitlines() if l.strip()}


def s32(v):
    v &= 0xffffffff
    return v - (1 << 32) if v & 0x80000000 else v


def run_model(socmon, cfg, elf):
    with tempfile.TemporaryDirectory(prefix="irq_agree_") as tmp:
        csv = os.path.join(tmp, "c.csv")
        r = subprocess.run([socmon, "stat", "-t", "ibex:config=" + cfg, "-x,", "-o", csv, "--", elf],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if r.returncode != 0:
            sys.exit("irq_agreement.py: socmon failed on %s (%s): %s"
                     % (elf, cfg, r.stderr.decode(errors="replace")[-500:]))
        vals = []
        for line in open(csv):
            f = line.strip().split(",")
            if f[0] == "counter":
                vals.append(int(f[3]))
    return r.stdout.decode(errors="replace"), dict(zip(COUNTERS, vals))


def compare(args):
    progs = args.programs or irq_programs()
    summary = []
    for name in progs:
        elf = os.path.join(args.elf_dir, name + ".elf")
        for cfg in CONFIGS:
            want = open(os.path.join(FIXTURES, cfg, name + ".out")).read()
            want_cnt = parse_counters(open(os.path.join(FIXTURES, cfg, name + ".counters")).read())
            got, got_cnt = run_model(args.socmon, cfg, elf)
            diffs = {}     # counter -> list of (window, delta)
            ww, gw = parse_out(want), parse_out(got)
            if len(ww) != len(gw):
                print("%s/%s: %d windows in the RTL's output, %d in the model's"
                      % (cfg, name, len(ww), len(gw)))
            for i, (w, g) in enumerate(zip(ww, gw)):
                for k in w[1]:
                    d = s32(g[1].get(k, 0) - w[1][k])
                    if d:
                        diffs.setdefault(k, []).append(d)
                        print("%s/%s [%s] %s: RTL %d, model %d (%+d)"
                              % (cfg, name, w[0], k, w[1][k], g[1].get(k, 0), d))
                nrec = 0
                for j, (wr, gr) in enumerate(zip(w[2], g[2])):
                    for k, a, b in zip(RECORD, wr, gr):
                        if a != b:
                            nrec += 1
                            diffs.setdefault(k, []).append(s32(b - a))
                            if args.verbose:
                                print("%s/%s [%s] record %d %s: RTL %#x, model %#x (%+d)"
                                      % (cfg, name, w[0], j, k, a, b, s32(b - a)))
                if len(w[2]) != len(g[2]):
                    print("%s/%s [%s]: %d records in the RTL's output, %d in the model's"
                          % (cfg, name, w[0], len(w[2]), len(g[2])))
                if nrec:
                    print("%s/%s [%s]: %d mid-run read(s) differ" % (cfg, name, w[0], nrec))
            for k in COUNTERS:
                d = got_cnt.get(k, 0) - want_cnt.get(k, 0)
                if d:
                    diffs.setdefault("final." + k, []).append(d)
            summary.append((name, cfg, want == got, diffs))
    print()
    print("| program | config | output | differences (model - RTL) |")
    print("| --- | --- | --- | --- |")
    for name, cfg, same, diffs in summary:
        if not diffs:
            text = "none"
        else:
            parts = []
            for k in sorted(diffs, key=lambda k: (not k.startswith("final."), k)):
                v = diffs[k]
                if k.startswith("final."):
                    parts.append("%s %+d" % (k, v[0]))
                else:
                    parts.append("%s %d× (%+d..%+d)" % (k, len(v), min(v), max(v)))
            text = "; ".join(parts)
        print("| %s | %s | %s | %s |" % (name, cfg, "same" if same else "differs", text))
    return 0


def check(args, have_elves):
    bad = []
    sums = {}
    fix = args.fixtures
    for line in open(os.path.join(fix, "images.sha256")):
        h, n = line.split()
        sums[n] = h
    for name in irq_programs():
        for cfg in CONFIGS:
            paths = {e: os.path.join(fix, cfg, name + e) for e in (".out", ".counters", ".windows")}
            missing = [p for p in paths.values() if not os.path.exists(p)]
            if missing:
                bad.append("%s/%s: missing %s" % (cfg, name, ", ".join(map(os.path.basename, missing))))
                continue
            wins = parse_out(open(paths[".out"]).read())
            nwin = sum(1 for l in open(paths[".windows"]) if l.startswith("window "))
            if not wins:
                bad.append("%s/%s: no window in the output" % (cfg, name))
            if nwin != len(wins):
                bad.append("%s/%s: %d windows in .out, %d in .windows" % (cfg, name, len(wins), nwin))
            for t, vals, recs in wins:
                if sorted(vals) != sorted(COUNTERS + ["traps"] + (["mepc"] if "mepc" in vals else [])):
                    bad.append("%s/%s [%s]: counter lines %s" % (cfg, name, t, sorted(vals)))
                if any(len(r) != 4 for r in recs):
                    bad.append("%s/%s [%s]: a record without 4 values" % (cfg, name, t))
            cnt = parse_counters(open(paths[".counters"]).read())
            if list(cnt) != COUNTERS:
                bad.append("%s/%s: .counters names %s" % (cfg, name, list(cnt)))
        if name not in sums:
            bad.append("%s: not in images.sha256" % name)
        elif have_elves:
            elf = os.path.join(args.elf_dir, name + ".elf")
            with tempfile.TemporaryDirectory() as tmp:
                b = os.path.join(tmp, "img.bin")
                subprocess.run(["riscv64-unknown-elf-objcopy", "-O", "binary", elf, b], check=True)
                h = hashlib.sha256(open(b, "rb").read()).hexdigest()
            if h != sums[name]:
                bad.append("%s: image sha256 %s, images.sha256 says %s" % (name, h, sums[name]))
    if not irq_programs():
        bad.append("no irq_* programs")
    for b in bad:
        print("irq_agreement.py: " + b)
    print("irq_agreement.py: %d programs x %d configs, %s%s"
          % (len(irq_programs()), len(CONFIGS), "%d problem(s)" % len(bad) if bad else "complete",
             "" if have_elves else " (no cross compiler: image hashes not checked)"))
    return 1 if bad else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mode", choices=("compare", "check"))
    ap.add_argument("programs", nargs="*")
    ap.add_argument("--socmon", default=os.path.join(SRC_ROOT, "build", "socmon"))
    ap.add_argument("--elf-dir")
    ap.add_argument("--fixtures", default=FIXTURES, help="the fixture directory to check")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every mid-run read that differs")
    args = ap.parse_intermixed_args()
    have_cc = shutil.which("riscv64-unknown-elf-gcc") is not None
    tmp = None
    if not args.elf_dir and (have_cc or args.mode == "compare"):
        if not have_cc:
            sys.exit("irq_agreement.py: riscv64-unknown-elf-gcc not installed (or give --elf-dir)")
        tmp = tempfile.mkdtemp(prefix="irq_agree_elf_")
        args.elf_dir = tmp
        build(tmp)
    try:
        if args.mode == "compare":
            return compare(args)
        return check(args, args.elf_dir is not None)
    finally:
        if tmp:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    sys.exit(main())
