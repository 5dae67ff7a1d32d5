#!/usr/bin/env python3
"""esp_speedup: host CPU time of the ESP model before and after a change, in one run, same machine.

Runs issue 29's acceptance command

    socmon record -t esp:soc=socs/esp_8x8.soc -w multifft -I 50us -q -o X.rec

with the socmon under test and with an old one, alternately, REPEAT times each, and prints each
one's best CPU time (user + system of the child, from getrusage) and the ratio old/new. The old
binary is --old BIN, or built from --rev REV (default 064f763, main before issue 29) into
build-rev-REV/ next to the source tree (a git worktree of that commit; built once, then reused).
With --callgrind it also counts both runs' instructions under valgrind (slow: about a minute
each), the repeatable figure on a shared machine. Both recordings' `report --deltas -x,` must be
equal, or it says so (a speed-up that changes a count is not one).

usage: bench/esp_speedup.py [--old BIN | --rev REV] [--new BIN] [--repeat N] [--callgrind]
Not a test: it prints figures and exits 1 only if a run fails.
"""
import argparse
import os
import re
import resource
import subprocess
import sys
import tempfile
import time

SRC = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from old_build import build_rev  # noqa: E402
ARGS = ["record", "-t", "esp:soc=" + os.path.join(SRC, "socs/esp_8x8.soc"), "-w", "multifft", "-I", "50us", "-q", "-f"]


def cpu_run(binary, out):
    """CPU seconds (user + system) of one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([binary] + ARGS + ["-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit("esp_speedup: %s failed: %s" % (binary, p.stderr.strip()))
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def instructions(binary, out):
    with tempfile.NamedTemporaryFile(suffix=".cg") as cg:
        p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg.name, binary] + ARGS +
                           ["-o", out], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = re.search(r"Collected : (\d+)", p.stderr)
    if p.returncode != 0 or not m:
        sys.exit("esp_speedup: callgrind of %s failed: %s" % (binary, p.stderr.strip()[-300:]))
    return int(m.group(1))


def deltas(binary, rec):
    return subprocess.run([binary, "report", "-i", rec, "--deltas", "-x,"], capture_output=True, text=True,
                          check=True).stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--old")
    ap.add_argument("--rev", default="064f763")
    ap.add_argument("--new", default=os.path.join(SRC, "build", "socmon"))
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--callgrind", action="store_true")
    a = ap.parse_args()
    os.environ.setdefault("SOCMON_DATADIR", SRC)
    old = a.old or build_rev(SRC, a.rev)
    with tempfile.TemporaryDirectory() as tmp:
        ro, rn = os.path.join(tmp, "old.rec"), os.path.join(tmp, "new.rec")
        best = {"old": float("inf"), "new": float("inf")}
        for _ in range(a.repeat):   # alternately, so a change in the machine's load hits both
            best["old"] = min(best["old"], cpu_run(old, ro))
            best["new"] = min(best["new"], cpu_run(a.new, rn))
        same = deltas(old, ro) == deltas(a.new, rn)
        print("socmon %s" % " ".join(ARGS[:7]))
        print("  %-5s %-60s %10s" % ("", "binary", "CPU s (best of %d)" % a.repeat))
        print("  %-5s %-60s %10.3f" % ("old", old[-60:], best["old"]))
        print("  %-5s %-60s %10.3f" % ("new", a.new[-60:], best["new"]))
        print("  speed-up (old/new CPU time): %.2fx" % (best["old"] / best["new"]))
        if a.callgrind:
            io, inew = instructions(old, ro), instructions(a.new, rn)
            print("  instructions: old %.2f G, new %.2f G, ratio %.2fx" % (io / 1e9, inew / 1e9, io / inew))
        print("  report --deltas of the two recordings: %s" % ("equal" if same else "DIFFERENT"))
        return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
