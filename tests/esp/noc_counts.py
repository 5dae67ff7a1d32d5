#!/usr/bin/env python3
"""Every ESP counter value, before and after a change to the model (issue 29).

The NoC model's host work may change; its counts may not. noc_counts/counts.txt.xz holds what
`socmon stat -x,` and `socmon report --deltas -x,` of a `record -I 50us` printed for every
built-in ESP workload on the built-in 2x3 SoC, socs/esp_4x4.soc and socs/esp_8x8.soc, taken
with the model as it was before the change (noc_counts/README.md names the commit).

  noc_counts.py check SOCMON   runs the same commands, compares value by value
  noc_counts.py capture SOCMON writes the fixture (only on the commit the README names)
"""
import lzma
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "noc_counts", "counts.txt.xz")
SOCS = [("2x3", None), ("4x4", "socs/esp_4x4.soc"), ("8x8", "socs/esp_8x8.soc")]
WORKLOADS = ["multifft", "cpu_stream", "acc_sweep", "noc_stress", "idle",
             "acc_none", "acc_llc", "acc_dma", "acc_full"]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit("noc_counts: %s failed (%d): %s" % (" ".join(cmd), p.returncode, p.stderr.strip()))
    return p.stdout


def sections(socmon, src):
    """(name, command line, output lines) of every case, in the fixture's order."""
    with tempfile.TemporaryDirectory() as tmp:
        for size, soc in SOCS:
            target = "esp" + (":soc=" + os.path.join(src, soc) if soc else "")
            shown = "esp" + (":soc=" + soc if soc else "")
            for w in WORKLOADS:
                case = "%s %s" % (size, w)
                yield case + " stat", "stat -t %s -w %s -x," % (shown, w), \
                    run([socmon, "stat", "-t", target, "-w", w, "-x,"]).splitlines()
                rec = os.path.join(tmp, "r.rec")
                run([socmon, "record", "-t", target, "-w", w, "-I", "50us", "-q", "-f", "-o", rec])
                yield case + " deltas", "record -t %s -w %s -I 50us; report --deltas -x," % (shown, w), \
                    run([socmon, "report", "-i", rec, "--deltas", "-x,"]).splitlines()


def read_fixture():
    out, cur = {}, None
    with lzma.open(FIXTURE, "rt") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("## "):
                name, cmd = line[3:].split(" | ", 1)
                cur = out[name] = (cmd, [])
            else:
                cur[1].append(line)
    return out


def compare(name, want, got):
    """The first difference, by row and column name, or None."""
    if len(want) != len(got):
        return "%d lines, the fixture has %d" % (len(got), len(want))
    head = want[0].split(",") if want else []
    for i, (w, g) in enumerate(zip(want, got)):
        if w == g:
            continue
        wf, gf = w.split(","), g.split(",")
        if len(wf) != len(gf):
            return "line %d has %d fields, the fixture's %d" % (i + 1, len(gf), len(wf))
        for j, (a, b) in enumerate(zip(wf, gf)):
            if a != b:
                col = head[j] if name.endswith("deltas") and j < len(head) else "field %d" % (j + 1)
                what = gf[1] if name.endswith("stat") and len(gf) > 1 else col
                return "line %d, %s: %s, the fixture says %s" % (i + 1, what, b, a)
    return None


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("check", "capture"):
        sys.exit(__doc__)
    mode, socmon = sys.argv[1], sys.argv[2]
    src = os.path.normpath(os.path.join(HERE, "..", ".."))
    if mode == "capture":
        with lzma.open(FIXTURE, "wt", preset=9 | lzma.PRESET_EXTREME) as f:
            for name, cmd, lines in sections(socmon, src):
                f.write("## %s | %s\n" % (name, cmd))
                for line in lines:
                    f.write(line + "\n")
        print("wrote", FIXTURE)
        return
    fixture = read_fixture()
    bad, values = 0, 0
    for name, cmd, lines in sections(socmon, src):
        if name not in fixture:
            print("FAIL %s: not in the fixture" % name)
            bad += 1
            continue
        fcmd, want = fixture.pop(name)
        if fcmd != cmd:
            print("FAIL %s: the fixture ran '%s', this test '%s'" % (name, fcmd, cmd))
            bad += 1
            continue
        diff = compare(name, want, lines)
        values += sum(len(l.split(",")) for l in lines[1:])
        if diff:
            print("FAIL %s (%s): %s" % (name, cmd, diff))
            bad += 1
        else:
            print("ok %s: %d lines" % (name, len(lines)))
    for name in fixture:
        print("FAIL %s: in the fixture, not run" % name)
        bad += 1
    print("%d cases differ; %d values compared" % (bad, values))
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
